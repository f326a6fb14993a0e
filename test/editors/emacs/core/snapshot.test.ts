import { Compile } from "typebox/compile";
import { describe, expect, test } from "vitest";
import { EditorStateSchema } from "../../../../src/editors/core/protocol-state.ts";
import {
	type EmacsSnapshot,
	parseEmacsSnapshot,
	stateFromEmacsSnapshot,
} from "../../../../src/editors/emacs/core/snapshot.ts";

const protocolCheck = Compile(EditorStateSchema);

/** What a real Emacs 28.2 pushed (test/editors/emacs/push-state.e2e.test.ts), a region active. */
const SNAPSHOT: EmacsSnapshot = {
	file: "/home/me/proj/src/main.py",
	name: "main.py",
	mode: "python-mode",
	cursor: { line: 3, column: 6 },
	modified: true,
	lines_total: 40,
	region: {
		start: { line: 2, column: 3 },
		end: { line: 3, column: 5 },
		text: "x = 1\nthird",
		active: true,
		selected_at: null,
		whole_lines: false,
		text_cut: false,
	},
	diagnostics: [
		{ severity: "error", line: 3, column: 7, end_line: 3, end_column: 13, message: "bad", source: "eglot" },
		{ severity: "warning", line: 1, column: 1, end_line: 1, end_column: 3, message: "hm" },
	],
	unsaved: ["/home/me/proj/src/main.py", "/home/me/proj/other.py"],
	project_root: "/home/me/proj/",
	minibuffer: false,
	frames: 1,
};

const facts = { pid: 4242, cwd: "/home/me/proj", argv: ["emacs", "-nw", "src/main.py"], nowSeconds: 1_800_000_100 };

describe("a snapshot checked", () => {
	test("what the elisp returns passes as it is", () => {
		expect(parseEmacsSnapshot(SNAPSHOT)).toEqual({ ok: true, snapshot: SNAPSHOT, cuts: [] });
	});

	test("the elisp's caught error is the reason", () => {
		expect(parseEmacsSnapshot({ error: "Wrong type argument: stringp, nil" })).toEqual({
			ok: false,
			reason: "Emacs could not describe its state: Wrong type argument: stringp, nil",
		});
	});

	test.each([
		["not an object", 7, "/"],
		["a relative file", { ...SNAPSHOT, file: "src/main.py" }, "/file"],
		["column 0", { ...SNAPSHOT, cursor: { line: 1, column: 0 } }, "/cursor/column"],
		[
			"a severity of its own",
			{ ...SNAPSHOT, diagnostics: [{ ...SNAPSHOT.diagnostics[0], severity: "fatal" }] },
			"/diagnostics/0/severity",
		],
		["an unsaved relative path", { ...SNAPSHOT, unsaved: ["x"] }, "/unsaved/0"],
		["no frames count", { ...SNAPSHOT, frames: undefined }, "/"],
	])("%s is refused with where", (_what, raw, where) => {
		const parsed = parseEmacsSnapshot(raw);
		expect(parsed.ok).toBe(false);
		if (!parsed.ok) expect(parsed.reason).toContain(`unexpected state from Emacs at ${where}`);
	});

	test("a message over the protocol's length (Emacs cuts characters, an emoji is two units) is cut, with why", () => {
		const long = "😀".repeat(1000);
		const parsed = parseEmacsSnapshot({ ...SNAPSHOT, diagnostics: [{ ...SNAPSHOT.diagnostics[0], message: long }] });
		expect(parsed.ok && parsed.snapshot.diagnostics[0]?.message).toBe("😀".repeat(512));
		expect(parsed.ok && parsed.cuts).toEqual(["diagnostic texts cut to the protocol's length"]);
	});

	test("a region's text cut in Emacs is said among the cuts; whole_lines and text_cut are optional", () => {
		const region = SNAPSHOT.region as NonNullable<EmacsSnapshot["region"]>;
		const cut = parseEmacsSnapshot({ ...SNAPSHOT, region: { ...region, whole_lines: true, text_cut: true } });
		expect(cut.ok && cut.cuts).toEqual(["the selection's text cut in Emacs at 66000 bytes"]);
		const whole = parseEmacsSnapshot({ ...SNAPSHOT, region: { ...region, whole_lines: true, text_cut: false } });
		expect(whole.ok && whole.cuts).toEqual([]);
		expect(parseEmacsSnapshot({ ...SNAPSHOT, region: { ...region, text_cut: "yes" } }).ok).toBe(false);
	});

	test("a text longer than the elisp's byte cut is refused: no real Emacs sends one", () => {
		const region = SNAPSHOT.region as NonNullable<EmacsSnapshot["region"]>;
		expect(parseEmacsSnapshot({ ...SNAPSHOT, region: { ...region, text: "x".repeat(66_000) } }).ok).toBe(true);
		expect(parseEmacsSnapshot({ ...SNAPSHOT, region: { ...region, text: "x".repeat(66_001) } }).ok).toBe(false);
	});

	test("more than 100 diagnostics: the first 100 kept, with why", () => {
		const many = Array.from({ length: 130 }, () => SNAPSHOT.diagnostics[1]);
		const parsed = parseEmacsSnapshot({ ...SNAPSHOT, diagnostics: many });
		expect(parsed.ok && parsed.snapshot.diagnostics).toHaveLength(100);
		expect(parsed.ok && parsed.cuts).toEqual(["the diagnostics: the first 100 of 130 kept"]);
	});
});

describe("the protocol state of an Emacs", () => {
	test("an active region is made now; the state passes the protocol's schema", () => {
		const state = stateFromEmacsSnapshot(SNAPSHOT, facts);
		expect(state).toEqual({
			pid: 4242,
			cwd: "/home/me/proj",
			timestamp: facts.nowSeconds,
			app: "emacs",
			argv: ["src/main.py"],
			active_buffer: {
				file: "/home/me/proj/src/main.py",
				name: "main.py",
				language: "python",
				cursor: { line: 3, column: 6 },
				selection: {
					start: { line: 2, column: 3 },
					end: { line: 3, column: 5 },
					text: "x = 1\nthird",
					selected_at: facts.nowSeconds,
				},
				modified: true,
				lines_total: 40,
				diagnostics: [
					{ severity: "error", line: 3, column: 7, message: "bad", source: "eglot" },
					{ severity: "warning", line: 1, column: 1, message: "hm" },
				],
			},
			unsaved_files: ["/home/me/proj/src/main.py", "/home/me/proj/other.py"],
		});
		expect(protocolCheck.Check(state)).toBe(true);
	});

	test("an active region sent with no time (the elisp sends none while it is active) is made now", () => {
		const region = { ...(SNAPSHOT.region as NonNullable<EmacsSnapshot["region"]>), selected_at: null };
		const state = stateFromEmacsSnapshot({ ...SNAPSHOT, region }, facts);
		expect(state.active_buffer?.selection?.selected_at).toBe(facts.nowSeconds);
	});

	test.each([
		["ended: the moment the elisp saw it end", 1_800_000_050, 1_800_000_050],
		["a moment in the future counts as now", 1_900_000_000, facts.nowSeconds],
		["never seen made: unknown (stale)", null, null],
	])("a region %s", (_what, selectedAt, expected) => {
		const region = {
			...(SNAPSHOT.region as NonNullable<EmacsSnapshot["region"]>),
			active: false,
			selected_at: selectedAt,
		};
		const state = stateFromEmacsSnapshot({ ...SNAPSHOT, region }, facts);
		expect(state.active_buffer?.selection?.selected_at).toBe(expected);
	});

	test("a daemon with no frame a user sees shows nothing; its unsaved buffers still count", () => {
		const state = stateFromEmacsSnapshot({ ...SNAPSHOT, frames: 0 }, facts);
		expect(state.active_buffer).toBeNull();
		expect(state.unsaved_files).toEqual(SNAPSHOT.unsaved);
		expect(protocolCheck.Check(state)).toBe(true);
	});

	test("a buffer visiting no file: its name, no selection, no diagnostics key when there are none", () => {
		const state = stateFromEmacsSnapshot(
			{ ...SNAPSHOT, file: null, name: "*scratch*", mode: "lisp-interaction-mode", diagnostics: [] },
			facts,
		);
		expect(state.active_buffer).toMatchObject({ file: null, name: "*scratch*", language: "elisp", selection: null });
		expect(state.active_buffer).not.toHaveProperty("diagnostics");
		expect(protocolCheck.Check(state)).toBe(true);
	});
});
