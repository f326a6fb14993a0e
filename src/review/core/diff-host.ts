/**
 * What an editor that can show a diff does for a review, one interface for every kind (Neovim and Emacs over
 * their servers, the VS Code client's socket, an IDE server's `openDiff`): show the file beside the proposal,
 * report the user's answer, close. The race with pi's own select and what the model is told are the review's
 * (review-gate.ts); which host the connected editor gets is hosts/target-of.ts's.
 */

/** The model's tools a review shows; `bash` writes are not reviewed (the README says so). */
export type ReviewedTool = "write" | "edit";

/** One proposed change as the editor shows it. */
export interface DiffRequest {
	/** Six hex characters, unique in this pi process: in tab and buffer names. */
	id: string;
	/** The file's absolute path, as pi's own tool resolves the model's path (real path where the file exists). */
	file: string;
	/** The path as the user reads it: relative to the project inside it, else absolute. */
	displayName: string;
	/** The file as on disk now; undefined for a new file (shown against nothing). */
	onDisk: string | undefined;
	/** The whole file as it will be after the call. */
	proposed: string;
}

/** The editor's first answer to a review. */
export type EditorAnswer =
	/** `text` is the proposal as the editor holds it, the user's changes included (line endings as the editor has them). */
	| { kind: "accepted"; text: string }
	| { kind: "rejected"; reason?: string }
	/** The view was closed without a decision: pi's select decides. */
	| { kind: "closed" }
	/** The editor cannot show it or went away (the channel broke, the server refused): pi's select decides. */
	| { kind: "failed"; reason: string };

/** An accepted text over this is refused (the review fails, pi's select decides): a file pi would write whole. */
export const MAX_ACCEPTED_TEXT_CHARS = 16 * 1024 * 1024;

/** A reason is what the user typed when rejecting in the editor: a sentence, cut here. */
export const MAX_REJECT_REASON_CHARS = 2000;

export type ShownResult = { ok: true; where: string } | { ok: false; reason: string };

export interface DiffView {
	/** Settles once the editor shows the diff (`where`: how pi's select names it) or cannot (why). Never rejects. */
	readonly shown: Promise<ShownResult>;
	/** The editor's first answer. Never rejects; a `failed` shown settles it as failed too. */
	readonly answer: Promise<EditorAnswer>;
	/** Closes what the editor shows of this review. Idempotent, never throws, resolves when done or given up. */
	close(): Promise<void>;
}

export interface DiffHost {
	/** The editor as the user and the model read it: "Neovim", "VS Code", "IntelliJ IDEA". */
	readonly editorName: string;
	open(request: DiffRequest): DiffView;
}

/** Where the connected editor would show a diff: a host and how to answer there, or why none can. */
export type ReviewTarget = { host: DiffHost; hint: string } | { none: string };

/** A request's outcome as a scripted editor's channel gives it (Neovim's `RpcAnswer`, Emacs's `EvalAnswer`). */
export type RequestOutcome = { ok: true; value: unknown } | { ok: false; reason: string };
