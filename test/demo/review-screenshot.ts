/**
 * `npm run screenshot`'s second picture: a change under review, taken from the real programs. One tmux window
 * split in two: a real Neovim (`nvim --clean`) on the sample project, the real interactive pi 0.73 with this
 * extension beside it, review on from its settings. An offline model makes a small edit of src/main.ts; pi shows
 * it in Neovim's tab page of its own (the file as on disk beside the proposal, in diff mode) and asks in its
 * select at the same moment. Both panes (with their colours) become `docs/screenshot-review.svg`, text as text.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type ChatRequest, startFakeModelServer, type ToolCallReply } from "../support/fake-model-server.ts";
import { FAKE_MODEL, FAKE_PROVIDER, PACKAGE_ROOT, piLines, writeAgentDir } from "../support/pi-cli.ts";
import { neovimOnPath } from "../support/real-neovim.ts";
import { tempDir } from "../support/temp-dir.ts";
import { hasTmux } from "../support/tmux-pi.ts";
import { waitFor } from "../support/wait-for.ts";
import { ansiScreenToSvg, sideBySide } from "./ansi-svg.ts";
import { writeSampleProject } from "./sample-project.ts";

/** Neovim's pane, the border, pi's pane: about 170 columns in all, each diff side wide enough for the code. */
const NEOVIM_COLUMNS = 100;
const PI_COLUMNS = 67;
const ROWS = 30;
const PROMPT = 'summarize() should say "no orders" when there are none';
const OUTPUT = join(PACKAGE_ROOT, "docs", "screenshot-review.svg");
/** Only the Neovim started here is seen by this pi (a test-only variable): never the user's own. */
const SCOPE = `pi-ide-screenshot-${process.pid}`;

/** The offline model's answer to the prompt: one edit of summarize(), two lines changed, one of them new. */
function reviewedEdit(file: string): (request: ChatRequest) => string | ToolCallReply {
	return (request) =>
		request.messages.at(-1)?.role === "tool"
			? 'summarize() now returns "no orders" for an empty list.'
			: {
					toolCall: {
						name: "edit",
						arguments: {
							path: file,
							edits: [
								{
									oldText: "\tconst count = orders.length;\n",
									newText: '\tconst count = orders.length;\n\tif (count === 0) return "no orders";\n',
								},
								{
									oldText: "\tconst average = count === 0 ? 0 : revenue / count;",
									newText: "\tconst average = revenue / count;",
								},
							],
						},
					},
				};
}

const quote = (arg: string) => `'${arg.replaceAll("'", "'\\''")}'`;
const commandLine = (env: Record<string, string>, command: string[]) =>
	`exec env -u NVIM ${Object.entries(env)
		.map(([key, value]) => `${key}=${quote(value)}`)
		.join(" ")} ${command.map(quote).join(" ")}`;

async function main(): Promise<void> {
	if (!hasTmux()) throw new Error("npm run screenshot needs tmux");
	const neovim = neovimOnPath();
	if (!neovim.version) throw new Error(`npm run screenshot needs Neovim: ${neovim.skipReason}`);
	const [line] = piLines();
	if (!line?.node) throw new Error("no runnable pi 0.73 in node_modules; run npm install first");
	const tmp = tempDir("pi-ide-review-screenshot");
	const project = join(tmp.path, "orders");
	const stateDir = join(tmp.path, "state");
	const agentDir = join(tmp.path, "agent");
	const runtime = join(tmp.path, "tmp");
	writeSampleProject(project);
	mkdirSync(stateDir, { mode: 0o700 });
	mkdirSync(runtime);
	const server = await startFakeModelServer(reviewedEdit(join(project, "src", "main.ts")));
	writeAgentDir(agentDir, server.baseUrl, { quietStartup: true, "pi-ide": { review: true } });
	// Neovim's 0.7 server socket lands in its TMPDIR, where this pi looks (and nowhere else: no XDG_RUNTIME_DIR);
	// HOME is the temp dir for both: pi's footer shows `~/orders`, Neovim's swap file goes with the rest.
	const shared = { HOME: tmp.path, TMPDIR: runtime, TERM: "xterm-256color", PI_IDE_TEST_PROC_SCOPE: SCOPE };
	const socket = `pi-ide-review-screenshot-${process.pid}`;
	const tmux = (...args: string[]) => execFileSync("tmux", ["-L", socket, ...args], { encoding: "utf8" });
	// Both panes at their final size before either program starts: a Neovim resized while it draws its first
	// screen (a split after it started) can leave a screen drawn for the old width in its pane.
	const placeholder = "exec sleep 600";
	tmux(
		"-f",
		"/dev/null",
		"new-session",
		"-d",
		"-s",
		"review",
		"-x",
		String(NEOVIM_COLUMNS + 1 + PI_COLUMNS),
		"-y",
		String(ROWS),
		placeholder,
	);
	try {
		tmux("set-option", "-g", "status", "off");
		tmux("set-option", "-g", "extended-keys", "on");
		const neovimPane = tmux("display-message", "-p", "-t", "review", "#{pane_id}").trim();
		const piPane = tmux(
			"split-window",
			"-h",
			"-P",
			"-F",
			"#{pane_id}",
			"-t",
			neovimPane,
			"-l",
			String(PI_COLUMNS),
			placeholder,
		).trim();
		const start = (pane: string, env: Record<string, string>, command: string[]) =>
			tmux("respawn-pane", "-k", "-t", pane, "-c", project, commandLine(env, command));
		const screen = (pane: string, styles = false) =>
			tmux("capture-pane", "-p", ...(styles ? ["-e", "-N"] : []), "-t", pane);
		const waitForPane = (what: string, pane: string, text: string) =>
			waitFor(what, () => screen(pane).includes(text), 30_000, 50);
		start(neovimPane, shared, ["nvim", "--clean", "src/main.ts"]);
		await waitForPane("Neovim showing src/main.ts", neovimPane, "summarize(orders");
		start(
			piPane,
			{
				...shared,
				XDG_RUNTIME_DIR: "",
				PI_CODING_AGENT_DIR: agentDir,
				PI_IDE_STATE_DIR: stateDir,
				PI_OFFLINE: "1",
				PI_SKIP_VERSION_CHECK: "1",
			},
			[line.node, line.cli, "--provider", FAKE_PROVIDER, "--model", FAKE_MODEL, "--no-session", "-e", PACKAGE_ROOT],
		);
		await waitForPane("pi connected to Neovim, review on", piPane, "in main.ts, review on");
		tmux("send-keys", "-t", piPane, "-l", PROMPT);
		await waitForPane("the prompt typed", piPane, PROMPT);
		tmux("send-keys", "-t", piPane, "Enter");
		await waitForPane("the diff in Neovim", neovimPane, "(proposed)");
		await waitForPane("pi's select", piPane, "Review: edit src/main.ts");
		await waitForPane("pi's select saying where the diff is", piPane, "Shown in Neovim");
		await waitForPane("pi's select taking keys", piPane, "enter choose");
		const svg = ansiScreenToSvg(
			sideBySide(
				[
					{ screen: screen(neovimPane, true), columns: NEOVIM_COLUMNS },
					{ screen: screen(piPane, true), columns: PI_COLUMNS },
				],
				"\u001b[0;38;5;240m│",
			),
			NEOVIM_COLUMNS + 1 + PI_COLUMNS,
			"A change under review: Neovim shows the file on disk beside the model's proposed edit, pi asks at the same moment",
		);
		mkdirSync(join(PACKAGE_ROOT, "docs"), { recursive: true });
		writeFileSync(OUTPUT, svg);
		process.stdout.write(`wrote ${OUTPUT}\n`);
	} finally {
		try {
			tmux("kill-server");
		} catch {
			// Already gone.
		}
		await server.close();
		tmp.cleanup();
	}
}

await main();
process.exit(0);
