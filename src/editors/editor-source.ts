import type { Editor, KeyFacts } from "./core/editor.ts";

/**
 * Where editors come from: a state dir today, an editor's own state database later. The controller applies
 * the connection rules to what sources list and never learns where an editor came from.
 */
export interface EditorSource {
	/** Resolves once the first scan is complete; never throws (a problem becomes the source's status). */
	start(): Promise<void>;
	/** Idempotent; nothing of the source runs after it resolves. */
	close(): Promise<void>;
	/** Every editor whose latest state is valid, with its liveness now (the tier is the controller's to judge). */
	editors(): Omit<Editor, "tier">[];
	/** What the source holds under a key, or undefined when nothing. */
	facts(key: string): KeyFacts | undefined;
	/** Re-asks the liveness of the editors believed alive (every tick); true when one died. */
	checkLiveness(): boolean;
	/** The source's own standing (the dir's trust, its watcher), every few ticks. */
	recheck(): Promise<void>;
	/** A read of that editor's state is under way or due: a prompt waits for it (briefly). */
	isPending(key: string): boolean;
	flush(key: string): Promise<void>;
}
