import { describe, expect, test } from "vitest";
import type { EditorPaths } from "../../../../src/editors/core/tiers.ts";
import {
	type AsksCandidate,
	type AsksState,
	asksDefinedOf,
	asksLineOf,
	asksStatusText,
	asksWanted,
	EMACS_ASK_CAPS,
	type QuestionNews,
	questionLineOf,
	questionsInstalledOf,
} from "../../../../src/editors/emacs/core/asks.ts";
import { PUSH_WINDOW_BYTES } from "../../../../src/editors/emacs/core/elisp/push-elisp.ts";

describe("a line the asks pushed", () => {
	const unknown = (method: string) => ({ kind: "bad", reason: `an ask line with an unknown method "${method}"` });
	test.each([
		[
			{ kind: "ask", method: "ask", params: { prompt: "x" } },
			{ kind: "ask", method: "ask", params: { prompt: "x" } },
		],
		[
			{ kind: "ask", method: "stop" },
			{ kind: "ask", method: "stop", params: {} },
		],
		[
			{ kind: "ask", method: "replyClosed", params: null },
			{ kind: "ask", method: "replyClosed", params: {} },
		],
		// The params are asks/'s to check: handed over as they came.
		[
			{ kind: "ask", method: "add", params: [1, 2] },
			{ kind: "ask", method: "add", params: [1, 2] },
		],
		[{ kind: "ask", method: "eval", params: {} }, unknown("eval")],
		[{ kind: "ask" }, unknown("undefined")],
		[{ kind: "ask", method: 3 }, unknown("3")],
		[{ kind: "ask", method: "x".repeat(100) }, unknown("x".repeat(40))],
		[
			{ kind: "followed", id: 3, reverted: 2, not_reloaded: 1 },
			{ kind: "followed", id: 3, notReloaded: 1 },
		],
		[
			{ kind: "followed", id: 1, not_reloaded: 0 },
			{ kind: "followed", id: 1, notReloaded: 0 },
		],
		[
			{ kind: "followed", id: 1, not_reloaded: -1 },
			{ kind: "bad", reason: "a follow of the disk answered nonsense" },
		],
		[
			{ kind: "followed", id: "1", not_reloaded: 1 },
			{ kind: "bad", reason: "a follow of the disk answered nonsense" },
		],
		[
			{ kind: "followed", id: 1, not_reloaded: 1.5 },
			{ kind: "bad", reason: "a follow of the disk answered nonsense" },
		],
	])("%j", (line, expected) => {
		expect(asksLineOf(line)).toEqual(expected);
	});
});

describe("the asks' install answer", () => {
	const nonsense = "the asks' install answered nonsense";
	test.each([
		[
			{ ok: true, commands: ["pi-ask", "pi-add", "pi-stop", "pi-reply"], kept: [] },
			{ commands: ["pi-ask", "pi-add", "pi-stop", "pi-reply"], kept: [] },
		],
		[
			{ ok: true, commands: ["pi-ide-ask", "pi-add"], kept: ["pi-ask"] },
			{ commands: ["pi-ide-ask", "pi-add"], kept: ["pi-ask"] },
		],
		[{ ok: true, commands: ["pi-ask", "evil\u001b[2J"], kept: [] }, nonsense],
		[{ ok: true, commands: ["pi-ask"], kept: "pi-ask" }, nonsense],
		[{ ok: true, commands: Array(5).fill("pi-ask"), kept: [] }, nonsense],
		[{ error: "pi's elisp is not installed in this Emacs" }, nonsense],
		[null, nonsense],
	])("%j", (answer, expected) => {
		expect(asksDefinedOf(answer)).toEqual(expected);
	});
});

describe("which Emacs gets pi's commands", () => {
	const inProject: EditorPaths = { cwd: "/p", argvDirs: [] };
	const elsewhere: EditorPaths = { cwd: "/other", argvDirs: [], file: "/other/x.ts" };
	const base: AsksCandidate = { on: true, installed: false, paths: inProject, enclosing: false, connected: false };
	test.each<[string, Partial<AsksCandidate>, boolean]>([
		["one in the project (tier 0)", {}, true],
		["one whose file is in the project (tier 1)", { paths: { cwd: "/", argvDirs: [], file: "/p/a.ts" } }, true],
		["one elsewhere", { paths: elsewhere }, false],
		["one not read yet", { paths: undefined }, false],
		["one elsewhere, connected", { paths: elsewhere, connected: true }, true],
		["one elsewhere that pi runs in", { paths: elsewhere, enclosing: true }, true],
		["one elsewhere now, installed before: kept", { paths: elsewhere, installed: true }, true],
		["asks off", { on: false }, false],
		["asks off, connected and installed", { on: false, connected: true, installed: true }, false],
	])("%s: %j", (_name, changes, expected) => {
		expect(asksWanted({ ...base, ...changes }, "/p")).toBe(expected);
	});
});

describe("the asks' line in /ide status", () => {
	test.each<[AsksState, string | undefined, string]>([
		[{ kind: "off" }, undefined, "asks: off in pi (no command defined)"],
		[{ kind: "outside" }, undefined, "asks: none (not in this project; the connected Emacs gets them)"],
		[
			{ kind: "failed", reason: "no answer within 1000 ms" },
			undefined,
			"asks: not installed: no answer within 1000 ms",
		],
		[
			{ kind: "installed", defined: { commands: ["pi-ask", "pi-add", "pi-stop", "pi-reply"], kept: [] } },
			undefined,
			"asks: M-x pi-ask, pi-add, pi-stop, pi-reply",
		],
		[
			{ kind: "installed", defined: { commands: ["pi-ide-ask", "pi-add"], kept: ["pi-ask", "pi-stop"] } },
			'an ask line with an unknown method "x"',
			'asks: M-x pi-ide-ask, pi-add (your own pi-ask, pi-stop kept); last problem: an ask line with an unknown method "x"',
		],
		[{ kind: "failed", reason: "bad\u001b[2J\nline" }, undefined, "asks: not installed: bad line"],
	])("%j", (state, problem, expected) => {
		expect(asksStatusText(state, problem)).toBe(expected);
	});
});

describe("the caps the elisp keeps to", () => {
	test("an ask fits the pushes' window with room for its line's frame; the typed words are pi's own cap", () => {
		expect(EMACS_ASK_CAPS.ask_bytes).toBe(120 * 1024);
		expect(EMACS_ASK_CAPS.ask_bytes).toBeLessThan(PUSH_WINDOW_BYTES);
		expect(EMACS_ASK_CAPS.typed_bytes).toBe(64 * 1024);
	});
});

describe("the line that shows one of pi's questions in Emacs", () => {
	const question: QuestionNews = { kind: "question", id: 3, title: "Allow deploy?\nwhy", choices: ["Yes", "No"] };
	test.each<[QuestionNews, boolean, object]>([
		[question, false, { kind: "question", id: 3, title: "Allow deploy?\nwhy", choices: ["Yes", "No"], focus: true }],
		// pi in that Emacs's own terminal: its dialog is in front of the user, the window opens without focus.
		[question, true, { kind: "question", id: 3, title: "Allow deploy?\nwhy", choices: ["Yes", "No"], focus: false }],
		[
			{ kind: "notice", id: 4, text: "pi asks in its terminal: Your name?" },
			false,
			{ kind: "notice", id: 4, text: "pi asks in its terminal: Your name?" },
		],
		[{ kind: "questionClosed", id: 4 }, true, { kind: "questionClosed", id: 4 }],
	])("%j (pi inside: %s)", (news, inside, line) => {
		expect(questionLineOf(news, inside)).toEqual(line);
	});

	test("the choices go as a plain array: one line of JSON", () => {
		const line = questionLineOf({ ...question, choices: Object.freeze(["a", "b"]) }, false);
		expect(JSON.parse(JSON.stringify(line))).toEqual(line);
		expect(Array.isArray(line.choices)).toBe(true);
	});
});

describe("the questions' install, as pi reads its answer", () => {
	test.each<[Parameters<typeof questionsInstalledOf>[0], string | undefined]>([
		[{ ok: true, value: { ok: true } }, undefined],
		[{ ok: true, value: { ok: "yes" } }, "its question view was not installed (it answered nonsense)"],
		[{ ok: true, value: null }, "its question view was not installed (it answered nonsense)"],
		[
			{ ok: false, reason: "failed in Emacs: pi's asks are not installed in this Emacs" },
			"its question view was not installed (failed in Emacs: pi's asks are not installed in this Emacs)",
		],
		[{ ok: false, reason: "busy" }, "its question view was not installed (busy)"],
	])("%j: %s", (answer, problem) => {
		expect(questionsInstalledOf(answer)).toBe(problem);
	});
});
