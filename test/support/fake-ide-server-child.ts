import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { join } from "node:path";
import { defaultIdeToken, IdeLockfile } from "./fake-ide-lockfile.ts";
import type { FakeEditorState, FakeIdeServerOptions } from "./fake-ide-server.ts";
import { FLAVOURS } from "./ide-server-flavours.ts";
import { PACKAGE_ROOT } from "./pi-cli.ts";

/**
 * A fake IDE server whose port belongs to another user while its lockfile is this (root) user's own: what a
 * client sees when a lockfile in its directory points at someone else's server. The server runs in
 * fake-ide-server-runner.ts, which drops root itself after loading its modules (a child started as `nobody`
 * cannot read node_modules in a 0700 checkout); the lockfile is written here, by the parent.
 */

export interface FakeIdeServerAsOptions extends FakeIdeServerOptions {
	/** The editor's state in the child (it cannot be changed afterwards). */
	editor?: FakeEditorState;
}

export interface FakeIdeServerProcess {
	port: number;
	/** The child's pid: the port's owner, running as the other user. */
	pid: number;
	token: string | undefined;
	lockfilePath: string | undefined;
	/** Removes the lockfile, then stops the child and waits for it to exit. */
	stop(): Promise<void>;
	/** How many WebSocket upgrades the child's server has seen (asked over its stdin). */
	upgradesSeen(): Promise<number>;
}

const RUNNER = join(PACKAGE_ROOT, "test", "support", "fake-ide-server-runner.ts");
/** jiti compiles the fake and `ws` on first start; on two busy cores that took seconds. */
const START_TIMEOUT_MS = 30_000;

/** Whether this process can start a child as `nobody` (root, and the system lets it drop). */
export function canRunAsNobody(): boolean {
	if (process.getuid?.() !== 0) return false;
	try {
		execFileSync(process.execPath, ["-e", 'process.setgid("nogroup"); process.setuid("nobody")'], { stdio: "ignore" });
		return true;
	} catch {
		return false;
	}
}

export async function startFakeIdeServerAs(
	user: "nobody",
	options: FakeIdeServerAsOptions,
): Promise<FakeIdeServerProcess> {
	const { lockDir, writeLockfile, pid, ideName, ...serverOptions } = options;
	const token = options.token === undefined ? defaultIdeToken(options.flavour) : (options.token ?? undefined);
	const childOptions = { ...serverOptions, lockDir, token: token ?? null };
	const child = spawn(process.execPath, ["--import", "jiti/register", RUNNER, user, JSON.stringify(childOptions)], {
		cwd: PACKAGE_ROOT,
		stdio: ["pipe", "pipe", "pipe"],
	});
	const started = await firstLine(child);
	const lockfile = new IdeLockfile(lockDir, started.port, {
		pid: pid === undefined ? process.pid : pid,
		workspaceFolders: options.workspaceFolders,
		ideName: ideName ?? FLAVOURS[options.flavour].ideName,
		token,
		runningInWindows: FLAVOURS[options.flavour].writesRunningInWindows,
	});
	if (writeLockfile !== false) lockfile.write();
	return {
		...started,
		token,
		lockfilePath: lockfile.path,
		stop: async () => {
			lockfile.remove();
			await stopChild(child);
		},
		upgradesSeen: () => {
			const answer = new Promise<number>((done) => {
				let text = "";
				const read = (chunk: Buffer) => {
					text += chunk.toString();
					const end = text.indexOf("\n");
					if (end < 0) return;
					child.stdout?.off("data", read);
					done((JSON.parse(text.slice(0, end)) as { upgrades: number }).upgrades);
				};
				child.stdout?.on("data", read);
			});
			child.stdin?.write("upgrades\n");
			return answer;
		},
	};
}

/** The child's `{"port","pid"}` line; its stderr in the error when it exits or stalls first. */
function firstLine(child: ChildProcess): Promise<{ port: number; pid: number }> {
	let stdout = "";
	let stderr = "";
	child.stderr?.on("data", (chunk: Buffer) => {
		stderr += chunk.toString();
	});
	return new Promise((done, fail) => {
		const timer = setTimeout(() => {
			child.kill("SIGKILL");
			fail(new Error(`fake IDE server child printed no port in ${START_TIMEOUT_MS} ms: ${stderr}`));
		}, START_TIMEOUT_MS);
		child.once("exit", (code, signal) => {
			clearTimeout(timer);
			fail(new Error(`fake IDE server child exited (${code ?? signal}) before listening: ${stderr}`));
		});
		child.stdout?.on("data", (chunk: Buffer) => {
			stdout += chunk.toString();
			const end = stdout.indexOf("\n");
			if (end < 0) return;
			clearTimeout(timer);
			done(JSON.parse(stdout.slice(0, end)));
		});
	});
}

/** SIGTERM (the child stops its server and exits), SIGKILL if it is still there 5 s later. */
async function stopChild(child: ChildProcess): Promise<void> {
	if (child.exitCode !== null || child.signalCode !== null) return;
	const exited = new Promise<void>((done) => child.once("exit", () => done()));
	child.kill("SIGTERM");
	const killer = setTimeout(() => child.kill("SIGKILL"), 5000);
	await exited;
	clearTimeout(killer);
}
