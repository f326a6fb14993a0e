import { evalText } from "./emacs-e2e.ts";
import type { RealEmacs } from "./real-emacs.ts";
import { waitFor } from "./wait-for.ts";

/** The window showing `*pi question*` (nil when none), as a test's expression. */
export const questionWindow = `(let ((buffer (get-buffer "*pi question*"))) (and buffer (get-buffer-window buffer t)))`;

/** The text `*pi question*` shows (its buffer's text), "" when there is none. */
export const questionScreen = (emacs: RealEmacs) =>
	evalText(
		emacs,
		`(let ((buffer (get-buffer "*pi question*"))) (if buffer (with-current-buffer buffer (buffer-string)) ""))`,
	);

/** Waits until `*pi question*` shows in a window (holding `text`, when given); what it shows then. */
export async function questionShown(emacs: RealEmacs, text = "", timeoutMs = 5000): Promise<string> {
	return waitFor(
		`*pi question* shown${text ? ` with ${JSON.stringify(text)}` : ""}`,
		async () => {
			if ((await evalText(emacs, questionWindow)) === "nil") return undefined;
			const screen = await questionScreen(emacs);
			return screen.includes(text) ? screen : undefined;
		},
		timeoutMs,
		20,
	);
}

/** How many idle timers that Emacs runs now (pi's question waiting for the user's pause is one). */
export const idleTimers = async (emacs: RealEmacs) => Number(await evalText(emacs, "(length timer-idle-list)"));

/** How long that Emacs has been idle, in seconds (0 while it runs a command). */
export const idleSeconds = async (emacs: RealEmacs) =>
	Number(await evalText(emacs, "(float-time (or (current-idle-time) 0))"));
