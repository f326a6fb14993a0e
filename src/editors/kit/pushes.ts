import type { EditorReading } from "../core/editor.ts";
import { pidKey } from "../core/editor-key.ts";
import { pushesWanted } from "./core/push-choice.ts";

/** What the push rule asks of one open session, and how it is told. */
export interface PushingSession {
	readonly found: { readonly pid: number };
	readonly hasUi: boolean;
	reading(): EditorReading | undefined;
	setPushing(on: boolean): Promise<void>;
}

export interface PushContext {
	/** The project's real path, as the controller judges tiers. */
	projectDir: string;
	connectedKey: string | undefined;
	/** Paused by `/ide off`, or closing: nothing pushes. */
	stopped: boolean;
	/** pi runs in its terminal. */
	isEnclosing: (pid: number) => boolean;
}

/** Pushes from the editors that matter (core/push-choice.ts); the others are read again on `/ide`. */
export async function decidePushes(sessions: readonly PushingSession[], context: PushContext): Promise<void> {
	const candidates = sessions.map((session) => ({
		paths: session.reading()?.paths,
		hasUi: session.hasUi,
		enclosing: context.isEnclosing(session.found.pid),
		connected: context.connectedKey === pidKey(session.found.pid),
	}));
	const wanted = pushesWanted(candidates, context.projectDir, context.stopped);
	await Promise.all(
		sessions.map((session, index) => {
			const on = wanted[index];
			return on === undefined ? undefined : session.setPushing(on);
		}),
	);
}

/** The session's reading with what only its source knows: unanswering now, the editor pi runs in. */
export function sourceReading(
	reading: EditorReading | undefined,
	facts: { blocked: boolean; enclosing: boolean },
): EditorReading | undefined {
	return (
		reading && { ...reading, ...(facts.blocked && { blocked: true }), ...(facts.enclosing && { enclosing: true }) }
	);
}
