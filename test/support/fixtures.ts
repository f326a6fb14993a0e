import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { EditorReading } from "../../src/editors/core/editor.ts";
import type { EditorState } from "../../src/editors/core/protocol-state.ts";

export type NvimFixture = "named-buffer" | "visual-line-selection" | "charwise-selection" | "unnamed-buffer";

const FIXTURE_DIR = join(import.meta.dirname, "..", "fixtures", "nvim-client");
const CAPTURED_PROJECT = "\\/home\\/dev\\/proj";
const CAPTURED_PID = '"pid":4242';

/**
 * The raw bytes a real Neovim client wrote, moved to `project` and `pid`; `selectedAt` replaces the captured
 * selection time. Rewritten as text so the client's `\/` escaping and key order survive.
 */
export function nvimFixtureText(name: NvimFixture, options: { project?: string } & Rewrites = {}): string {
	let text = readFileSync(join(FIXTURE_DIR, `${name}.json`), "utf8").trim();
	if (options.project) text = text.replaceAll(CAPTURED_PROJECT, options.project.replaceAll("/", "\\/"));
	return rewrite(text, options);
}

interface Rewrites {
	pid?: number;
	selectedAt?: number;
	timestamp?: number;
}

/** pid, selection time and write time of a fixture's raw text, keeping its bytes otherwise. */
function rewrite(text: string, options: Rewrites): string {
	let out = text;
	if (options.pid !== undefined) out = out.replace(CAPTURED_PID, `"pid":${options.pid}`);
	if (options.selectedAt !== undefined) out = out.replace(/"selected_at":\d+/, `"selected_at":${options.selectedAt}`);
	if (options.timestamp !== undefined) out = out.replace(/"timestamp":\d+/, `"timestamp":${options.timestamp}`);
	return out;
}

export function nvimFixture(name: NvimFixture, options: Parameters<typeof nvimFixtureText>[1] = {}): EditorState {
	return JSON.parse(nvimFixtureText(name, options)) as EditorState;
}

export type ClientFixture =
	| `vscode-client/${"named-file" | "no-editor" | "multi-root" | "restored-selection" | "unsaved-utf16-selection" | "untitled"}`
	| `obsidian-client/${"note" | "no-note"}`;

const FIXTURES_ROOT = join(import.meta.dirname, "..", "fixtures");

/**
 * A VS Code or Obsidian fixture (written from the clients' documented facts) moved under `home` (replacing
 * `/home/dev`, so `proj`, `other` and `vault` stay beside each other) and to `pid`.
 */
export function clientFixtureText(name: ClientFixture, options: { home?: string } & Rewrites = {}): string {
	let text = readFileSync(join(FIXTURES_ROOT, `${name}.json`), "utf8").trim();
	if (options.home) text = text.replaceAll('"/home/dev/', `"${options.home}/`);
	return rewrite(text, options);
}

export function clientFixture(name: ClientFixture, options: Parameters<typeof clientFixtureText>[1] = {}): EditorState {
	return JSON.parse(clientFixtureText(name, options)) as EditorState;
}

export type StateOverrides = Partial<EditorState> & { buffer?: Partial<NonNullable<EditorState["active_buffer"]>> };

/** A complete valid state with every field, for tests that vary one thing. */
export function editorState(overrides: StateOverrides = {}): EditorState {
	const { buffer, ...top } = overrides;
	return {
		pid: 4242,
		cwd: "/home/dev/proj",
		timestamp: 1_800_000_000,
		app: "nvim",
		argv: ["src/main.ts"],
		active_buffer: {
			file: "/home/dev/proj/src/main.ts",
			name: "main.ts",
			language: "typescript",
			cursor: { line: 42, column: 10 },
			modified: false,
			lines_total: 200,
			...buffer,
		},
		...top,
	};
}

/** An editor of `project` writing now, its active file under `project/src` (`main.ts` unless `name` is given). */
export function projectState(project: string, overrides: StateOverrides = {}, name?: string): EditorState {
	return editorState({
		cwd: project,
		timestamp: Date.now() / 1000,
		...overrides,
		buffer: {
			file: `${project}/src/${name ?? "main.ts"}`,
			...(name === undefined ? {} : { name }),
			...overrides.buffer,
		},
	});
}

/** A selection made `ageSeconds` before `nowSeconds`. */
export function selection(startLine: number, endLine: number, text: string, selectedAt: number | null) {
	return { start: { line: startLine, column: 1 }, end: { line: endLine, column: 5 }, text, selected_at: selectedAt };
}

/** Above Linux's largest possible pid_max (2^22 = 4 194 304): no process can have these pids. */
export const DEAD_PID_BASE = 5_000_000;

/** An editor's reading of pid 7 in `/p` showing `file` (`null`: an unnamed buffer), as a state file gives it. */
export function editorReading(file: string | null): EditorReading {
	return {
		origin: "state-file",
		pid: 7,
		state: editorState({ pid: 7, cwd: "/p", buffer: { file, name: file ?? "[No Name]" } }),
		paths: { cwd: "/p", argvDirs: [] },
		selectionFirstSeenSeconds: 0,
		writtenAtSeconds: 0,
	};
}
