/**
 * `npm run demo`: the whole product on a fresh clone, offline. A simulated editor writes protocol v0.2
 * state for a sample project, an offline echo model quotes back the editor block it receives, and the real
 * interactive pi (the devDependency) runs with this extension loaded. Everything lives in one temp dir and
 * stops when pi exits; the user's own state dir and pi settings are never touched.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startFakeModelServer } from "../support/fake-model-server.ts";
import { FAKE_MODEL, FAKE_PROVIDER, PACKAGE_ROOT, piLines, writeAgentDir } from "../support/pi-cli.ts";
import { echoReply } from "./echo-reply.ts";
import { writeSampleProject } from "./sample-project.ts";

const require = createRequire(import.meta.url);
// jiti's "register" export has no require condition; its file sits next to the package.json.
const JITI_REGISTER = join(require.resolve("jiti/package.json"), "..", "lib", "jiti-register.mjs");

async function main(): Promise<void> {
	const root = realpathSync(mkdtempSync(join(tmpdir(), "pi-ide-demo-")));
	const project = join(root, "orders");
	const stateDir = join(root, "state");
	const agentDir = join(root, "agent");
	writeSampleProject(project);
	mkdirSync(stateDir, { mode: 0o700 });
	const server = await startFakeModelServer(echoReply);
	writeAgentDir(agentDir, server.baseUrl, { quietStartup: true });

	const editor = spawn(
		process.execPath,
		["--import", JITI_REGISTER, join(import.meta.dirname, "simulated-editor.ts"), stateDir, project],
		{
			stdio: "ignore",
		},
	);
	const [line] = piLines(); // pi 0.73 runs on the Node that runs this script
	if (!line?.node) throw new Error("no runnable pi found in node_modules; run npm install first");

	process.stdout.write(
		[
			"pi-ide-context demo",
			`  project:          ${project}`,
			`  simulated editor: nvim, pid ${editor.pid} (moves its cursor, selects lines 10-14, switches files)`,
			"  model:            offline echo model, quotes back the editor context it receives",
			"",
			'Watch the line under pi\'s input. Ask anything ("what am I looking at?"); try /ide and /ide status.',
			"The selection goes stale 60 s after it is made. Quit pi with Ctrl+C twice or /quit.",
			"",
		].join("\n"),
	);

	const pi = spawn(
		line.node,
		[line.cli, "--provider", FAKE_PROVIDER, "--model", FAKE_MODEL, "--no-session", "-e", PACKAGE_ROOT],
		{
			cwd: project,
			stdio: "inherit",
			env: {
				...process.env,
				PI_CODING_AGENT_DIR: agentDir,
				PI_IDE_STATE_DIR: stateDir,
				PI_OFFLINE: "1",
				PI_SKIP_VERSION_CHECK: "1",
			},
		},
	);
	// Ctrl+C belongs to pi; the demo only cleans up after pi is gone.
	process.on("SIGINT", () => {});
	process.on("SIGTERM", () => pi.kill("SIGTERM"));
	const code = await new Promise<number>((done) => pi.once("exit", (exitCode) => done(exitCode ?? 0)));

	await stop(editor);
	await server.close();
	rmSync(root, { recursive: true, force: true });
	process.exit(code);
}

async function stop(child: ChildProcess): Promise<void> {
	if (child.exitCode !== null || child.signalCode !== null) return;
	const exited = new Promise<void>((done) => child.once("exit", () => done()));
	child.kill("SIGTERM");
	await exited;
}

await main();
