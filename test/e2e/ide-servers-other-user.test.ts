/**
 * pi as a user who is not root (`nobody`, through setpriv), asking about an IDE server's port: the port of a
 * process of another user (this test, root) is never spoken to, and pi says why. `/proc/net/tcp` names the
 * other user's uid; `lsof`, run by a user, sees only that user's processes, so the owner is unknown, and an
 * unknown owner is no owner. A listener of pi's own user is proven on both backends.
 */
import { spawn, spawnSync } from "node:child_process";
import { chmodSync, chownSync, mkdirSync, readdirSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, test } from "vitest";
import { useE2eWorkspace } from "../support/e2e-workspace.ts";
import { writeIdeLockfile } from "../support/fake-ide-lockfile.ts";
import { claudeLockDir, idePiEnv, startIdeServer } from "../support/ide-server-e2e.ts";
import { PACKAGE_ROOT, type PiLine, piLines } from "../support/pi-cli.ts";
import { RpcPi } from "../support/rpc-pi.ts";
import { PI_START_TIMEOUT_MS, waitFor } from "../support/wait-for.ts";

const NOBODY = 65534;
const [pi073] = piLines() as [PiLine];
const skipReason =
	(process.getuid?.() ?? -1) !== 0
		? "runs pi as another user: needs root"
		: spawnSync("sh", ["-c", "command -v setpriv"]).status !== 0
			? "setpriv is not installed (util-linux)"
			: undefined;
if (skipReason !== undefined) {
	if (process.env.CI === "true") throw new Error(`CI=true and pi as another user cannot run: ${skipReason}`);
	process.stderr.write(`the IDE-server test as another user skipped: ${skipReason}\n`);
}
const AS_NOBODY = ["setpriv", `--reuid=${NOBODY}`, `--regid=${NOBODY}`, "--clear-groups", "--"];

/**
 * nobody must reach the package pi loads: a clone in a fresh temp dir (0700, as `mktemp -d` makes) is closed to
 * other users. Each dir above it gets the search bit for others (never read) until the test ends.
 */
function traversableByOthers(path: string): () => void {
	const changed: { dir: string; mode: number }[] = [];
	for (let dir = path; ; dir = dirname(dir)) {
		const mode = statSync(dir).mode & 0o7777;
		if ((mode & 0o001) === 0) {
			chmodSync(dir, mode | 0o001);
			changed.push({ dir, mode });
		}
		if (dirname(dir) === dir) break;
	}
	return () => {
		for (const { dir, mode } of changed) chmodSync(dir, mode);
	};
}

/** Every file under `path` handed to nobody, as a user's own home and project would be. */
function giveToNobody(path: string): void {
	chownSync(path, NOBODY, NOBODY);
	if (!statSync(path).isDirectory()) return;
	for (const name of readdirSync(path)) giveToNobody(join(path, name));
}

describe.skipIf(skipReason !== undefined).each(["proc", "ps"])("pi as nobody, process facts: %s", (backend) => {
	const ws = useE2eWorkspace();

	test("another user's port is never spoken to, and /ide status says why; its own user's port is proven", async () => {
		const env = idePiEnv(ws);
		// The root user's IDE server, its lockfile in nobody's lock dir (as if a root process wrote it there).
		const rootServer = await startIdeServer(ws, "vscode");
		// nobody's own listener, with a lockfile naming it.
		const own = spawn(
			AS_NOBODY[0] as string,
			[
				...AS_NOBODY.slice(1),
				process.execPath,
				"-e",
				"const s = require('node:net').createServer(() => {}); s.listen(0, '127.0.0.1', () => console.log(s.address().port));",
			],
			{ stdio: ["ignore", "pipe", "inherit"] },
		);
		ws.defer(() => own.kill("SIGKILL"));
		const ownPort = await new Promise<number>((resolve) =>
			own.stdout?.once("data", (data) => resolve(Number(String(data)))),
		);
		writeIdeLockfile(claudeLockDir(ws), ownPort, {
			pid: own.pid as number,
			workspaceFolders: [ws.project],
			ideName: "Visual Studio Code",
			token: "token-of-nobodys-editor-0123456789",
			runningInWindows: false,
		});
		mkdirSync(join(ws.root, "tmp"), { recursive: true });
		giveToNobody(ws.root);
		ws.defer(traversableByOthers(PACKAGE_ROOT));

		const rpc = ws.stopLater(
			RpcPi.start(pi073, {
				cwd: ws.project,
				agentDir: ws.agentDir,
				stateDir: ws.stateDir,
				env: { ...env, HOME: join(ws.root, "home"), PI_IDE_PROCESS_FACTS: backend },
				wrapper: AS_NOBODY,
			}),
		);
		const status = await waitFor(
			"both lockfiles judged",
			async () => {
				const text = (await rpc.ideStatus()).join("\n");
				return text.includes(`${rootServer.port}.lock (Visual Studio Code): `) && text.includes(`holds port ${ownPort}`)
					? text
					: undefined;
			},
			PI_START_TIMEOUT_MS,
		);
		expect(status).toContain(`${ownPort}.lock (Visual Studio Code): pid ${own.pid} holds port ${ownPort}`);
		const rootLine = `${rootServer.port}.lock (Visual Studio Code): not used: `;
		expect(status).toContain(
			backend === "ps"
				? `${rootLine}owner of port ${rootServer.port} unknown: lsof shows no process of yours listening (another user's is invisible without root)`
				: `${rootLine}port ${rootServer.port} is listened on by uid 0`,
		);
		if (backend === "ps")
			expect(status).toMatch(/^ {2}unknown: owner of port \d+ unknown: lsof shows no process of yours/m);
		expect(status).toContain("IDE servers: 1 of 2 lockfiles usable");
		// Nothing was ever sent to root's server: no upgrade reached it.
		expect(rootServer.upgrades).toHaveLength(0);
	}, 90_000);
});
