/**
 * A stand-in editor for the demo: a real process that writes protocol v0.2 state for files of the sample
 * project, like the Neovim client would: cursor moves, a selection that goes stale after 60 s, a file
 * switch. Usage: simulated-editor <state dir> <project dir>. Deletes its file on SIGTERM/SIGINT.
 */
import { renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { MAIN_TS, UTIL_TS } from "./sample-project.ts";

const [stateDirArg, projectArg] = process.argv.slice(2);
if (!stateDirArg || !projectArg) throw new Error("usage: simulated-editor <state dir> <project dir>");
const stateDir: string = stateDirArg;
const project: string = projectArg;

const file = join(stateDir, `${process.pid}.json`);
const lines = { "main.ts": MAIN_TS.split("\n"), "util.ts": UTIL_TS.split("\n") };
const now = () => Math.floor(Date.now() / 1000);

type Name = keyof typeof lines;
interface Selection {
	start: number;
	end: number;
	selectedAt: number;
}

let buffer: Name = "main.ts";
let cursor = { line: 1, column: 1 };
let modified = false;
const selections: Partial<Record<Name, Selection>> = {};

function write(): void {
	const selection = selections[buffer];
	const text = lines[buffer];
	const state = {
		pid: process.pid,
		cwd: project,
		timestamp: now(),
		app: "nvim",
		argv: ["src/main.ts"],
		active_buffer: {
			file: join(project, "src", buffer),
			name: buffer,
			language: "typescript",
			cursor,
			modified,
			lines_total: text.length,
			...(selection && {
				selection: {
					start: { line: selection.start, column: 1 },
					end: { line: selection.end, column: (text[selection.end - 1] ?? "").length || 1 },
					text: text.slice(selection.start - 1, selection.end).join("\n"),
					selected_at: selection.selectedAt,
				},
			}),
		},
	};
	writeFileSync(`${file}.tmp`, JSON.stringify(state));
	renameSync(`${file}.tmp`, file);
}

function open(name: Name, line: number, column: number): void {
	buffer = name;
	cursor = { line, column };
}

function select(name: Name, start: number, end: number): void {
	selections[name] = { start, end, selectedAt: now() };
}

/** One 90-second round of editing, then it starts over. */
const script: [atSeconds: number, step: () => void][] = [
	[0, () => open("main.ts", 1, 1)],
	[2, () => open("main.ts", 9, 17)],
	[4, () => open("main.ts", 12, 8)],
	[6, () => select("main.ts", 10, 14)],
	[25, () => open("util.ts", 5, 17)],
	[35, () => open("main.ts", 17, 2)],
	[
		50,
		() => {
			open("main.ts", 18, 40);
			modified = true;
		},
	],
	[75, () => select("util.ts", 1, 3)],
	[76, () => open("util.ts", 3, 1)],
];
const ROUND_SECONDS = 90;

let started = Date.now();
let next = 0;
const timer = setInterval(() => {
	const elapsed = (Date.now() - started) / 1000;
	if (elapsed >= ROUND_SECONDS) {
		started = Date.now();
		next = 0;
		modified = false;
		delete selections["main.ts"];
		delete selections["util.ts"];
	}
	while (next < script.length && (script[next]?.[0] ?? Infinity) <= (Date.now() - started) / 1000) {
		script[next]?.[1]();
		next++;
		write();
	}
}, 100);

function exit(): void {
	clearInterval(timer);
	rmSync(file, { force: true });
	process.exit(0);
}
process.on("SIGTERM", exit);
process.on("SIGINT", exit);
write();
