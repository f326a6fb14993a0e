import { existsSync } from "node:fs";
import * as vscode from "vscode";
import type { CallOutcome, ChannelPeer } from "./channel-server.ts";
import { type OpenDiffArgs, RPC_ERROR, textResult } from "./core/channel-rpc.ts";
import {
	acceptedAnswer,
	type DiffAnswer,
	diffTitle,
	EMPTY_SCHEME,
	NO_PROPOSAL_TEXT,
	PROPOSAL_SCHEME,
	type Proposal,
	Proposals,
	proposalPath,
	rejectedAnswer,
	SAVED_TEXT,
} from "./core/proposals.ts";

export const ACCEPT_COMMAND = "piIdeContext.acceptProposal";
export const REJECT_COMMAND = "piIdeContext.rejectProposal";
/** True while a proposal is on screen and undecided: the commands show in the palette then. */
const PENDING_CONTEXT = "piIdeContext.reviewPending";
/** A diff that never becomes visible is not reported as shown; pi's own select is up meanwhile anyway. */
const SHOWN_WAIT_MS = 10_000;

const proposalUri = (proposal: Proposal) => vscode.Uri.from({ scheme: PROPOSAL_SCHEME, path: proposalPath(proposal) });

/**
 * pi's proposals as VS Code diff editors: the file on disk on the left, the proposal on the right as an editable
 * virtual document (VS Code never writes the real file), opened beside the user's tabs without taking focus.
 * The user decides with the two commands; closing the tab decides nothing (pi's select does).
 */
export class ReviewViews {
	private readonly proposals = new Proposals();
	private readonly peers = new Map<number, ChannelPeer>();
	/** Views being closed: a second close of one (pi's close_tab right after the user's command) waits for the first. */
	private readonly closing = new Map<Proposal, Promise<void>>();

	register(): vscode.Disposable[] {
		// Said once per proposal: with files.autoSave on, every pause in typing saves.
		const told = new WeakSet<Proposal>();
		return [
			vscode.workspace.registerFileSystemProvider(
				PROPOSAL_SCHEME,
				new ProposalFiles(this.proposals, (proposal) => {
					if (told.has(proposal)) return;
					told.add(proposal);
					void vscode.window.showInformationMessage(SAVED_TEXT(proposal));
				}),
				{ isCaseSensitive: true },
			),
			vscode.workspace.registerTextDocumentContentProvider(EMPTY_SCHEME, {
				provideTextDocumentContent: (uri) => this.proposals.byPath(uri.path)?.before ?? "",
			}),
			vscode.commands.registerCommand(ACCEPT_COMMAND, (uri: unknown) => this.decideByCommand(uri, "accept")),
			vscode.commands.registerCommand(REJECT_COMMAND, (uri: unknown) => this.decideByCommand(uri, "reject")),
			vscode.window.tabGroups.onDidChangeTabs((event) => this.onTabsClosed(event.closed)),
		];
	}

	/** Shows the diff and answers once the user decided, or pi closed it (`close_tab`), or pi went. */
	async openDiff(peer: ChannelPeer, args: OpenDiffArgs): Promise<CallOutcome> {
		this.peers.set(peer.id, peer);
		let settle!: (answer: DiffAnswer) => void;
		const decided = new Promise<DiffAnswer>((resolve) => {
			settle = resolve;
		});
		const isNew = !existsSync(args.oldFilePath);
		const before = args.oldContents !== undefined ? { before: args.oldContents } : {};
		const input = {
			tabName: args.tabName,
			owner: peer.id,
			file: args.newFilePath,
			isNew,
			text: args.contents,
			settle,
			...before,
		};
		const { proposal, replaced } = this.proposals.add(input, Date.now());
		// One diff per tab name, as the IDE servers do: the older one is rejected, not left behind.
		if (replaced && this.proposals.decide(replaced, rejectedAnswer(replaced.tabName))) void this.closeView(replaced);
		const right = proposalUri(proposal);
		const left =
			isNew || proposal.before !== undefined
				? vscode.Uri.from({ scheme: EMPTY_SCHEME, path: proposalPath(proposal) })
				: vscode.Uri.file(args.oldFilePath);
		try {
			await vscode.commands.executeCommand("vscode.diff", left, right, diffTitle(proposal), {
				preview: false,
				preserveFocus: true,
			});
		} catch (error) {
			this.proposals.remove(proposal);
			void this.closeView(proposal);
			return { code: RPC_ERROR.internal, message: `the diff could not be shown: ${String(error)}` };
		}
		if (proposal.phase === "decided") {
			// pi closed it while it opened: the tab that just came goes too.
			void this.closeView(proposal);
		} else {
			if (proposal.view === "opening") proposal.view = "open";
			void this.whenVisible(right).then((visible) => {
				if (visible && proposal.phase === "pending") peer.notify("pi/diffShown", { tab_name: proposal.tabName });
			});
		}
		this.updateContext();
		return { result: textResult(...(await decided)) };
	}

	/** pi's `close_tab`: the diff goes; one still undecided answers DIFF_REJECTED. Idempotent. */
	async closeTab(tabName: string): Promise<CallOutcome> {
		const proposal = this.proposals.byTab(tabName);
		if (proposal) {
			this.proposals.decide(proposal, rejectedAnswer(tabName));
			await this.closeView(proposal);
		}
		return { result: textResult("TAB_CLOSED") };
	}

	/** pi exited or was killed: nothing of its reviews stays on screen. */
	peerGone(peer: ChannelPeer): void {
		this.peers.delete(peer.id);
		for (const proposal of this.proposals.ofOwner(peer.id)) {
			this.proposals.decide(proposal, rejectedAnswer(proposal.tabName));
			void this.closeView(proposal);
		}
	}

	/** Closes everything of the window's reviews (deactivate). */
	closeAll(): void {
		for (const peer of [...this.peers.values()]) this.peerGone(peer);
	}

	private async decideByCommand(uri: unknown, how: "accept" | "reject"): Promise<void> {
		const proposal = this.commandTarget(uri);
		if (!proposal) {
			void vscode.window.showInformationMessage(NO_PROPOSAL_TEXT);
			return;
		}
		const answer = how === "accept" ? acceptedAnswer(this.currentText(proposal)) : rejectedAnswer(proposal.tabName);
		if (this.proposals.decide(proposal, answer)) await this.closeView(proposal);
	}

	/** The title bar's button names its diff; the palette acts on the active tab, else on the one diff shown. */
	private commandTarget(uri: unknown): Proposal | undefined {
		const pending = (found: Proposal | undefined) => (found?.phase === "pending" ? found : undefined);
		if (uri instanceof vscode.Uri && uri.scheme === PROPOSAL_SCHEME) return pending(this.proposals.byPath(uri.path));
		const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
		if (input instanceof vscode.TabInputTextDiff && input.modified.scheme === PROPOSAL_SCHEME)
			return pending(this.proposals.byPath(input.modified.path));
		const shown = this.proposals.shown();
		return shown.length === 1 ? shown[0] : undefined;
	}

	/** The proposal as the user has it now, unsaved edits included. */
	private currentText(proposal: Proposal): string {
		const uri = proposalUri(proposal).toString();
		return (
			vscode.workspace.textDocuments.find((document) => document.uri.toString() === uri)?.getText() ?? proposal.text
		);
	}

	private tabsOf(proposal: Proposal): vscode.Tab[] {
		const uri = proposalUri(proposal).toString();
		return vscode.window.tabGroups.all.flatMap((group) =>
			group.tabs.filter((tab) => tab.input instanceof vscode.TabInputTextDiff && tab.input.modified.toString() === uri),
		);
	}

	/** A tab of a proposal closed: when the user closed its last tab undecided, pi is told; the openDiff waits. */
	private onTabsClosed(closed: readonly vscode.Tab[]): void {
		for (const tab of closed) {
			const input = tab.input;
			if (!(input instanceof vscode.TabInputTextDiff) || input.modified.scheme !== PROPOSAL_SCHEME) continue;
			const proposal = this.proposals.byPath(input.modified.path);
			// A tab moved to another group is closed in one and opened in the other: still on screen.
			if (!proposal || this.tabsOf(proposal).length > 0) continue;
			if (this.proposals.tabGone(proposal))
				this.peers.get(proposal.owner)?.notify("pi/diffClosed", { tab_name: proposal.tabName });
		}
		this.updateContext();
	}

	/**
	 * The client closes the view itself: a dirty proposal is saved into its own document first (so VS Code asks
	 * nothing), then its tabs close without taking focus, and the proposal is no longer served. One close at a time:
	 * a second one would close the tabs while the first still saves, and VS Code would ask to save.
	 */
	private closeView(proposal: Proposal): Promise<void> {
		const running = this.closing.get(proposal);
		if (running) return running;
		const closing = this.closeViewOnce(proposal).finally(() => this.closing.delete(proposal));
		this.closing.set(proposal, closing);
		return closing;
	}

	private async closeViewOnce(proposal: Proposal): Promise<void> {
		if (proposal.view !== "gone") proposal.view = "closing";
		try {
			const uri = proposalUri(proposal).toString();
			const document = vscode.workspace.textDocuments.find((open) => open.uri.toString() === uri);
			if (document?.isDirty) await document.save();
			const tabs = this.tabsOf(proposal);
			if (tabs.length > 0) await vscode.window.tabGroups.close(tabs, true);
		} catch {
			// A tab that cannot be closed stays; its proposal is decided and no longer served or written.
		} finally {
			this.proposals.remove(proposal);
			this.updateContext();
		}
	}

	private whenVisible(uri: vscode.Uri): Promise<boolean> {
		const text = uri.toString();
		const visible = () => vscode.window.visibleTextEditors.some((editor) => editor.document.uri.toString() === text);
		if (visible()) return Promise.resolve(true);
		return new Promise((resolve) => {
			const timer = setTimeout(() => finish(false), SHOWN_WAIT_MS);
			const subscription = vscode.window.onDidChangeVisibleTextEditors(() => {
				if (visible()) finish(true);
			});
			const finish = (shown: boolean) => {
				clearTimeout(timer);
				subscription.dispose();
				resolve(shown);
			};
		});
	}

	private updateContext(): void {
		void vscode.commands.executeCommand("setContext", PENDING_CONTEXT, this.proposals.shown().length > 0);
	}
}

/** The proposals' documents: served while undecided; a save keeps the text and says how to accept. */
class ProposalFiles implements vscode.FileSystemProvider {
	private readonly changes = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
	readonly onDidChangeFile = this.changes.event;

	constructor(
		private readonly proposals: Proposals,
		private readonly saved: (proposal: Proposal) => void,
	) {}

	watch(): vscode.Disposable {
		return new vscode.Disposable(() => {});
	}

	stat(uri: vscode.Uri): vscode.FileStat {
		const proposal = this.served(uri);
		return {
			type: vscode.FileType.File,
			ctime: proposal.mtimeMs,
			mtime: proposal.mtimeMs,
			size: Buffer.byteLength(proposal.text),
		};
	}

	readFile(uri: vscode.Uri): Uint8Array {
		return Buffer.from(this.served(uri).text, "utf8");
	}

	writeFile(uri: vscode.Uri, content: Uint8Array): void {
		const verdict = this.proposals.write(uri.path, new TextDecoder().decode(content), Date.now());
		if (verdict === "refused")
			throw vscode.FileSystemError.NoPermissions("this proposal of pi's was already decided: nothing is saved");
		const proposal = this.proposals.byPath(uri.path);
		if (verdict === "kept" && proposal) this.saved(proposal);
	}

	readDirectory(): [string, vscode.FileType][] {
		throw vscode.FileSystemError.NoPermissions("pi's proposals are single documents");
	}

	createDirectory(): void {
		throw vscode.FileSystemError.NoPermissions("pi's proposals are single documents");
	}

	delete(): void {
		throw vscode.FileSystemError.NoPermissions("pi's proposals are single documents");
	}

	rename(): void {
		throw vscode.FileSystemError.NoPermissions("pi's proposals are single documents");
	}

	private served(uri: vscode.Uri): Proposal {
		const proposal = this.proposals.served(uri.path);
		if (!proposal) throw vscode.FileSystemError.FileNotFound(uri);
		return proposal;
	}
}
