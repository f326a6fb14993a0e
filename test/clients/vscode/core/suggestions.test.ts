/**
 * Inline completions as the client asks pi for them (clients/vscode/src/core/suggestions.ts, pure): pi's
 * `pi/offerSuggestions` read with the client's own checks, which held offer a document asks (the deepest project
 * holding it, the latest of equals, none outside), `getSuggestions`' params cut to CONTEXT_CHARS each side, and
 * pi's answer read back as at most `count` texts fit to show.
 */
import { describe, expect, test } from "vitest";
import {
	CONTEXT_CHARS,
	type HeldOffer,
	noSuggestionReason,
	offerFor,
	readOffer,
	suggestionRequest,
	suggestionTexts,
} from "../../../../clients/vscode/src/core/suggestions.ts";

const offer = {
	project: "/p",
	pid: 4242,
	suggestions: true,
	asks: false,
	connected: false,
	debounceMs: 300,
	timeoutMs: 32_000,
	secretFiles: ["*.env", "secrets/**"],
};

describe("pi's offer, read", () => {
	test.each([
		["an offer", offer],
		["the bounds' lower ends", { ...offer, pid: 1, debounceMs: 0, timeoutMs: 1, secretFiles: [] }],
		["the bounds' upper ends", { ...offer, pid: 2 ** 31, debounceMs: 10_000, timeoutMs: 120_000 }],
		["the root as project", { ...offer, project: "/" }],
		["a project of 4096 chars", { ...offer, project: `/${"x".repeat(4095)}` }],
		["500 globs of 500 chars", { ...offer, secretFiles: Array(500).fill("x".repeat(500)) }],
	])("%s is taken as it is", (_name, params) => {
		expect(readOffer(params)).toEqual({ ok: true, offer: params });
	});

	test.each([
		["/a/b/", "/a/b"],
		["/a/./b", "/a/b"],
		["/a//b", "/a/b"],
		["/a/c/../b", "/a/b"],
	])("the project %s is held as %s (depth compares lengths)", (given, held) => {
		expect(readOffer({ ...offer, project: given })).toEqual({ ok: true, offer: { ...offer, project: held } });
	});

	test("only the offer's own fields are kept", () => {
		expect(readOffer({ ...offer, extra: "dropped" })).toEqual({ ok: true, offer });
	});

	test.each([
		["a pi before asks (no flags): inline completions only", {}, { suggestions: true, asks: false, connected: false }],
		["asks alone", { suggestions: false, asks: true }, { suggestions: false, asks: true, connected: false }],
		["both, connected", { asks: true, connected: true }, { suggestions: true, asks: true, connected: true }],
	])("what it offers: %s", (_name, flags, read) => {
		const { suggestions: _s, asks: _a, connected: _c, ...settings } = offer;
		expect(readOffer({ ...settings, ...flags })).toEqual({ ok: true, offer: { ...settings, ...read } });
	});

	const project = "the offer's project is no absolute path";
	const pid = "the offer's pid is no pid";
	const debounce = "debounceMs is not 0..10000";
	const timeout = "timeoutMs is not 1..120000";
	const globs = "secretFiles is not a list of at most 500 globs of 500 characters";
	const flags = "suggestions, asks and connected are each true or false";
	test.each([
		["no object", null, "the offer is no object"],
		["an array", [offer], "the offer is no object"],
		["a string", "offer", "the offer is no object"],
		["no project", { ...offer, project: undefined }, project],
		["a relative project", { ...offer, project: "p" }, project],
		["an empty project", { ...offer, project: "" }, project],
		["a project with a NUL", { ...offer, project: "/p\0/q" }, project],
		["a project over 4096 chars", { ...offer, project: `/${"x".repeat(4096)}` }, project],
		["a project that is no string", { ...offer, project: ["/p"] }, project],
		["no pid", { ...offer, pid: undefined }, pid],
		["pid 0", { ...offer, pid: 0 }, pid],
		["a negative pid", { ...offer, pid: -1 }, pid],
		["a fractional pid", { ...offer, pid: 1.5 }, pid],
		["a pid past 2^31", { ...offer, pid: 2 ** 31 + 1 }, pid],
		["a pid as a string", { ...offer, pid: "4242" }, pid],
		["no debounceMs", { ...offer, debounceMs: undefined }, debounce],
		["a negative debounceMs", { ...offer, debounceMs: -1 }, debounce],
		["a debounceMs past 10000", { ...offer, debounceMs: 10_001 }, debounce],
		["a fractional debounceMs", { ...offer, debounceMs: 0.5 }, debounce],
		["a NaN debounceMs", { ...offer, debounceMs: Number.NaN }, debounce],
		["no timeoutMs", { ...offer, timeoutMs: undefined }, timeout],
		["timeoutMs 0", { ...offer, timeoutMs: 0 }, timeout],
		["a timeoutMs past 120000", { ...offer, timeoutMs: 120_001 }, timeout],
		["an infinite timeoutMs", { ...offer, timeoutMs: Number.POSITIVE_INFINITY }, timeout],
		["suggestions as a string", { ...offer, suggestions: "yes" }, flags],
		["asks as 1", { ...offer, asks: 1 }, flags],
		["connected as null", { ...offer, connected: null }, flags],
		["no secretFiles", { ...offer, secretFiles: undefined }, globs],
		["secretFiles as one string", { ...offer, secretFiles: "*.env" }, globs],
		["501 globs", { ...offer, secretFiles: Array(501).fill("*.env") }, globs],
		["a glob over 500 chars", { ...offer, secretFiles: ["x".repeat(501)] }, globs],
		["a glob that is no string", { ...offer, secretFiles: ["*.env", 3] }, globs],
	])("%s: refused", (_name, params, reason) => {
		expect(readOffer(params)).toEqual({ ok: false, reason });
	});

	test("the first bad field is the one named", () => {
		expect(readOffer({ project: "p", pid: 0, debounceMs: -1, timeoutMs: 0, secretFiles: null })).toEqual({
			ok: false,
			reason: project,
		});
	});
});

describe("the offer a document asks", () => {
	const held = (project: string, order: number, pid = order): HeldOffer => ({
		offer: { ...offer, project, pid },
		order,
	});
	const root = held("/", 1);
	const a = held("/a", 2);
	const ab = held("/a/b", 3);
	const abc = held("/a/b/c", 4);
	const abLater = held("/a/b", 7);
	const abEarlier = held("/a/b", 0);
	const other = held("/other", 9);

	test.each([
		["the deepest project holding the file", [a, ab, abc, other], "/a/b/c/main.ts", abc],
		["the deepest, whatever order they came in", [abc, ab, a], "/a/b/main.ts", ab],
		["the deepest over a later shallower one", [ab, held("/a", 99)], "/a/b/x.ts", ab],
		["of equal depth, the latest offer", [ab, abLater, abEarlier], "/a/b/x.ts", abLater],
		["of equal depth, the latest offer, listed first", [abLater, ab], "/a/b/x.ts", abLater],
		["/a/bc is not inside /a/b", [a, ab], "/a/bc/x.ts", a],
		["/a/bc itself is not inside /a/b", [ab], "/a/bc", undefined],
		["the project's own path counts", [a, ab], "/a/b", ab],
		["the project's path with a trailing slash counts", [ab], "/a/b/", ab],
		["the root holds everything", [root, other], "/else/x.ts", root],
		["outside every project: none", [a, ab, other], "/elsewhere/x.ts", undefined],
		["no offers: none", [], "/a/x.ts", undefined],
	])("%s", (_name, offers, path, expected) => {
		expect(offerFor(offers, [path])).toBe(expected);
	});

	test.each([
		["only the real path is in a project", [ab, other], ["/link/x.ts", "/a/b/x.ts"], ab],
		["the link's project is shallower than the real path's", [a, abc], ["/a/link/x.ts", "/a/b/c/x.ts"], abc],
		["neither name in a project", [ab], ["/link/x.ts", "/real/x.ts"], undefined],
	])("by either name (a workspace opened through a link): %s", (_name, offers, names, expected) => {
		expect(offerFor(offers, names)).toBe(expected);
	});

	test("any iterable, with the caller's own type handed back", () => {
		const peers = new Map([
			[1, { ...ab, peer: "first" }],
			[2, { ...abc, peer: "second" }],
		]);
		expect(offerFor(peers.values(), ["/a/b/c/d.ts"])?.peer).toBe("second");
	});
});

describe("getSuggestions' params", () => {
	const context = { filePath: "/p/src/main.ts", language: "typescript", before: "const x = ", after: ";\n" };

	test("the seed's shape", () => {
		expect(suggestionRequest(context, 3)).toEqual({
			filePath: "/p/src/main.ts",
			language: "typescript",
			cursorBefore: "const x = ",
			cursorAfter: ";\n",
			suggestionCount: 3,
		});
	});

	const head = "H".repeat(10);
	const tail = "T".repeat(10);
	const full = "b".repeat(CONTEXT_CHARS);
	test.each([
		["both sides short: kept whole", "abc", "xyz", "abc", "xyz"],
		["empty sides", "", "", "", ""],
		["exactly CONTEXT_CHARS each side: kept whole", full, full, full, full],
		[
			"longer sides: the text nearest the cursor (before's end, after's start)",
			`${head}${full}`,
			`${full}${tail}`,
			full,
			full,
		],
		[
			"one char over: the far char goes",
			`<${"b".repeat(CONTEXT_CHARS - 1)}>`,
			`<${"a".repeat(CONTEXT_CHARS - 1)}>`,
			`${"b".repeat(CONTEXT_CHARS - 1)}>`,
			`<${"a".repeat(CONTEXT_CHARS - 1)}`,
		],
	])("%s", (_name, before, after, cursorBefore, cursorAfter) => {
		const params = suggestionRequest({ ...context, before, after }, 1);
		expect(params.cursorBefore).toBe(cursorBefore);
		expect(params.cursorAfter).toBe(cursorAfter);
		expect(params.cursorBefore.length).toBeLessThanOrEqual(CONTEXT_CHARS);
		expect(params.cursorAfter.length).toBeLessThanOrEqual(CONTEXT_CHARS);
	});
});

describe("pi's answer, read as texts to show", () => {
	test.each([
		["the suggestions", { suggestions: ["a", "b"] }, 3, ["a", "b"]],
		["at most count", { suggestions: ["a", "b", "c", "d"] }, 3, ["a", "b", "c"]],
		["a count of 0: none", { suggestions: ["a"] }, 0, []],
		["a negative count: none", { suggestions: ["a"] }, -1, []],
		["one for an automatic trigger", { suggestions: ["a", "b"] }, 1, ["a"]],
		["none", { suggestions: [] }, 3, []],
		["empty strings dropped", { suggestions: ["", "a"] }, 3, ["a"]],
		["whitespace only dropped", { suggestions: [" \t", "\n\n", "a"] }, 3, ["a"]],
		["entries that are no string skipped", { suggestions: [1, null, { text: "a" }, ["a"], "b"] }, 3, ["b"]],
		["duplicates once", { suggestions: ["a", "b", "a", "b", "c"] }, 3, ["a", "b", "c"]],
		["a duplicate does not use up count", { suggestions: ["a", "a", "a", "b"] }, 2, ["a", "b"]],
		["a dropped entry does not use up count", { suggestions: ["", 5, "a", "b"] }, 2, ["a", "b"]],
		["CRLF and lone CR as LF", { suggestions: ["a\r\nb\rc"] }, 3, ["a\nb\nc"]],
		["tab and newline kept", { suggestions: ["\tif (x) {\n\t}"] }, 3, ["\tif (x) {\n\t}"]],
		[
			"other control chars stripped (C0, DEL, C1)",
			{ suggestions: ["a\u0000b\u0007c\u001bd\u007fe\u0085f\u009fg\u000bh\u000ci"] },
			3,
			["abcdefghi"],
		],
		["only control chars: dropped", { suggestions: ["\u0000\u001b", "a"] }, 3, ["a"]],
		["duplicates once after cleaning", { suggestions: ["a\r\nb", "a\nb", "a\u0000\nb"] }, 3, ["a\nb"]],
		["non-ASCII kept", { suggestions: ["é → 😀"] }, 3, ["é → 😀"]],
		["20000 chars kept", { suggestions: ["x".repeat(20_000)] }, 3, ["x".repeat(20_000)]],
		["over 20000 chars dropped", { suggestions: ["x".repeat(20_001), "a"] }, 3, ["a"]],
		["other fields ignored", { suggestions: ["a"], model: "m" }, 3, ["a"]],
		["null", null, 3, []],
		["undefined", undefined, 3, []],
		["a string", "a", 3, []],
		["a bare array", ["a"], 3, []],
		["no suggestions field", { texts: ["a"] }, 3, []],
		["suggestions that are no array", { suggestions: "a" }, 3, []],
		["suggestions as an object", { suggestions: { 0: "a" } }, 3, []],
	])("%s", (_name, result, count, texts) => {
		expect(suggestionTexts(result, count)).toEqual(texts);
	});
});

describe("why pi answered no suggestion, for the log", () => {
	test.each([
		["a reason", { suggestions: [], reason: "rate limited: 12 a minute" }, "rate limited: 12 a minute"],
		["one line, control characters gone", { suggestions: [], reason: "no\nmodel\u0007 " }, "no model"],
		["cut", { suggestions: [], reason: "x".repeat(400) }, "x".repeat(300)],
		["none said", { suggestions: [] }, undefined],
		["an empty one", { suggestions: [], reason: "  " }, undefined],
		["no string", { reason: 42 }, undefined],
		["no object", "rate limited", undefined],
	])("%s", (_name, result, reason) => {
		expect(noSuggestionReason(result)).toBe(reason);
	});
});
