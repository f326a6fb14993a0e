import type { Clock } from "../shared/core/clock.ts";
import type { Editor, EditorFacts, ListedEditor, SourceEvent } from "./core/editor.ts";
import type { AskedAnswer } from "./core/json-rpc.ts";
import type { EditorChannel } from "./diff-channels.ts";
import type { DiskFollowed, EditorAsks } from "./editor-asks.ts";

export type NoticeLevel = "info" | "warning" | "error";

/**
 * What every source reports back to whoever reads it (the connection controller): the same hooks for every
 * source. `changed` may be called often; the receiver coalesces.
 */
export interface SourceHooks {
	clock: Clock;
	changed: () => void;
	event: (event: SourceEvent) => void;
	notify: (message: string, level: NoticeLevel) => void;
	/** The reads of a key are done for now: the moment a rejection of its latest write is news. */
	settled: (key: string) => void;
	/** Where an editor's own requests go (inline suggestions); none: every request is "method not found". */
	requests?: EditorRequests;
	/** Where an editor's asks go (a prompt typed there, `:PiStop`, the reply); none: no editor is offered them. */
	asks?: EditorAsks;
}

/** A request an editor sent pi over its connection (JSON-RPC: `getSuggestions`, `listSuggestionModels`). */
export interface EditorRequest {
	id: number | string;
	method: string;
	params: unknown;
}

/** pi's answer to it: a result, or a JSON-RPC error. */
export type EditorRequestAnswer = AskedAnswer;

/**
 * What answers editors' requests, a feature after `editors` (suggestions/): a source hands it each request of
 * an editor, keyed by the editor's key, and sends back the answer; it knows no editor.
 */
export interface EditorRequests {
	/** Whether a source keeps a connection only to be asked (a pi-ide.nvim server of a Neovim read natively). */
	wanted(): boolean;
	/**
	 * Whether pi's own editors may ask (Neovim's ghost text over pi's own connection): only when suggestions are
	 * on (`true` or a model in the global settings, `/ide suggestions on`); never in the default "asked-only".
	 */
	ownEditors(): boolean;
	/** Calls `listener` whenever `ownEditors()` may have changed (`/ide suggestions on|off`); returns its removal. */
	onStandingChange(listener: () => void): () => void;
	answer(editorKey: string, request: EditorRequest): Promise<EditorRequestAnswer>;
	/** The editor's `request_cancelled {id}`. */
	cancelled(editorKey: string, id: number | string): void;
	/** Its connection closed: what it asked is abandoned. */
	gone(editorKey: string): void;
}

/** The same, for one editor's connection. */
export interface BoundRequests {
	answer(request: EditorRequest): Promise<EditorRequestAnswer>;
	cancelled(id: number | string): void;
	gone(): void;
}

/** `requests` bound to one editor's key. */
export function boundRequests(requests: EditorRequests, key: string): BoundRequests {
	return {
		answer: (request) => requests.answer(key, request),
		cancelled: (id) => requests.cancelled(key, id),
		gone: () => requests.gone(key),
	};
}

/** What pi did with the model's write in the connected editor (a Neovim, an Emacs): the buffer shows the rest. */
export type ModelWriteShown =
	| "reloaded"
	| "unchanged"
	| "modified"
	| "autoread-off"
	| "not-loaded"
	| "blocking"
	| "busy"
	| "failed";

/** The connected editor as a source is asked about it. */
export type EditorAsked = Pick<Editor, "key" | "origin" | "state">;

/**
 * Where editors come from: a state dir, Zed's own state database, a Neovim's or an Emacs's own server, an IDE
 * server. The controller applies the connection rules to what sources list; where an editor came from is its
 * `origin`, which only the rules read. What only some sources can do is an optional method: `connection/` and
 * `review/` ask every source and take the answer of the one that gives one, never switching on a kind.
 */
export interface EditorSource {
	/** Resolves once the first scan is complete; never throws (a problem becomes the source's status). */
	start(): Promise<void>;
	/** Idempotent; nothing of the source runs after it resolves. */
	close(): Promise<void>;
	/** Every editor whose latest state is valid, with its liveness now (the tier is the controller's to judge). */
	editors(): ListedEditor[];
	/** What the source holds under a key, or undefined when nothing. */
	facts(key: string): EditorFacts | undefined;
	/** Re-asks the liveness of the editors believed alive (every tick); true when one died. */
	checkLiveness(): boolean;
	/** The source's own standing (the dir's trust, its watcher; Zed's marks), every few ticks. */
	recheck(): Promise<void>;
	/** The source lost what it watched (its dir was removed): re-check on the next tick, not a few later. */
	readonly lost: boolean;
	/** Looks again now, as `/ide` asks before it lists editors (a dir's standing; a Zed started since). */
	lookAgain(): Promise<void>;
	/** A read of that editor's state is under way or due: a prompt waits for it (briefly). */
	isPending(key: string): boolean;
	/** Runs a due read of that editor's state now and waits for reads under way. */
	flush(key: string): Promise<void>;
	/**
	 * The files that editor holds unsaved, asked of the editor itself at a tool call, answered by the clock's
	 * `deadlineMs` (one budget for every request it takes); undefined when the source cannot ask (a state file,
	 * Zed) or the editor did not answer in time: the guard then keeps the last list it was told. `target` is the
	 * file the tool call writes (an IDE server may be asked about that one document only).
	 */
	unsavedNow(key: string, deadlineMs: number, target?: string): Promise<readonly string[] | undefined>;

	/** Its section of `/ide status`, when it has one of its own. */
	statusLines?(nowSeconds: number, projectDir: string): string[];
	/** What `/ide` says of it when it finds no editor for the project; undefined: nothing. */
	noMatchLine?(): string | undefined;
	/**
	 * How that editor could show the model's change as a diff, when this source holds a way: a channel, or a
	 * reason of its own why not (its IDE server offers no `openDiff`); else `NO_CHANNEL_REASONS` by origin.
	 */
	diffChannel?(editor: EditorAsked): EditorChannel | undefined;
	/** After the model wrote `realPath`: shows it in that editor when this source reads it and that is safe. */
	reload?(editor: EditorAsked, realPath: string): Promise<ModelWriteShown | undefined>;
	/** The connection changed (picked, auto-connected, ended), or `/ide off` paused it. */
	connectionChanged?(paused: boolean): Promise<void>;
	/**
	 * A run of pi's ended: the buffers of the editors this source offers asks to follow the disk (files the
	 * model's `bash` changed), never one with unsaved changes, never a prompt; what stayed, per editor.
	 */
	followDisk?(): Promise<DiskFollowed[]>;
}
