import { describe, expect, test } from "vitest";
import {
	EMACS_ELISP_CHUNKS,
	INSTALL_ELISP,
	PUSH_WINDOW_BYTES,
} from "../../../../src/editors/emacs/core/elisp/push-elisp.ts";
import { SNAPSHOT_FORM, STATE_ELISP } from "../../../../src/editors/emacs/core/elisp/state-elisp.ts";
import { evalRequestLine, MAX_REQUEST_CHARS } from "../../../../src/editors/emacs/core/server-protocol.ts";

/** Parentheses balanced outside strings and character literals (`?\\(`), and the text one form. */
function isOneForm(text: string): boolean {
	let depth = 0;
	let inString = false;
	for (let index = 0; index < text.length; index++) {
		const char = text[index];
		if (inString) {
			if (char === "\\") index++;
			else if (char === '"') inString = false;
		} else if (char === '"') inString = true;
		else if (char === "?") index += text[index + 1] === "\\" ? 2 : 1;
		else if (char === ";") index = text.indexOf("\n", index);
		else if (char === "(") depth++;
		else if (char === ")") {
			depth--;
			if (depth < 0 || (depth === 0 && index !== text.length - 1)) return false;
		}
	}
	return depth === 0 && !inString;
}

describe("every chunk of elisp the Emacs source sends", () => {
	const chunks = Object.entries(EMACS_ELISP_CHUNKS);

	test("the install, the reads, the reload, the switch and the asks' chunks are all listed", () => {
		expect(Object.keys(EMACS_ELISP_CHUNKS).sort()).toEqual(
			[
				"INSTALL_ELISP",
				"PROBE_ELISP",
				"RELOAD_ELISP",
				"SET_PUSHING_ELISP",
				"STATE_ELISP",
				"UNSAVED_ELISP",
				"ASKS_INSTALL_ELISP",
				"QUESTIONS_INSTALL_ELISP",
			].sort(),
		);
	});

	test.each(chunks)("%s: one lambda of one argument, catching every error, ASCII, fits a request", (_name, text) => {
		expect(text).toMatch(/^\(lambda \(pi-ide-args\)\n {2}\(condition-case pi-ide-error/);
		expect(text).toMatch(/^[\x20-\x7e\n]*$/);
		expect(isOneForm(text)).toBe(true);
		const request = evalRequestLine(text, { a: 1 });
		expect(request.ok && request.line.length).toBeLessThan(MAX_REQUEST_CHARS / 4);
	});

	/**
	 * The asks' words, out of `*Messages*`: what the user's own commands answer, and pi's news (a status line),
	 * which the asks' message handler shows (ask-news-elisp.ts); the questions' (question-elisp.ts) the same way.
	 */
	const SPEAKING: Record<string, [RegExp, number]> = {
		ASKS_INSTALL_ELISP: [/\(let \(\(message-log-max nil\)\)\s+\(message "%s"/g, 2],
		// `say`: what an answer's send became, and the keys of `*pi question*` answering the user.
		QUESTIONS_INSTALL_ELISP: [/\(let \(\(message-log-max nil\)\)\s+\(message "%s"/g, 1],
	};

	test.each(chunks)("%s: writes nothing to *Messages*, and to the echo area only the asks' words", (name, text) => {
		const [speaking, times] = SPEAKING[name] ?? [undefined, 0];
		if (speaking !== undefined) expect(text.match(speaking)).toHaveLength(times);
		const rest = speaking === undefined ? text : text.replace(speaking, "");
		expect(rest).not.toMatch(/\((message|princ|print|display-warning|ding|beep) /);
	});

	test.each(chunks)("%s: no string literal spans a line (a newline meant is written \\n)", (_name, text) => {
		const literals: string[] = [];
		for (let index = 0, start = -1; index < text.length; index++) {
			const char = text[index];
			if (start >= 0) {
				if (char === "\\") index++;
				else if (char === '"') {
					literals.push(text.slice(start, index));
					start = -1;
				}
			} else if (char === "?") index += text[index + 1] === "\\" ? 2 : 1;
			else if (char === ";") index = text.indexOf("\n", index);
			else if (char === '"') start = index + 1;
		}
		expect(literals.length).toBeGreaterThan(0);
		expect(literals.filter((literal) => literal.includes("\n"))).toEqual([]);
	});

	test("the asks' lines keep to the pushes' window, waiting a moment for a line in flight", () => {
		expect(INSTALL_ELISP).toContain('(fset (intern (concat prefix "send-ask"))');
		expect(INSTALL_ELISP).toContain("(accept-process-output process 0.1 nil 1)");
		expect(
			INSTALL_ELISP.match(new RegExp(`\\(\\+ in-flight \\(string-bytes line\\)\\) ${PUSH_WINDOW_BYTES}\\)`, "g")),
		).toHaveLength(3);
	});

	test("the snapshot text is shared by the read and the install (only its indentation differs)", () => {
		const words = (text: string) => text.replace(/\s+/g, " ");
		expect(isOneForm(SNAPSHOT_FORM)).toBe(true);
		expect(words(STATE_ELISP)).toContain(words(SNAPSHOT_FORM));
		expect(words(INSTALL_ELISP)).toContain(words(SNAPSHOT_FORM));
	});

	test("the install's flow-control window is the one the elisp uses, in bytes", () => {
		expect(PUSH_WINDOW_BYTES).toBe(128 * 1024);
		expect(INSTALL_ELISP).toContain(`(>= in-flight ${PUSH_WINDOW_BYTES})`);
		expect(INSTALL_ELISP).toContain(`(< in-flight ${PUSH_WINDOW_BYTES})`);
		expect(INSTALL_ELISP).toContain(`(> (+ in-flight (string-bytes line)) ${PUSH_WINDOW_BYTES})`);
	});

	test.each(chunks)("%s: its body runs lexically (28.2's server evaluates -eval dynamically)", (_name, text) => {
		expect(text).toMatch(
			/^\(lambda \(pi-ide-args\)\n {2}\(condition-case pi-ide-error\n {6}\(funcall\n {7}\(eval\n {8}\(quote\n/,
		);
		expect(text).toContain(
			"\n       pi-ide-args\n       (eval\n        (macroexpand-all\n         (quote\n          (lambda (args)\n",
		);
	});

	test.each([
		["after-make-frame-functions", "frame-made"],
		["delete-frame-functions", "frame-deleted"],
	])("%s: a hook entry of the install itself (pushes on or off), named with the prefix", (hook, name) => {
		expect(INSTALL_ELISP).toContain(`(cons '${hook} (intern (concat prefix "${name}")))`);
		expect(INSTALL_ELISP).not.toMatch(new RegExp(`\\(${hook} \\. "`));
	});

	test("every name the install defines carries the prefix, and the teardown removes every symbol of it", () => {
		const defined = [...INSTALL_ELISP.matchAll(/\(intern \(concat ([a-z-]+) /g)].map((match) => match[1]);
		expect(new Set(defined)).toEqual(new Set(["prefix"]));
		expect(INSTALL_ELISP).toContain("(when (string-prefix-p prefix (symbol-name symbol)) (push symbol mine))");
	});
});
