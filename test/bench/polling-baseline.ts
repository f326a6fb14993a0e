/**
 * The benchmark's baseline: a minimal, straightforward pi extension for the same protocol that polls.
 * Every POLL_INTERVAL_MS it lists the state dir, checks each pid with kill(pid, 0) and reads and parses
 * every live editor's file, then connects to the single editor whose cwd is pi's cwd and shows the same
 * widget text. Prompts are answered from what the last poll found. Written for comparison only.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";

export const POLL_INTERVAL_MS = 1000;

interface PolledState {
	pid: number;
	cwd: string;
	app: string;
	active_buffer?: {
		file?: string | null;
		name: string;
		cursor: { line: number | null; column: number | null };
		selection?: { start: { line: number }; end: { line: number }; text: string; selected_at?: number | null } | null;
		lines_total: number;
		modified: boolean;
	} | null;
}

function alive(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		return (error as NodeJS.ErrnoException).code === "EPERM";
	}
}

function poll(dir: string, cwd: string): PolledState | undefined {
	const matches: PolledState[] = [];
	let names: string[] = [];
	try {
		names = readdirSync(dir);
	} catch {
		return undefined;
	}
	for (const name of names) {
		const match = /^(\d+)\.json$/.exec(name);
		if (!match || !alive(Number(match[1]))) continue;
		try {
			const state = JSON.parse(readFileSync(join(dir, name), "utf8")) as PolledState;
			if (state.cwd === cwd) matches.push(state);
		} catch {
			// A torn write; the next poll will see the finished one.
		}
	}
	return matches.length === 1 ? matches[0] : undefined;
}

function widget(state: PolledState | undefined, nowSeconds: number): string | undefined {
	const buffer = state?.active_buffer;
	if (!buffer?.file) return undefined;
	const selection = buffer.selection;
	if (selection && typeof selection.selected_at === "number" && nowSeconds - selection.selected_at <= 60) {
		const lines = selection.end.line - selection.start.line + 1;
		return `${lines} ${lines === 1 ? "line" : "lines"} selected in ${buffer.name}`;
	}
	return `in ${buffer.name}`;
}

export default function pollingBaseline(pi: ExtensionAPI): void {
	let timer: NodeJS.Timeout | undefined;
	let current: PolledState | undefined;
	let shown: string | undefined;

	pi.on("session_start", (_event, ctx) => {
		const dir = process.env.PI_IDE_STATE_DIR ?? "/tmp/pi-ide";
		const tick = () => {
			current = poll(dir, ctx.cwd);
			const text = widget(current, Date.now() / 1000);
			if (text !== shown && ctx.hasUI) {
				shown = text;
				ctx.ui.setWidget("pi-ide-context", text === undefined ? undefined : [text], { placement: "belowEditor" });
			}
		};
		tick();
		timer = setInterval(tick, POLL_INTERVAL_MS);
	});

	pi.on("session_shutdown", () => clearInterval(timer));

	pi.on("before_agent_start", () => {
		const buffer = current?.active_buffer;
		if (!current || !buffer?.file) return;
		const lines = [
			`<editor-context>`,
			`App: ${current.app}`,
			`File: ${buffer.file}`,
			`Buffer: ${buffer.lines_total} lines`,
			"</editor-context>",
		];
		return { message: { customType: "pi-ide-context", content: lines.join("\n"), display: false } };
	});
}
