import { describe, expect, test } from "vitest";
import { evalRequestLine, MAX_REQUEST_CHARS } from "../../../src/editors/emacs/core/server-protocol.ts";
import { EMACS_DIFF_CLOSE_ELISP, EMACS_DIFF_OPEN_ELISP } from "../../../src/review/core/emacs-diff-elisp.ts";
import {
	changedLines,
	closeArguments,
	closeRan,
	openArguments,
	proposalBufferName,
	proposalText,
	reviewEventOf,
	reviewFileNames,
	shownFromOpen,
} from "../../../src/review/core/emacs-diff-protocol.ts";

describe("the proposal as Emacs's buffer holds it", () => {
	test.each([
		["LF stays", "a\nb\n", { text: "a\nb\n", dos: false }],
		["CRLF loses its CR, and says it was DOS", "a\r\nb\r\n", { text: "a\nb\n", dos: true }],
		["a BOM goes (the gate puts it back)", "\uFEFFa\r\nb", { text: "a\nb", dos: true }],
		["a lone CR is the file's text", "a\rb\nc\n", { text: "a\rb\nc\n", dos: false }],
		["LF first: not DOS, its later CRLF still shown without ^M", "a\nb\r\n", { text: "a\nb\n", dos: false }],
		["empty", "", { text: "", dos: false }],
	])("%s", (_name, text, expected) => {
		expect(proposalText(text)).toEqual(expected);
	});

	test("the buffer's name is one line of display-safe text, cut", () => {
		expect(proposalBufferName("src/a.ts")).toBe("*pi: src/a.ts (proposed)*");
		expect(proposalBufferName("a\nb\u001b[31m.ts")).toBe("*pi: a b.ts (proposed)*");
		expect(proposalBufferName("x".repeat(1000))).toHaveLength(300 + "*pi:  (proposed)*".length);
	});
});

describe("the lines a change marks in the proposal", () => {
	test.each([
		["one line changed", "a\nb\nc\n", "a\nB\nc\n", [[2, 2]]],
		["lines added at the end", "a\n", "a\nb\nc\n", [[2, 3]]],
		["a deletion marks nothing", "a\nb\nc\n", "a\nc\n", []],
		[
			"two places apart",
			"1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n",
			"1\nX\n3\n4\n5\n6\n7\n8\nY\n10\n",
			[
				[2, 2],
				[9, 9],
			],
		],
		["an added line that starts with ++ (not a header)", "a\n", "a\n++b\n", [[2, 2]]],
		["a CRLF file against its LF proposal: only the change", "a\r\nb\r\n", "a\nB\n", [[2, 2]]],
		["a new file: nothing (every line is new)", undefined, "a\n", []],
		["the same text", "a\n", "a\n", []],
	])("%s", (_name, before, after, expected) => {
		expect(changedLines(before, after)).toEqual(expected);
	});

	test("a rewrite beyond the line diff's reach is marked whole, as the model is told it", () => {
		const before = Array.from({ length: 4000 }, (_, index) => `line ${index}`).join("\n");
		const after = before.replace(/^line (\d*[13579])$/gm, "X $1");
		expect(changedLines(before, after)).toEqual([[1, 4000]]);
	});
});

describe("the chunks' arguments", () => {
	const request = {
		id: "a1b2c3",
		file: "/p/src/a.ts",
		displayName: "src/a.ts",
		onDisk: "a\nb\n",
		proposed: "a\r\nB\r\n",
	};
	const paths = {
		prefix: "pi-ide-7-1-",
		proposalPath: "/d/p",
		acceptPath: "/d/a",
		deadlineSeconds: 12.5,
		enter: false,
	};

	test("open: names, paths, the deadline, the first changed line, never the texts", () => {
		const args = openArguments(request, paths);
		expect(args).toEqual({
			prefix: "pi-ide-7-1-",
			id: "a1b2c3",
			file: "/p/src/a.ts",
			buffer: "*pi: src/a.ts (proposed)*",
			header: " pi's proposal: C-c C-c accept, C-c C-k reject, kill it: pi asks",
			proposal: "/d/p",
			accept: "/d/a",
			deadline: 12.5,
			enter: false,
			dos: true,
			line: 2,
			changed: [[2, 2]],
		});
		expect(closeArguments("pi-ide-7-1-", "a1b2c3")).toEqual({ prefix: "pi-ide-7-1-", id: "a1b2c3" });
	});

	test("a request line stays far below the server's cap, whatever the file's size", () => {
		const big = "x\n".repeat(3_000_000);
		const line = evalRequestLine(
			EMACS_DIFF_OPEN_ELISP,
			openArguments({ ...request, onDisk: big, proposed: `${big}y\n` }, paths),
		);
		expect(line.ok && line.line.length).toBeLessThan(MAX_REQUEST_CHARS / 4);
		expect(evalRequestLine(EMACS_DIFF_CLOSE_ELISP, closeArguments("pi-ide-7-1-", "a1b2c3")).ok).toBe(true);
	});

	test.each([
		["closed one", { ok: true, value: { closed: 1 } }, true],
		["closed none (gone already)", { ok: true, value: { closed: 0 } }, true],
		["an error value", { ok: true, value: { error: "busy" } }, false],
		["no object", { ok: true, value: "t" }, false],
		["null", { ok: true, value: null }, false],
		["no answer", { ok: false, reason: "no answer within 2000 ms" }, false],
	] as const)("the close ran: %s", (_name, outcome, expected) => {
		expect(closeRan(outcome)).toBe(expected);
	});

	test("the review's files: only ids that make a plain file name", () => {
		expect(reviewFileNames("a1b2c3")).toEqual({
			proposal: "review-a1b2c3-proposed",
			accepted: "review-a1b2c3-accepted",
		});
		for (const id of ["", "../x", "a/b", "a b", "x".repeat(33)]) expect(reviewFileNames(id)).toBeUndefined();
	});
});

describe("what Emacs says, checked", () => {
	test.each([
		[
			{ ok: true, value: { ok: true, buffer: "*pi: a (proposed)*", window: true } },
			{ ok: true, where: "buffer *pi: a (proposed)*" },
		],
		[
			{ ok: true, value: { ok: true, buffer: "*pi: a (proposed)*<2>", window: false } },
			{ ok: true, where: "buffer *pi: a (proposed)*<2> (in no window: C-x b to it)" },
		],
		[
			{ ok: true, value: { ok: false, reason: "too late: pi stopped waiting" } },
			{ ok: false, reason: "Emacs did not open the proposal: too late: pi stopped waiting" },
		],
		[
			{ ok: true, value: { error: "void-function x" } },
			{ ok: false, reason: "Emacs did not open the proposal: void-function x" },
		],
		[
			{ ok: false, reason: "no answer within 2000 ms" },
			{ ok: false, reason: "Emacs did not open the proposal: no answer within 2000 ms" },
		],
		[
			{ ok: true, value: { ok: true, tab: 2 } },
			{ ok: false, reason: "Emacs's answer to opening the proposal was not understood" },
		],
		[
			{ ok: true, value: "yes" },
			{ ok: false, reason: "Emacs's answer to opening the proposal was not understood" },
		],
	] as const)("open %j", (outcome, expected) => {
		expect(shownFromOpen(outcome)).toEqual(expected);
	});

	test.each([
		[{ kind: "review", id: "a1", event: "accepted" }, { kind: "accepted" }],
		[
			{ kind: "review", id: "a1", event: "rejected", reason: "  too long " },
			{ kind: "rejected", reason: "too long" },
		],
		[{ kind: "review", id: "a1", event: "rejected", reason: "   " }, { kind: "rejected" }],
		[{ kind: "review", id: "a1", event: "rejected" }, { kind: "rejected" }],
		[
			{ kind: "review", id: "a1", event: "rejected", reason: "x".repeat(5000) },
			{ kind: "rejected", reason: "x".repeat(2000) },
		],
		[{ kind: "review", id: "a1", event: "closed" }, { kind: "closed" }],
		[{ kind: "review", id: "a1", event: "shown" }, undefined],
		[{ kind: "review", id: "b2", event: "closed" }, undefined],
		[{ kind: "review", id: "a1", event: "maybe" }, undefined],
		[{ kind: "review", id: "a1", event: "rejected", reason: 42 }, undefined],
		[{ kind: "state", id: "a1", event: "closed" }, undefined],
		["closed", undefined],
		[null, undefined],
	])("line %j", (message, expected) => {
		expect(reviewEventOf(message, "a1")).toEqual(expected);
	});
});
