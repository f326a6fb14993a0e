/**
 * `npm run screenshot`: the README's picture, taken from the real pi. A stand-in Neovim with a fresh
 * five-line selection, the real interactive pi 0.73 with this extension in a tmux pane, one prompt; the
 * pane (with its colours) becomes `docs/screenshot.svg`, whose text stays text. Run it again when the UI changes.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { FakeEditor } from "../support/fake-editor.ts";
import { type ChatRequest, messageText, startFakeModelServer } from "../support/fake-model-server.ts";
import { FAKE_MODEL, FAKE_PROVIDER, PACKAGE_ROOT, piLines, writeAgentDir } from "../support/pi-cli.ts";
import { tempDir } from "../support/temp-dir.ts";
import { hasTmux, TmuxPi } from "../support/tmux-pi.ts";
import { ansiScreenToSvg } from "./ansi-svg.ts";
import { MAIN_TS, writeSampleProject } from "./sample-project.ts";

const COLUMNS = 88;
const ROWS = 16;
const PROMPT = "what does the selected code do?";
const OUTPUT = join(PACKAGE_ROOT, "docs", "screenshot.svg");

/** A one-line answer that names what came with the prompt, read from the request itself. */
function answerFromContext(request: ChatRequest): string {
	const block = request.messages.map(messageText).findLast((text) => text.startsWith("<editor-context>")) ?? "";
	const file = /^File: .*\/([^/\n]+)$/m.exec(block)?.[1];
	const range = /^Selection: (lines? [\d-]+)/m.exec(block)?.[1];
	if (!file) return "No editor context came with that prompt.";
	return `summarize() in ${file}, ${range ?? "no selection"}: it totals the orders and formats the sum.`;
}

async function main(): Promise<void> {
	if (!hasTmux()) throw new Error("npm run screenshot needs tmux");
	const [line] = piLines();
	if (!line?.node) throw new Error("no runnable pi 0.73 in node_modules; run npm install first");
	const tmp = tempDir("pi-ide-screenshot");
	const project = join(tmp.path, "orders");
	const stateDir = join(tmp.path, "state");
	const agentDir = join(tmp.path, "agent");
	writeSampleProject(project);
	mkdirSync(stateDir, { mode: 0o700 });
	const server = await startFakeModelServer(answerFromContext);
	writeAgentDir(agentDir, server.baseUrl, { quietStartup: true });
	const editor = FakeEditor.spawn(stateDir);
	const lines = MAIN_TS.split("\n");
	const selectedAt = Date.now() / 1000;
	editor.write({
		cwd: project,
		timestamp: selectedAt,
		app: "nvim",
		argv: ["src/main.ts"],
		active_buffer: {
			file: join(project, "src", "main.ts"),
			name: "main.ts",
			language: "typescript",
			cursor: { line: 16, column: 1 },
			modified: false,
			lines_total: lines.length,
			selection: {
				start: { line: 12, column: 1 },
				end: { line: 16, column: 1 },
				text: lines.slice(11, 16).join("\n"),
				selected_at: selectedAt,
			},
		},
	});
	// HOME is the temp dir so pi's footer shows `~/orders`; extended keys on, so pi has nothing to warn about.
	const tui = TmuxPi.run(
		[line.node, line.cli, "--provider", FAKE_PROVIDER, "--model", FAKE_MODEL, "--no-session", "-e", PACKAGE_ROOT],
		{
			cwd: project,
			width: COLUMNS,
			height: ROWS,
			env: { HOME: tmp.path, PI_CODING_AGENT_DIR: agentDir, PI_IDE_STATE_DIR: stateDir },
			serverOptions: [["extended-keys", "on"]],
		},
	);
	try {
		await tui.waitForScreen("the widget", (screen) => screen.includes("5 lines selected in main.ts"), 30_000);
		await tui.submit(PROMPT);
		await tui.waitForScreen("the answer", (screen) => screen.includes("it totals the orders"), 30_000);
		await tui.waitForScreen("the widget again", (screen) => screen.includes("5 lines selected in main.ts"));
		// From the prompt down: above it pi prints start-up notes about this temp HOME (no fd, no ripgrep).
		const screen = tui.screenWithStyles().split("\n");
		const promptRow = tui.lines().findIndex((text) => text.includes(PROMPT));
		const svg = ansiScreenToSvg(
			screen.slice(Math.max(0, promptRow - 1)).join("\n"),
			COLUMNS,
			"pi with pi-ide-context: the transcript line under the prompt and the widget under the input",
		);
		mkdirSync(join(PACKAGE_ROOT, "docs"), { recursive: true });
		writeFileSync(OUTPUT, svg);
		process.stdout.write(`wrote ${OUTPUT}\n`);
	} finally {
		tui.stop();
		await editor.kill();
		await server.close();
		tmp.cleanup();
	}
}

await main();
process.exit(0);
