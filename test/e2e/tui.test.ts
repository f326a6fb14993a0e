import { visibleWidth } from "@mariozechner/pi-tui";
import { describe, expect, test } from "vitest";
import { useE2eWorkspace } from "../support/e2e-workspace.ts";
import { projectState, type StateOverrides } from "../support/fixtures.ts";
import { piLines } from "../support/pi-cli.ts";
import { hasTmux, TmuxPi } from "../support/tmux-pi.ts";
import { PI_START_TIMEOUT_MS, waitFor } from "../support/wait-for.ts";

const tmux = hasTmux();
const now = () => Date.now() / 1000;

describe.skipIf(!tmux)("interactive TUI in tmux (skipped without tmux)", () => {
	describe.each(piLines())("the real $name", (line) => {
		const ws = useE2eWorkspace();
		const start = (width = 80, height = 24) =>
			ws.stopLater(
				TmuxPi.start(line, { cwd: ws.project, agentDir: ws.agentDir, stateDir: ws.stateDir, width, height }),
			);
		const state = (name: string, overrides: StateOverrides = {}) => projectState(ws.project, overrides, name);

		test.skipIf(!line.node)("the widget shows below the editor and follows the editor", async () => {
			const nvim = ws.editor();
			nvim.write(state("main.ts"));
			const tui = start();
			await waitFor("widget below the editor", () => tui.belowEditor() === "in main.ts", 30_000, 50);
			nvim.write(state("other.ts"));
			await waitFor("widget follows", () => tui.belowEditor() === "in other.ts", 5000, 50);
		});

		test.skipIf(!line.node)(
			"the transcript shows one dim line after the prompt; ctrl+o expands it to the exact text; 36 columns survive",
			async () => {
				const nvim = ws.editor();
				const longName = `${"very-long-file-name-".repeat(4)}main.ts`;
				nvim.write(
					state(longName, {
						buffer: {
							cursor: { line: 4, column: 1 },
							selection: {
								start: { line: 2, column: 1 },
								end: { line: 4, column: 5 },
								text: "alpha\nbeta\ngamma",
								selected_at: now(),
							},
						},
					}),
				);
				const tui = start(36, 40);
				await waitFor("widget", () => tui.belowEditor()?.startsWith("3 lines selected"), 30_000, 50);
				await tui.submit("explain");
				const summary = `editor: src/${longName} line 4, 3 lines selected`;
				const collapsed = await tui.waitForScreen("summary line", (screen) => screen.includes("editor: src/very-long"));
				const lines = collapsed.split("\n");
				const promptRow = lines.findIndex((row) => row.includes("explain"));
				const summaryRow = lines.findIndex((row) => row.includes("editor: src/very-long"));
				expect(promptRow).toBeGreaterThanOrEqual(0);
				expect(summaryRow).toBeGreaterThan(promptRow);
				// One line, cut to the terminal's width, never wrapped; the text itself is not shown collapsed.
				expect(visibleWidth(lines[summaryRow] ?? "")).toBeLessThanOrEqual(36);
				expect(summary.startsWith((lines[summaryRow] ?? "").trim().replace(/\.\.\.$|…$/, ""))).toBe(true);
				expect(collapsed).not.toContain("gamma");
				tui.press("C-o");
				const expanded = await tui.waitForScreen("expanded text", (screen) => screen.includes("gamma"));
				for (const row of ["<editor-context>", "alpha", "beta", "gamma", "</editor-context>"])
					expect(expanded).toContain(row);
				for (const row of expanded.split("\n")) expect(visibleWidth(row)).toBeLessThanOrEqual(36);
				expect(tui.isRunning()).toBe(true);
			},
		);

		test.skipIf(!line.node)("a 200-character name on a 40-column terminal is cut and pi keeps running", async () => {
			const nvim = ws.editor();
			const name = `${"n".repeat(196)}.ts`;
			nvim.write(state(name));
			const tui = start(40, 20);
			const widget = await waitFor(
				"truncated widget",
				() => {
					const below = tui.belowEditor();
					return below?.startsWith("in nnn") ? below : undefined;
				},
				20_000,
				50,
			);
			expect(widget.trimEnd()).toBe(`in ${"n".repeat(34)}...`);
			expect(visibleWidth(widget)).toBeLessThanOrEqual(40);
			nvim.write(
				state(name, {
					buffer: {
						selection: { start: { line: 1, column: 1 }, end: { line: 9, column: 1 }, text: "x", selected_at: now() },
					},
				}),
			);
			await waitFor("still rendering", () => tui.belowEditor()?.startsWith("9 lines selected in nnn"), 5000, 50);
			expect(tui.isRunning()).toBe(true);
		});

		test.skipIf(!line.node)(
			"/ide: picker with the current editor marked; Down+Enter switches; Esc cancels",
			async () => {
				const older = ws.editor();
				const newer = ws.editor();
				older.write(state("older.ts", { timestamp: now() - 120, argv: ["older/"] }));
				newer.write(state("newer.ts", { argv: ["newer/"] }));
				const tui = start(100, 30);
				await tui.waitForScreen("pi ready", (screen) => screen.includes("/128k"), PI_START_TIMEOUT_MS);
				expect(tui.belowEditor()?.trim()).not.toMatch(/^in /); // a tie: nobody connected yet

				await tui.submit("/ide");
				await tui.waitForScreen("picker", (screen) => screen.includes("Connect pi to an editor"));
				tui.press("Enter"); // first row: the newest editor
				await waitFor("connected to the newest", () => tui.belowEditor() === "in newer.ts", 5000, 50);

				await tui.submit("/ide");
				const picker = await tui.waitForScreen("picker with a marked row", (screen) =>
					screen.includes(`* nvim ${newer.pid}`),
				);
				expect(picker).toMatch(new RegExp(`→ \\* nvim ${newer.pid}  newer/`));
				expect(picker).toMatch(new RegExp(`  nvim ${older.pid}  older/ +older\\.ts, active 2m ago`));
				expect(picker).toContain("Disconnect");
				tui.press("Down");
				tui.press("Enter");
				await waitFor("switched", () => tui.belowEditor() === "in older.ts", 5000, 50);

				await tui.submit("/ide");
				await tui.waitForScreen("picker again", (screen) => screen.includes(`→ * nvim ${older.pid}`));
				tui.press("Escape");
				await tui.waitForScreen("picker closed", (screen) => !screen.includes("Connect pi to an editor"));
				expect(tui.belowEditor()).toBe("in older.ts");
				expect(tui.isRunning()).toBe(true);
			},
		);

		test.skipIf(!line.node)(
			"after /new and /reload the same editor is still connected and no watcher is left behind",
			async () => {
				const a = ws.editor();
				const b = ws.editor();
				a.write(state("a.ts", { timestamp: now() - 60 }));
				b.write(state("b.ts"));
				// Tall enough for the whole of /ide status (its Connected line is read off the screen below).
				const tui = start(100, 60);
				await tui.waitForScreen("pi ready", (screen) => screen.includes("/128k"), PI_START_TIMEOUT_MS);
				await tui.submit("/ide");
				await tui.waitForScreen("picker", (screen) => screen.includes("Connect pi to an editor"));
				tui.press("Down", "Enter"); // the older one, so only the sticky memory explains keeping it
				await waitFor("connected to a", () => tui.belowEditor() === "in a.ts", 5000, 50);
				const baseline = tui.handles();
				expect(baseline.inotifyWatches).toBeGreaterThan(0);

				// Each replacement is waited for by what pi itself prints, so the commands do not overlap.
				for (const [command, done] of [
					["/new", "New session started"],
					["/reload", "Reloaded"],
					["/new", "New session started"],
				] as const) {
					await tui.submit(command);
					await tui.waitForScreen(`${command} done`, (screen) => screen.includes(done));
					await waitFor(`${command}: widget back`, () => tui.belowEditor() === "in a.ts", 30_000, 50);
				}
				// The extension's own count of watchers and timers open in this process must come back to one of
				// each; ask until the latest status says so (a leak never would).
				const latest = (prefix: string) =>
					tui
						.lines()
						.filter((line) => line.trim().startsWith(prefix))
						.at(-1)
						?.trim();
				await waitFor(
					"one watcher and one timer",
					async () => {
						await tui.submit("/ide status");
						await tui.waitForScreen("status", (screen) => screen.includes("Open in this process:"), 5000);
						return latest("Open in this process:")?.startsWith(
							"Open in this process: 1 watcher(s), 1 liveness timer(s)",
						);
					},
					10_000,
					200,
				);
				expect(latest("Connected:")).toBe(`Connected: nvim ${a.pid}: picked with /ide`);
				await waitFor(
					"handles back to the baseline",
					() => {
						const after = tui.handles();
						return after.inotifyWatches === baseline.inotifyWatches && after.fds === baseline.fds ? after : undefined;
					},
					5000,
					100,
				);
			},
		);
	});
});
