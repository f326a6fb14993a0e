/**
 * Asks as the VS Code client sends them (clients/vscode/src/core/asks.ts, pure): which pi an ask goes to (the
 * deepest project's pis; the connected one, the only one, the one picked before, else a pick with the latest
 * first), the ask's params in pi's own shape (checked here by pi's own parser), `add`'s lines, and pi's news read
 * back for the status bar, the log and the reply's view.
 */
import { describe, expect, test } from "vitest";
import {
	type AskView,
	addParams,
	askersFor,
	askParams,
	chooseAsker,
	type HeldAsker,
	MAX_LISTED_BUFFERS,
	MAX_SPAN_CHARS,
	MAX_TYPED_BYTES,
	readNews,
	STATUS_BAR_CHARS,
	statusBarText,
} from "../../../../clients/vscode/src/core/asks.ts";
import * as pi from "../../../../src/asks/core/ask-messages.ts";

const offer = {
	project: "/p",
	pid: 1,
	suggestions: false,
	asks: true,
	connected: false,
	debounceMs: 300,
	timeoutMs: 32_000,
	secretFiles: [],
};
const held = (id: number, project: string, flags: { asks?: boolean; connected?: boolean } = {}): HeldAsker => ({
	id,
	offer: { ...offer, project, pid: 1000 + id, ...flags },
	order: id,
});

describe("which pis an ask may go to", () => {
	const a = held(1, "/a");
	const ab = held(2, "/a/b");
	const ab2 = held(3, "/a/b");
	const other = held(4, "/other");
	const quiet = held(5, "/a/b/c", { asks: false });
	test.each([
		["the deepest project's pis, all of them", [a, ab, ab2, other], ["/a/b/x.ts"], [ab, ab2]],
		["a deeper pi that offers no asks does not count", [a, ab, quiet], ["/a/b/c/x.ts"], [ab]],
		["by either name (a link's real path)", [ab, other], ["/link/x.ts", "/a/b/x.ts"], [ab]],
		["a workspace folder when there is no document", [a, other], ["/other"], [other]],
		["no project holds it: every pi that offered asks", [a, other, quiet], ["/elsewhere/x.ts"], [a, other]],
		["no names at all: every pi that offered asks", [a, ab], [], [a, ab]],
		["none offered: none", [quiet], ["/a/b/c/x.ts"], []],
	])("%s", (_name, offers, names, expected) => {
		expect(askersFor(offers, names)).toEqual(expected);
	});
});

describe("which one of them", () => {
	const one = held(1, "/p");
	const two = held(2, "/p");
	const three = held(3, "/p");
	const connected = held(4, "/p", { connected: true });
	const connectedToo = held(5, "/p", { connected: true });
	test.each([
		[
			"the one connected to this window, over a remembered one",
			[one, two, connected],
			1,
			{ kind: "one", asker: connected },
		],
		["the only one", [two], undefined, { kind: "one", asker: two }],
		["the one picked before, while its offer stands", [one, two, three], 2, { kind: "one", asker: two }],
		["a pick, the latest offer first", [one, three, two], undefined, { kind: "pick", among: [three, two, one] }],
		["a pick when the remembered one is gone", [one, two], 9, { kind: "pick", among: [two, one] }],
		["two connected: the remembered one of them", [one, connected, connectedToo], 4, { kind: "one", asker: connected }],
		[
			"two connected: a pick between them only",
			[one, connected, connectedToo],
			1,
			{ kind: "pick", among: [connectedToo, connected] },
		],
		["none", [], 1, { kind: "none" }],
	])("%s", (_name, candidates, remembered, choice) => {
		expect(chooseAsker(candidates, remembered)).toEqual(choice);
	});
});

const LINES = ["const a = 1;", "function f() {", "\treturn 'é🌍x';", "}", ""];
const active = (changes: Partial<NonNullable<AskView["active"]>> = {}): NonNullable<AskView["active"]> => ({
	file: "/p/src/a.ts",
	name: "a.ts",
	text: () => LINES.join("\n"),
	lineText: (line) => LINES[line] ?? "",
	cursor: { line: 1, character: 3 },
	diagnostics: [],
	...changes,
});
const view = (changes: Partial<NonNullable<AskView["active"]>> = {}, buffers: AskView["buffers"] = []): AskView => ({
	active: active(changes),
	buffers,
});
const sel = (startLine: number, startChar: number, endLine: number, endChar: number) => ({
	selection: { start: { line: startLine, character: startChar }, end: { line: endLine, character: endChar } },
});

describe("an ask's params, as pi's parser takes them", () => {
	const span = (startLine: number, endLine: number, text: string, columns?: [number, number]) => ({
		file: "/p/src/a.ts",
		startLine,
		endLine,
		...(columns && { startColumn: columns[0], endColumn: columns[1] }),
		text,
	});
	test.each([
		["no placeholder: the prompt alone", "explain this", view(sel(1, 0, 3, 1)), { prompt: "explain this" }],
		[
			"@this with lines selected: the whole lines",
			"explain @this",
			view(sel(1, 3, 2, 4)),
			{ prompt: "explain @this", placeholders: { this: span(2, 3, `${LINES[1]}\n${LINES[2]}`) } },
		],
		[
			"a selection ending at a line's start does not take that line",
			"explain @this",
			view(sel(1, 0, 3, 0)),
			{ prompt: "explain @this", placeholders: { this: span(2, 3, `${LINES[1]}\n${LINES[2]}`) } },
		],
		[
			"inside one line: exactly the text, its byte columns (é is 2 bytes, 🌍 4)",
			"what is @selection",
			view(sel(2, 9, 2, 12)),
			{ prompt: "what is @selection", placeholders: { selection: span(3, 3, "é🌍", [10, 12]) } },
		],
		[
			"@this with no selection: the cursor's line",
			"fix @this",
			view(),
			{ prompt: "fix @this", placeholders: { this: span(2, 2, LINES[1] as string) } },
		],
		[
			"a selection of only a line break is none: the cursor's line",
			"fix @this",
			view({ ...sel(0, 12, 1, 0), cursor: { line: 0, character: 12 } }),
			{ prompt: "fix @this", placeholders: { this: span(1, 1, LINES[0] as string) } },
		],
		["@selection with none: left out (pi says so)", "see @selection", view(), { prompt: "see @selection" }],
		[
			"@buffer of a file: its path",
			"review @buffer",
			view(),
			{ prompt: "review @buffer", placeholders: { buffer: { file: "/p/src/a.ts" } } },
		],
		[
			"@buffer of an untitled document: its name and text",
			"review @buffer",
			view({ file: undefined, name: "Untitled-1", text: () => "draft" }),
			{ prompt: "review @buffer", placeholders: { buffer: { name: "Untitled-1", text: "draft" } } },
		],
		[
			"@this in an untitled document: named, no file",
			"fix @this",
			view({ file: undefined, name: "Untitled-1" }),
			{
				prompt: "fix @this",
				placeholders: { this: { name: "Untitled-1", startLine: 2, endLine: 2, text: LINES[1] as string } },
			},
		],
		[
			"@buffers: each tab's document once, a file by its path, another by its name",
			"compare @buffers",
			view({}, [
				{ file: "/p/a.ts", name: "a.ts", text: () => "" },
				{ name: "Untitled-1", text: () => "" },
				{ file: "/p/a.ts", name: "a.ts", text: () => "" },
			]),
			{ prompt: "compare @buffers", placeholders: { buffers: [{ file: "/p/a.ts" }, { name: "Untitled-1" }] } },
		],
		[
			"@diagnostics: the file's, in the state file's shape",
			"fix @diagnostics",
			view({
				diagnostics: [
					{ start: { line: 2, character: 9 }, lineText: LINES[2] as string, severity: 1, message: "odd", source: "ts" },
				],
			}),
			{
				prompt: "fix @diagnostics",
				placeholders: {
					diagnostics: {
						file: "/p/src/a.ts",
						items: [{ line: 3, column: 10, severity: "warning", message: "odd", source: "ts" }],
					},
				},
			},
		],
		[
			"several at once, @thistle left alone",
			"@thistle @this and @selection",
			view(sel(0, 0, 0, 5)),
			{
				prompt: "@thistle @this and @selection",
				placeholders: { this: span(1, 1, "const", [1, 5]), selection: span(1, 1, "const", [1, 5]) },
			},
		],
	])("%s", (_name, prompt, shown, params) => {
		const sent = askParams(prompt, shown);
		expect(sent).toEqual(params);
		expect(pi.parseAskMessage("ask", JSON.parse(JSON.stringify(sent))).ok).toBe(true);
	});

	test("no document at all: the placeholders of a document are left out, @buffers still listed", () => {
		const sent = askParams("fix @this in @buffers", { buffers: [{ file: "/p/b.ts", name: "b.ts", text: () => "" }] });
		expect(sent).toEqual({ prompt: "fix @this in @buffers", placeholders: { buffers: [{ file: "/p/b.ts" }] } });
	});

	test("caps: a huge selection cut to what pi's schema takes; at most 50 buffers", () => {
		const long = "x".repeat(MAX_SPAN_CHARS);
		const huge = view({ lineText: () => long, ...sel(0, 0, 3, 1) });
		const sent = askParams("@this", huge);
		expect(sent.placeholders?.this?.text.length).toBe(MAX_SPAN_CHARS);
		const many = Array.from({ length: 80 }, (_, index) => ({
			file: `/p/${index}.ts`,
			name: `${index}.ts`,
			text: () => "",
		}));
		expect(askParams("@buffers", view({}, many)).placeholders?.buffers).toHaveLength(MAX_LISTED_BUFFERS);
		expect(pi.parseAskMessage("ask", JSON.parse(JSON.stringify(sent))).ok).toBe(true);
	});

	test("the client's caps are pi's", () => {
		expect(MAX_TYPED_BYTES).toBe(pi.MAX_TYPED_BYTES);
		expect(MAX_LISTED_BUFFERS).toBe(pi.MAX_LISTED_BUFFERS);
	});
});

describe("add's lines", () => {
	test.each([
		["the selected lines", active(sel(1, 3, 3, 1)), { file: "/p/src/a.ts", startLine: 2, endLine: 4 }],
		[
			"a selection ending at a line's start",
			active(sel(0, 0, 2, 0)),
			{ file: "/p/src/a.ts", startLine: 1, endLine: 2 },
		],
		["no selection: the cursor's line", active(), { file: "/p/src/a.ts", startLine: 2, endLine: 2 }],
		["an untitled document: none", active({ file: undefined, name: "Untitled-1" }), undefined],
		["no document: none", undefined, undefined],
	])("%s", (_name, document, params) => {
		expect(addParams(document)).toEqual(params);
		if (params) expect(pi.parseAskMessage("add", params).ok).toBe(true);
	});
});

describe("pi's news, read", () => {
	test.each([
		[
			"a status line",
			{ kind: "status", text: "pi: working (faux/m)", level: "working" },
			{ kind: "status", text: "pi: working (faux/m)", level: "working" },
		],
		[
			"a status of several lines: one, control characters gone",
			{ kind: "status", text: "pi: error:\n  bad\u001b[31m thing\r\n", level: "error" },
			{ kind: "status", text: "pi: error: bad[31m thing", level: "error" },
		],
		[
			"a long status: cut",
			{ kind: "status", text: "x".repeat(1000), level: "info" },
			{ kind: "status", text: `${"x".repeat(399)}…`, level: "info" },
		],
		[
			"the reply: its lines kept, CRs and control characters gone",
			{ kind: "reply", text: "# Title\r\n\n\tcode\u0007", streaming: true },
			{ kind: "reply", text: "# Title\n\n\tcode", streaming: true },
		],
		["an unknown level", { kind: "status", text: "x", level: "debug" }, undefined],
		["a reply without streaming", { kind: "reply", text: "x" }, undefined],
		["an unknown kind", { kind: "toast", text: "x" }, undefined],
		["no text", { kind: "status", level: "info" }, undefined],
		["no object", "pi: done", undefined],
	])("%s", (_name, params, news) => {
		expect(readNews(params)).toEqual(news);
	});

	test("a reply over 512 KiB is cut", () => {
		const news = readNews({ kind: "reply", text: "y".repeat(600 * 1024), streaming: false });
		expect(news?.kind === "reply" && news.text.length).toBe(512 * 1024);
	});
});

describe("the status bar's text", () => {
	test.each([
		[{ text: "pi: working (faux/m)", level: "working" } as const, "$(sync~spin) pi: working (faux/m)"],
		[{ text: "pi: done, changed a.ts", level: "info" } as const, "$(check) pi: done, changed a.ts"],
		[{ text: "pi: not sent: no model", level: "error" } as const, "$(error) pi: not sent: no model"],
		[{ text: "pi: error: $(zap) boom", level: "error" } as const, "$(error) pi: error: $\u200b(zap) boom"],
	])("%j", (news, text) => {
		expect(statusBarText(news)).toBe(text);
	});

	test(`a long line is cut to ${STATUS_BAR_CHARS} characters`, () => {
		const text = statusBarText({ text: `pi: done, changed ${"a".repeat(200)}`, level: "info" });
		expect(text).toBe(`$(check) ${`pi: done, changed ${"a".repeat(200)}`.slice(0, STATUS_BAR_CHARS - 1)}…`);
	});
});
