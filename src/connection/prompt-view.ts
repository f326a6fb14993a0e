import type { EditorFacts, EditorReading } from "../editors/core/editor.ts";
import type { SecretFileMatch } from "../safety/core/secret-files.ts";
import { PROMPT_FLUSH_TIMEOUT_MS } from "../shared/core/timing.ts";
import { type ConnectedView, connectedView, promptGoneReason } from "./core/rules.ts";

/** What the prompt's view reads of the sources and the connection, as functions. */
export interface PromptViewInputs {
	waitForPendingRead: (key: string, deadlineMs: number) => Promise<void>;
	facts: (key: string) => EditorFacts | undefined;
	secretMatchOf: (reading: EditorReading) => SecretFileMatch | undefined;
	nowSeconds: () => number;
}

/**
 * What the editor under `key` shows as a prompt starts: its in-memory state, after a short wait only when a
 * write of its state is being read right now; else why there is nothing to describe (core/rules.ts).
 */
export async function promptViewOf(key: string, inputs: PromptViewInputs): Promise<ConnectedView> {
	await inputs.waitForPendingRead(key, PROMPT_FLUSH_TIMEOUT_MS);
	const facts = inputs.facts(key);
	const gone = promptGoneReason(facts);
	if (gone || !facts?.reading) return { kind: "gone", reason: gone ?? "rejected" };
	return connectedView(facts.reading, inputs.secretMatchOf(facts.reading), inputs.nowSeconds());
}
