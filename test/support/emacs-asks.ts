import type { AskMethod } from "../../src/editors/core/ask-methods.ts";
import type { AskingEditor, EditorAsks } from "../../src/editors/editor-asks.ts";
import { evalText } from "./emacs-e2e.ts";
import type { RealEmacs } from "./real-emacs.ts";
import { waitFor } from "./wait-for.ts";

/** One message an Emacs sent pi's asks, as the source handed it over. */
export interface ReceivedAsk {
	editor: AskingEditor;
	method: AskMethod;
	params: unknown;
}

/** asks/ as a source test plays it: on (or not), every message kept, the keys told gone. */
export interface RecordingAsks extends EditorAsks {
	readonly messages: ReceivedAsk[];
	readonly goneKeys: string[];
}

export function recordingAsks(on = true): RecordingAsks {
	const messages: ReceivedAsk[] = [];
	const goneKeys: string[] = [];
	return {
		messages,
		goneKeys,
		on: () => on,
		received: (editor, method, params) => {
			messages.push({ editor, method, params });
		},
		gone: (key) => {
			goneKeys.push(key);
		},
	};
}

/** The echo area's text now ("" when empty), read with the test's own expression. */
export const echoArea = (emacs: RealEmacs) => evalText(emacs, `(or (current-message) "")`);

/** Waits until the echo area shows `text` (a part of it); the last text on a timeout. */
export async function waitForEcho(emacs: RealEmacs, text: string, timeoutMs = 5000): Promise<void> {
	let last = "";
	try {
		await waitFor(
			`"${text}" in the echo area`,
			async () => {
				last = await echoArea(emacs);
				return last.includes(text);
			},
			timeoutMs,
			20,
		);
	} catch (error) {
		throw new Error(`${String(error)}; it shows ${JSON.stringify(last)}`);
	}
}

/** Whether a buffer of that name is live there. */
export async function hasBuffer(emacs: RealEmacs, name: string): Promise<boolean> {
	return (await evalText(emacs, `(if (get-buffer ${JSON.stringify(name)}) "yes" "no")`)) === "yes";
}

/** `M-x <command> RET` as typed. */
export function runCommand(emacs: RealEmacs, command: string): void {
	emacs.keys("M-x");
	emacs.keys("-l", command);
	emacs.keys("Enter");
}
