import { join } from "node:path";
import * as vscode from "vscode";
import { channelSocketName } from "../../../src/editors/state-dir/core/client-channel.ts";
import { ASK_NEWS_METHOD, readOffer } from "../../../src/editors/state-dir/core/suggestion-offer.ts";
import { PiLog, REPLY_SCHEME } from "./ask-views.ts";
import { documentDiagnostics, WindowAsks } from "./asks.ts";
import { type CallOutcome, type ChannelPeer, listenChannel } from "./channel-server.ts";
import { appFromName } from "./core/app-name.ts";
import { RPC_ERROR } from "./core/channel-rpc.ts";
import { clientState, type EditorSnapshot, MAX_SELECTION_CHARS } from "./core/client-state.ts";
import { Debounce } from "./core/debounce.ts";
import { EMPTY_SCHEME, PROPOSAL_SCHEME } from "./core/proposals.ts";
import { BOTH_CLIENTS_TEXT, PUBLIC_CLIENT_ID } from "./core/public-client.ts";
import { rangeKey, SelectionClock } from "./core/selection-clock.ts";
import { stateDirOf } from "./core/state-dir.ts";
import { InlineSuggestions } from "./inline-suggestions.ts";
import { ReviewViews } from "./review-views.ts";
import { openStateDir, removeStateFile, writeStateFile } from "./state-file.ts";

const SUGGEST_COMMAND = "piIdeContext.suggest";
const INLINE_TRIGGER_COMMAND = "editor.action.inlineSuggest.trigger";
/** A change reaches the state file within this long; a burst of events is one write. */
const WRITE_DEBOUNCE_MS = 100;
declare const CLIENT_VERSION: string;

let stop: (() => void) | undefined;

/**
 * Writes this window's state for pi (protocol v0.2): on events only, debounced; nothing runs while nothing
 * happens. The file is the extension host's `<pid>.json`, removed on deactivate; beside it `<pid>.sock`, where pi
 * asks this window to show its proposed changes as diffs (review-views.ts) and, while its suggestions or asks
 * are on, offers itself for inline completions (inline-suggestions.ts) and asks ("pi: Ask…", asks.ts).
 */
export function activate(context: vscode.ExtensionContext): void {
	const dir = stateDirOf(process.env);
	const opened = openStateDir(dir, process.getuid?.() ?? 0);
	if (!opened.ok) {
		void vscode.window.showWarningMessage(`pi-ide-context: not writing editor state: ${opened.reason}`);
		return;
	}
	if (vscode.extensions.getExtension(PUBLIC_CLIENT_ID)) void vscode.window.showWarningMessage(BOTH_CLIENTS_TEXT);
	const clock = new SelectionClock();
	const editors = new UserEditor();
	const write = () => {
		try {
			writeStateFile(dir, process.pid, clientState(snapshot(clock, editors.active())));
		} catch {
			// The dir went away or filled up: the next change tries again; pi meanwhile keeps what it has.
		}
	};
	const debounce = new Debounce(WRITE_DEBOUNCE_MS, write, {
		set: (run, ms) => setTimeout(run, ms),
		clear: (handle) => clearTimeout(handle as NodeJS.Timeout),
	});
	const changed = () => debounce.schedule();
	context.subscriptions.push(
		vscode.window.onDidChangeActiveTextEditor((editor) => {
			editors.activated(editor);
			changed();
		}),
		vscode.window.onDidChangeTextEditorSelection((event) => {
			const document = event.textEditor.document;
			const selection = event.selections[0];
			// A selection the user made (not one VS Code restored on a tab switch) starts its 60 s.
			if (event.kind !== undefined && selection && !selection.isEmpty && document.uri.scheme === "file")
				clock.madeNow(document.uri.fsPath, rangeKey(selection.start, selection.end), Date.now() / 1000);
			changed();
		}),
		vscode.workspace.onDidChangeTextDocument(changed),
		vscode.workspace.onDidSaveTextDocument(changed),
		vscode.workspace.onDidCloseTextDocument((document) => {
			clock.forget(document.uri.fsPath);
			changed();
		}),
		vscode.workspace.onDidChangeWorkspaceFolders(changed),
		vscode.languages.onDidChangeDiagnostics(changed),
	);
	const views = new ReviewViews();
	const log = new PiLog();
	const suggestions = new InlineSuggestions(log);
	const asks = new WindowAsks(log, () => editors.active());
	context.subscriptions.push(
		...views.register(),
		...asks.register(),
		log,
		// VS Code's own trigger: the pi that offered itself for this document answers it at once, up to 3 to cycle.
		vscode.commands.registerCommand(SUGGEST_COMMAND, () => vscode.commands.executeCommand(INLINE_TRIGGER_COMMAND)),
	);
	let closeChannel: (() => void) | undefined;
	let stopped = false;
	void listenChannel(join(dir, channelSocketName(process.pid)), CLIENT_VERSION, {
		callTool: (peer, call) =>
			call.tool === "openDiff" ? views.openDiff(peer, call.args) : views.closeTab(call.tabName),
		peerGone: (peer) => {
			views.peerGone(peer);
			suggestions.peerGone(peer);
			asks.peerGone(peer);
		},
		offered: (peer, params) => offered(peer, params, suggestions, asks),
		notified: (peer, method, params) => {
			if (method === ASK_NEWS_METHOD) asks.news(peer, params);
		},
	}).then((started) => {
		// Without the channel the state file still works; pi's /ide status says the review cannot reach here.
		if (!started.ok) console.warn(`pi-ide-context: no review channel: ${started.reason}`);
		else if (stopped) started.close();
		else closeChannel = started.close;
		// The first write once the socket listens: a pi reading the file then finds its channel at once.
		if (!stopped) write();
	});
	stop = () => {
		stopped = true;
		debounce.cancel();
		removeStateFile(dir, process.pid);
		views.closeAll();
		suggestions.closeAll();
		asks.closeAll();
		closeChannel?.();
	};
}

export function deactivate(): void {
	stop?.();
	stop = undefined;
}

/** pi's offer, checked once: each feature takes its part (a feature no longer offered lets go). */
function offered(peer: ChannelPeer, params: unknown, suggestions: InlineSuggestions, asks: WindowAsks): CallOutcome {
	const read = readOffer(params);
	if (!read.ok) return { code: RPC_ERROR.invalidParams, message: read.reason };
	suggestions.offered(peer, read.offer);
	asks.offered(peer, read.offer);
	return { result: { accepted: true } };
}

/**
 * The editor the user works in: a diff of pi's proposal or pi's reply becomes VS Code's active editor without the
 * user choosing it (focus stays where it was), so while one is active the file editor before it still counts.
 */
class UserEditor {
	private last = vscode.window.activeTextEditor;

	/** VS Code passes undefined on the way from one editor to the next (a diff opening): that forgets nothing. */
	activated(editor: vscode.TextEditor | undefined): void {
		if (editor && !isPiEditor(editor)) this.last = editor;
	}

	active(): vscode.TextEditor | undefined {
		const now = vscode.window.activeTextEditor;
		if (!isPiEditor(now)) return now;
		return this.last && !this.last.document.isClosed ? this.last : undefined;
	}
}

const PI_SCHEMES: ReadonlySet<string> = new Set([PROPOSAL_SCHEME, EMPTY_SCHEME, REPLY_SCHEME]);
const isPiEditor = (editor: vscode.TextEditor | undefined) =>
	editor !== undefined && PI_SCHEMES.has(editor.document.uri.scheme);

/** What VS Code shows now, as plain data for the pure rules. */
function snapshot(clock: SelectionClock, active: vscode.TextEditor | undefined): EditorSnapshot {
	const folders = (vscode.workspace.workspaceFolders ?? []).filter((folder) => folder.uri.scheme === "file");
	const document = active?.document;
	const file = document?.uri.scheme === "file" ? document.uri.fsPath : undefined;
	const cwd = folders[0]?.uri.fsPath ?? (file ? file.slice(0, file.lastIndexOf("/")) || "/" : process.cwd());
	return {
		pid: process.pid,
		nowSeconds: Date.now() / 1000,
		app: appFromName(vscode.env.appName),
		cwd,
		argv: folders.map((folder) => folder.uri.fsPath),
		...(active && document && file !== undefined && { editor: editorOf(active, document, file, clock) }),
		unsavedFiles: vscode.workspace.textDocuments
			.filter((open) => open.isDirty && open.uri.scheme === "file")
			.map((open) => open.uri.fsPath),
		client: `pi-ide-context-vscode/${CLIENT_VERSION}`,
	};
}

function editorOf(
	editor: vscode.TextEditor,
	document: vscode.TextDocument,
	file: string,
	clock: SelectionClock,
): NonNullable<EditorSnapshot["editor"]> {
	const primary = editor.selection;
	const lineText = (line: number) => document.lineAt(Math.min(line, document.lineCount - 1)).text;
	return {
		file,
		language: document.languageId,
		lineCount: document.lineCount,
		dirty: document.isDirty,
		cursor: primary.active,
		cursorLineText: lineText(primary.active.line),
		...(!primary.isEmpty && {
			selection: {
				start: primary.start,
				end: primary.end,
				lines: selectedLines(document, primary),
				selectedAt: clock.selectedAt(file, rangeKey(primary.start, primary.end)),
			},
		}),
		diagnostics: documentDiagnostics(document),
	};
}

/** The full lines a selection touches, stopping once a select-all has given more than pi would ever send. */
function selectedLines(document: vscode.TextDocument, selection: vscode.Selection): string[] {
	const lines: string[] = [];
	let chars = 0;
	for (let line = selection.start.line; line <= selection.end.line && chars <= MAX_SELECTION_CHARS; line++) {
		const text = document.lineAt(line).text;
		lines.push(text);
		chars += text.length + 1;
	}
	return lines;
}
