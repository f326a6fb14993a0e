/**
 * pi's proposals this window shows, as plain state: each an `openDiff` waiting for the user, the text its virtual
 * document serves (the proposal, then whatever the user saved there), and where its view is. The VS Code glue
 * (review-views.ts) asks these rules what a save, a closed tab or a command means.
 */

/** The openDiff's answer: MCP text items (`["FILE_SAVED", text]`, `["DIFF_REJECTED", tab_name]`). */
export type DiffAnswer = string[];

export interface Proposal {
	/** Unique in this window: the document's path is `/<key>/<basename>`. */
	readonly key: number;
	readonly tabName: string;
	/** The connection that asked: its notifications go there, and its going ends its proposals. */
	readonly owner: number;
	readonly file: string;
	/** The file is not on disk: the left side is an empty document. */
	readonly isNew: boolean;
	/** The left side's text when pi sent it (a read-only document then, never the possibly dirty real one). */
	readonly before?: string;
	/** What the document serves: the proposal, then the user's last save into it. */
	text: string;
	mtimeMs: number;
	/** Pending until an answer went to pi; a decided proposal is never served or written again (CC#66435). */
	phase: "pending" | "decided";
	/** `closing`: the client closes the tab itself and saves a dirty document first so VS Code asks nothing. */
	view: "opening" | "open" | "closing" | "gone";
	readonly settle: (answer: DiffAnswer) => void;
}

export const PROPOSAL_SCHEME = "pi-proposal";
/** The left side when it is not the file itself: a new file's empty document, or the text pi sent. Read-only. */
export const EMPTY_SCHEME = "pi-proposal-empty";

const baseName = (file: string) => file.slice(file.lastIndexOf("/") + 1) || file;

/** The diff tab's title: the file's name, so the user reads which file; the language comes from the name too. */
export const diffTitle = (proposal: Pick<Proposal, "file" | "isNew">) =>
	`${baseName(proposal.file)} (${proposal.isNew ? "new file, " : ""}pi's proposal)`;

export const proposalPath = (proposal: Pick<Proposal, "key" | "file">) => `/${proposal.key}/${baseName(proposal.file)}`;

export const acceptedAnswer = (text: string): DiffAnswer => ["FILE_SAVED", text];
export const rejectedAnswer = (tabName: string): DiffAnswer => ["DIFF_REJECTED", tabName];

/** What a save of the proposal did. */
export type WriteVerdict = "kept" | "kept-silently" | "refused";

export class Proposals {
	private nextKey = 1;
	private readonly byKey = new Map<number, Proposal>();

	/** A new proposal; one already open under the same tab name is handed back to be rejected ("replaced"). */
	add(
		input: Pick<Proposal, "tabName" | "owner" | "file" | "isNew" | "text" | "settle" | "before">,
		nowMs: number,
	): { proposal: Proposal; replaced?: Proposal } {
		const replaced = this.byTab(input.tabName);
		const proposal: Proposal = { ...input, key: this.nextKey++, mtimeMs: nowMs, phase: "pending", view: "opening" };
		this.byKey.set(proposal.key, proposal);
		return { proposal, ...(replaced && { replaced }) };
	}

	byPath(path: string): Proposal | undefined {
		const match = /^\/(\d+)\//.exec(path);
		const proposal = match ? this.byKey.get(Number(match[1])) : undefined;
		return proposal && proposalPath(proposal) === path ? proposal : undefined;
	}

	byTab(tabName: string): Proposal | undefined {
		for (const proposal of this.byKey.values()) if (proposal.tabName === tabName) return proposal;
		return undefined;
	}

	ofOwner(owner: number): Proposal[] {
		return [...this.byKey.values()].filter((proposal) => proposal.owner === owner);
	}

	/** Undecided and on screen: what a command given no tab may act on when it is the only one. */
	shown(): Proposal[] {
		return [...this.byKey.values()].filter((proposal) => proposal.phase === "pending" && proposal.view === "open");
	}

	/** The first answer settles the openDiff; later ones are no-ops (false). */
	decide(proposal: Proposal, answer: DiffAnswer): boolean {
		if (proposal.phase !== "pending") return false;
		proposal.phase = "decided";
		proposal.settle(answer);
		return true;
	}

	/** The document's text for VS Code; undefined (not found) once decided, unless the client is closing its view. */
	served(path: string): Proposal | undefined {
		const proposal = this.byPath(path);
		return proposal && (proposal.phase === "pending" || proposal.view === "closing") ? proposal : undefined;
	}

	/** A save into the proposal: kept (never an accept), kept silently while the client closes, else refused. */
	write(path: string, text: string, nowMs: number): WriteVerdict {
		const proposal = this.served(path);
		if (!proposal) return "refused";
		proposal.text = text;
		proposal.mtimeMs = Math.max(nowMs, proposal.mtimeMs + 1);
		return proposal.view === "closing" ? "kept-silently" : "kept";
	}

	/** Its tab is gone: true when the user closed it undecided (pi is told; the openDiff stays pending). */
	tabGone(proposal: Proposal): boolean {
		const byUser = proposal.phase === "pending" && proposal.view === "open";
		if (proposal.view !== "closing") proposal.view = "gone";
		return byUser;
	}

	remove(proposal: Proposal): void {
		this.byKey.delete(proposal.key);
		proposal.view = "gone";
	}
}

export const SAVED_TEXT = (proposal: Pick<Proposal, "file">) =>
	`pi: your changes to the proposal for ${baseName(proposal.file)} are kept, not accepted. Accept with "pi: Accept Proposed Change" (the ✓ in the diff's title bar), or reject with "pi: Reject Proposed Change".`;

export const NO_PROPOSAL_TEXT =
	"pi: no proposal of pi's is the active tab; select the diff tab you mean and run the command again.";
