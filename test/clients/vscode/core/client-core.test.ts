import { Compile } from "typebox/compile";
import { describe, expect, test } from "vitest";
import { appFromName } from "../../../../clients/vscode/src/core/app-name.ts";
import { clientState, type EditorSnapshot } from "../../../../clients/vscode/src/core/client-state.ts";
import { byteColumn } from "../../../../clients/vscode/src/core/columns.ts";
import { Debounce } from "../../../../clients/vscode/src/core/debounce.ts";
import { rangeKey, SelectionClock } from "../../../../clients/vscode/src/core/selection-clock.ts";
import { stateDirOf } from "../../../../clients/vscode/src/core/state-dir.ts";
import { EditorStateSchema } from "../../../../src/editors/core/protocol-state.ts";
import { parseStateFile } from "../../../../src/editors/state-dir/core/parse.ts";

describe("UTF-16 offsets to 1-based byte columns", () => {
	test.each([
		["ASCII", "hello", 0, 1],
		["ASCII, after 3", "hello", 3, 4],
		["after é (2 bytes)", "héllo", 2, 4],
		["after a CJK character (3 bytes)", "日本", 1, 4],
		["after 🌍 (a surrogate pair, 4 bytes)", "a🌍b", 3, 6],
		["inside a surrogate pair: its start", "a🌍b", 2, 2],
		["past the end: the end", "ab", 9, 3],
		["negative: the start", "ab", -1, 1],
	])("%s", (_name, text, offset, column) => expect(byteColumn(text, offset)).toBe(column));
});

describe("the protocol's app from vscode.env.appName", () => {
	test.each([
		["Visual Studio Code", "vscode"],
		["Visual Studio Code - Insiders", "vscode"],
		["code-server", "vscode"],
		["Cursor", "cursor"],
		["Windsurf", "windsurf"],
		["VSCodium", "vscodium"],
	])("%s", (name, app) => expect(appFromName(name)).toBe(app));
});

describe("the state dir", () => {
	test.each([
		[{ PI_IDE_STATE_DIR: "/x", XDG_RUNTIME_DIR: "/run/user/1" }, "/x"],
		[{ XDG_RUNTIME_DIR: "/run/user/1/" }, "/run/user/1/pi-ide"],
		[{}, "/tmp/pi-ide"],
	])("%j", (env, dir) => expect(stateDirOf(env)).toBe(dir));
});

const LINE = 'const grüß = "héllo 🌍";';
/** `null`: no text editor at all. */
const snapshot = (editor: Partial<NonNullable<EditorSnapshot["editor"]>> | null = {}): EditorSnapshot => ({
	pid: 4242,
	nowSeconds: 1_800_000_000,
	app: "vscode",
	cwd: "/p",
	argv: ["/p", "/q"],
	...(editor && {
		editor: {
			file: "/p/src/main.ts",
			language: "typescript",
			lineCount: 3,
			dirty: false,
			cursor: { line: 1, character: 6 },
			cursorLineText: LINE,
			diagnostics: [],
			...editor,
		},
	}),
	unsavedFiles: [],
	client: "pi-ide-context-vscode/0.3.0",
});
const check = Compile(EditorStateSchema);

describe("what the client writes", () => {
	test("valid for pi's own schema and parser, every optional field kept", () => {
		const state = clientState(
			snapshot({
				selection: {
					start: { line: 1, character: 6 },
					end: { line: 1, character: 23 },
					lines: [LINE],
					selectedAt: 1_799_999_990,
				},
				diagnostics: [
					{ start: { line: 1, character: 14 }, lineText: LINE, severity: 1, message: "w" },
					{ start: { line: 1, character: 6 }, lineText: LINE, severity: 0, message: "e", source: "ts" },
				],
			}),
		);
		expect(check.Check(state)).toBe(true);
		const parsed = parseStateFile("4242.json", new TextEncoder().encode(JSON.stringify(state)));
		expect(parsed.ok && parsed.dropped).toBeUndefined();
		expect(state.active_buffer).toMatchObject({
			cursor: { line: 2, column: 7 },
			// grüß starts at byte 7; the closing quote (UTF-16 offset 22) starts at byte 28.
			selection: { start: { line: 2, column: 7 }, end: { line: 2, column: 28 }, text: 'grüß = "héllo 🌍"' },
			diagnostics: [
				{ line: 2, column: 7, severity: "error", message: "e", source: "ts" },
				{ line: 2, column: 17, severity: "warning", message: "w" },
			],
		});
		expect(state).toMatchObject({ argv: ["/p", "/q"], client: "pi-ide-context-vscode/0.3.0", unsaved_files: [] });
	});

	test("several lines: whole lines; an end at a line's start does not take that line", () => {
		const state = clientState(
			snapshot({
				selection: {
					start: { line: 0, character: 2 },
					end: { line: 2, character: 0 },
					lines: ["line one", LINE, "third"],
					selectedAt: null,
				},
			}),
		);
		expect(state.active_buffer?.selection).toEqual({
			start: { line: 1, column: 3 },
			end: { line: 2, column: Buffer.byteLength(LINE) - 1 + 1 },
			text: `line one\n${LINE}`,
			selected_at: null,
		});
	});

	test("no text editor, or not a file: the no-file state pi knows", () => {
		for (const editor of [null, { file: undefined }]) {
			const state = clientState(snapshot(editor));
			expect(state.active_buffer).toEqual({
				file: null,
				name: "[No File]",
				language: null,
				cursor: null,
				selection: null,
				modified: false,
				lines_total: 0,
			});
			expect(check.Check(state)).toBe(true);
		}
	});

	test("diagnostics: at most 100, errors first, messages cut to 1024 characters", () => {
		const many = Array.from({ length: 150 }, (_, index) => ({
			start: { line: 0, character: 0 },
			lineText: "x",
			severity: index < 100 ? 1 : 0,
			message: "m".repeat(2000),
		}));
		const state = clientState(snapshot({ diagnostics: many }));
		const diagnostics = state.active_buffer?.diagnostics ?? [];
		expect(diagnostics).toHaveLength(100);
		expect(diagnostics.slice(0, 50).every((item) => item.severity === "error")).toBe(true);
		expect(diagnostics[0]?.message).toHaveLength(1024);
		expect(check.Check(state)).toBe(true);
	});
});

describe("when a selection was made", () => {
	test("made by the user: its time; restored by a tab switch: the time it was made; never seen made: null", () => {
		const clock = new SelectionClock();
		const range = rangeKey({ line: 1, character: 0 }, { line: 3, character: 2 });
		expect(clock.selectedAt("/p/a.ts", range)).toBeNull();
		clock.madeNow("/p/a.ts", range, 100);
		expect(clock.selectedAt("/p/a.ts", range)).toBe(100);
		expect(clock.selectedAt("/p/a.ts", rangeKey({ line: 1, character: 0 }, { line: 4, character: 0 }))).toBeNull();
		expect(clock.selectedAt("/p/b.ts", range)).toBeNull();
		clock.forget("/p/a.ts");
		expect(clock.selectedAt("/p/a.ts", range)).toBeNull();
	});
});

describe("the write debounce", () => {
	function timers() {
		const due: { run: () => void; at: number }[] = [];
		let now = 0;
		return {
			timers: {
				set: (run: () => void, ms: number) => {
					const timer = { run, at: now + ms };
					due.push(timer);
					return timer;
				},
				clear: (handle: unknown) => due.splice(due.indexOf(handle as (typeof due)[number]), 1),
			},
			advance(ms: number) {
				now += ms;
				for (const timer of due.filter((item) => item.at <= now)) {
					due.splice(due.indexOf(timer), 1);
					timer.run();
				}
			},
			pending: () => due.length,
		};
	}

	test("a burst is one write within 100 ms; nothing runs while nothing happens", () => {
		const clock = timers();
		let writes = 0;
		const debounce = new Debounce(100, () => writes++, clock.timers);
		for (let i = 0; i < 20; i++) debounce.schedule();
		expect(clock.pending()).toBe(1);
		clock.advance(99);
		expect(writes).toBe(0);
		clock.advance(1);
		expect(writes).toBe(1);
		clock.advance(10_000);
		expect(writes).toBe(1);
		expect(clock.pending()).toBe(0);
	});

	test("flush writes what is due now; cancel drops it", () => {
		const clock = timers();
		let writes = 0;
		const debounce = new Debounce(100, () => writes++, clock.timers);
		debounce.schedule();
		debounce.flush();
		expect(writes).toBe(1);
		debounce.schedule();
		debounce.cancel();
		clock.advance(200);
		expect(writes).toBe(1);
	});
});
