import { realpathSync } from "node:fs";
import { basename } from "node:path";
import * as vscode from "vscode";
import type { AskMethod } from "../../../src/editors/core/ask-methods.ts";
import type { ClientOffer } from "../../../src/editors/state-dir/core/suggestion-offer.ts";
import { AskStatus, type PiLog, ReplyViews, SHOW_REPLY_COMMAND } from "./ask-views.ts";
import { type ChannelPeer, PEER_ENDED } from "./channel-server.ts";
import {
	type AskView,
	addParams,
	askersFor,
	askParams,
	chooseAsker,
	type HeldAsker,
	MAX_TYPED_BYTES,
	readNews,
	type ViewedDocument,
} from "./core/asks.ts";
import { QuestionViews } from "./question-views.ts";

/** The context key the palette's asks show under: some pi offered asks to this window. */
const OFFERED_CONTEXT = "piIdeContext.asksOffered";
/** pi answers each message at once (what became of an ask comes as news): past this, it is not answering. */
const ANSWER_TIMEOUT_MS = 10_000;
const HINT = "@this: the selection, else the cursor's line; also @selection, @buffer, @buffers, @diagnostics";

interface Asker extends HeldAsker {
	peer: ChannelPeer;
}

/**
 * "pi: Ask…" and its siblings: the palette's commands while at least one pi offered asks on its connection, an
 * ask sent to the pi chosen as core/asks.ts says (a quick pick among several, the choice kept while that pi's
 * offer stands), and pi's news shown: the status bar (an error also as a notification), the log, the reply's
 * view, pi's questions of a run asked here (question-views.ts: answered to the pi that asked). A pi that went is
 * said once, `pi: gone`, and nothing is sent.
 */
export class WindowAsks {
	private readonly askers = new Map<number, Asker>();
	private order = 0;
	private offeredNow = false;
	private remembered?: number;
	private lastAsked?: number;
	private readonly status = new AskStatus();
	private readonly replies = new ReplyViews((pid) => this.replyClosed(pid));
	private readonly questions = new QuestionViews((peer, method, params) => {
		const asker = this.askers.get(peer);
		if (asker) this.send(asker, method, params);
	});

	/** `userEditor`: the editor the user works in (a diff of pi's or the reply's view never counts). */
	constructor(
		private readonly log: PiLog,
		private readonly userEditor: () => vscode.TextEditor | undefined,
	) {}

	register(): vscode.Disposable[] {
		return [
			...this.replies.register(),
			this.status,
			vscode.commands.registerCommand("piIdeContext.ask", () => this.ask("")),
			vscode.commands.registerCommand("piIdeContext.askSelection", () => this.ask("@this ")),
			vscode.commands.registerCommand("piIdeContext.addSelection", () => this.add()),
			vscode.commands.registerCommand("piIdeContext.stop", () => this.toLastAsked("stop")),
			vscode.commands.registerCommand(SHOW_REPLY_COMMAND, () => this.toLastAsked("reply")),
		];
	}

	/** pi's offer on `peer`'s connection (again when it changed): asks held while it offers them. */
	offered(peer: ChannelPeer, offer: ClientOffer): void {
		if (!offer.asks) {
			this.forget(peer.id);
			return;
		}
		const order = this.askers.get(peer.id)?.order ?? ++this.order;
		this.askers.set(peer.id, { id: peer.id, peer, offer, order });
		this.offering();
	}

	peerGone(peer: ChannelPeer): void {
		this.forget(peer.id);
	}

	/** A notification of pi's: an ask's news shown; anything else ignored. */
	news(peer: ChannelPeer, params: unknown): void {
		const news = readNews(params);
		const pid = this.askers.get(peer.id)?.offer.pid;
		if (!news || pid === undefined) return;
		if (news.kind === "reply") {
			void this.replies.reply(pid, news.text).catch(() => {});
			return;
		}
		if (news.kind !== "status") {
			this.questions.news(peer.id, pid, news);
			return;
		}
		this.log.line(`pi ${pid}: ${news.text}`, news.level === "error" ? "error" : "info");
		this.status.show(news.text, news.level);
	}

	closeAll(): void {
		this.askers.clear();
		this.questions.closeAll();
		this.offering();
	}

	private forget(id: number): void {
		this.questions.gone(id);
		if (!this.askers.delete(id)) return;
		if (this.remembered === id) this.remembered = undefined;
		this.offering();
	}

	private offering(): void {
		const on = this.askers.size > 0;
		if (on === this.offeredNow) return;
		this.offeredNow = on;
		if (!on) this.status.hide();
		void vscode.commands.executeCommand("setContext", OFFERED_CONTEXT, on);
	}

	/** A question of pi's waits while the user types an ask: it would take the input box's place. */
	private async ask(value: string): Promise<void> {
		const release = this.questions.hold();
		try {
			await this.typedAsk(value);
		} finally {
			release();
		}
	}

	private async typedAsk(value: string): Promise<void> {
		const editor = this.userEditor();
		const asker = await this.choose(editor);
		if (!asker) return;
		const prompt = await vscode.window.showInputBox({
			title: `Ask pi ${asker.offer.pid}`,
			prompt: HINT,
			placeHolder: "explain @this",
			value,
			valueSelection: [value.length, value.length],
			ignoreFocusOut: true,
			validateInput: (text) =>
				Buffer.byteLength(text, "utf8") > MAX_TYPED_BYTES ? `at most ${MAX_TYPED_BYTES / 1024} KiB` : undefined,
		});
		if (prompt === undefined || prompt.trim() === "") return;
		this.lastAsked = asker.id;
		// What the placeholders stand for as the user sends it: the editor may have moved while the box was open.
		this.send(asker, "ask", askParams(prompt, askView(this.userEditor() ?? editor)));
	}

	private async add(): Promise<void> {
		const editor = this.userEditor();
		const params = addParams(askView(editor).active);
		if (!params) return this.status.show("pi: add needs a file saved on disk", "error");
		const asker = await this.choose(editor);
		if (asker) this.send(asker, "add", params);
	}

	/** Stop and the reply go to the pi asked last while its offer stands, else as an ask would. */
	private async toLastAsked(method: "stop" | "reply"): Promise<void> {
		const last = this.lastAsked === undefined ? undefined : this.askers.get(this.lastAsked);
		const asker = last ?? (await this.choose(this.userEditor()));
		if (!asker) return;
		if (method === "reply") this.replies.want(asker.offer.pid);
		this.send(asker, method, {});
	}

	private async choose(editor: vscode.TextEditor | undefined): Promise<Asker | undefined> {
		const choice = chooseAsker(askersFor(this.askers.values(), namesOf(editor)), this.remembered);
		if (choice.kind === "one") return choice.asker;
		if (choice.kind === "none") {
			this.status.show("pi: no pi offers asks to this window", "info");
			return undefined;
		}
		const release = this.questions.hold();
		let picked: { asker: Asker } | undefined;
		try {
			picked = await vscode.window.showQuickPick(
				choice.among.map((asker) => ({ label: `pi ${asker.offer.pid}`, description: asker.offer.project, asker })),
				{ title: "Ask which pi?", placeHolder: "Several pis read this window: the one picked is kept while it runs" },
			);
		} finally {
			release();
		}
		if (!picked || !this.askers.has(picked.asker.id)) return undefined;
		this.remembered = picked.asker.id;
		return picked.asker;
	}

	/** Never waits on pi: its answer is only "taken"; a pi gone or mute is said. */
	private send(asker: Asker, method: AskMethod, params: unknown): void {
		const { answer } = asker.peer.request(method, params, ANSWER_TIMEOUT_MS);
		void answer.then((answered) => {
			if (answered.ok) return;
			const text = answered.reason === PEER_ENDED ? "pi: gone" : `pi: ${answered.reason}`;
			this.log.line(`pi ${asker.offer.pid}: ${method}: ${answered.reason}`, "error");
			this.status.show(text, "error");
		});
	}

	private replyClosed(pid: number): void {
		const asker = [...this.askers.values()].find((held) => held.offer.pid === pid);
		if (asker) asker.peer.request("replyClosed", {}, ANSWER_TIMEOUT_MS);
	}
}

/** The names an ask is placed by: the document's path and real path, else the window's folders. */
function namesOf(editor: vscode.TextEditor | undefined): string[] {
	const uri = editor?.document.uri;
	if (uri?.scheme === "file") return [uri.fsPath, realOf(uri.fsPath) ?? uri.fsPath];
	return (vscode.workspace.workspaceFolders ?? []).flatMap((folder) =>
		folder.uri.scheme === "file" ? [folder.uri.fsPath] : [],
	);
}

function realOf(path: string): string | undefined {
	try {
		return realpathSync(path);
	} catch {
		return undefined;
	}
}

/** What the window shows now, as the pure rules read it. */
function askView(editor: vscode.TextEditor | undefined): AskView {
	const buffers = vscode.window.tabGroups.all.flatMap((group) =>
		group.tabs.flatMap((tab) => (tab.input instanceof vscode.TabInputText ? viewed(tab.input.uri) : [])),
	);
	if (!editor) return { buffers };
	const { document, selection } = editor;
	const lineText = (line: number) => document.lineAt(Math.min(line, document.lineCount - 1)).text;
	return {
		active: {
			...(viewed(document.uri)[0] ?? { name: basename(document.uri.path) }),
			text: () => document.getText(),
			lineText,
			cursor: selection.active,
			...(!selection.isEmpty && { selection: { start: selection.start, end: selection.end } }),
			diagnostics: documentDiagnostics(document),
		},
		buffers,
	};
}

/** A file by its path, an untitled document by its name; other schemes (pi's own views, git's) are none. */
function viewed(uri: vscode.Uri): ViewedDocument[] {
	if (uri.scheme === "file") return [{ file: uri.fsPath, name: basename(uri.fsPath), text: () => "" }];
	if (uri.scheme === "untitled") return [{ name: uri.path, text: () => "" }];
	return [];
}

/** A document's diagnostics as plain data (the state file's and an ask's `@diagnostics`). */
export function documentDiagnostics(document: vscode.TextDocument) {
	const lineText = (line: number) => document.lineAt(Math.min(line, document.lineCount - 1)).text;
	return vscode.languages.getDiagnostics(document.uri).map((diagnostic) => ({
		start: diagnostic.range.start,
		lineText: lineText(diagnostic.range.start.line),
		severity: diagnostic.severity,
		message: diagnostic.message,
		...(typeof diagnostic.source === "string" && { source: diagnostic.source }),
	}));
}
