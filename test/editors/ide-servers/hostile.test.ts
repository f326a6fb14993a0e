import { spawn, spawnSync } from "node:child_process";
import {
	chmodSync,
	chownSync,
	mkdirSync,
	readFileSync,
	renameSync,
	statSync,
	symlinkSync,
	utimesSync,
	writeFileSync,
} from "node:fs";
import { connect, createServer } from "node:net";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { McpSocket } from "../../../src/editors/ide-servers/mcp-socket.ts";
import type { IdeServerSource } from "../../../src/editors/ide-servers/source.ts";
import { systemClock } from "../../../src/shared/clock.ts";
import { writeIdeLockfile } from "../../support/fake-ide-lockfile.ts";
import type { FakeIdeServer } from "../../support/fake-ide-server.ts";
import { canRunAsNobody, startFakeIdeServerAs } from "../../support/fake-ide-server-child.ts";
import { testProcessFacts } from "../../support/process-facts.ts";
import { lockOf, SourceHarness } from "./source-harness.ts";

/**
 * Lockfiles and lock dirs pi must not trust, and ports it must not speak to: each a reason in the report, none
 * a crash or a hang, and the server behind them never connected to, even when its key is picked.
 */

const KEY = SourceHarness.KEY;
const NOBODY = 65_534;
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

let h: SourceHarness;
beforeEach(() => {
	h = new SourceHarness();
});
afterEach(() => h.close());

/** The fake's lockfile as VS Code writes it, with `changes`; its path. */
function writeLock(server: FakeIdeServer, changes: { pid?: number | null; port?: number } = {}): string {
	return writeIdeLockfile(h.lockDir("claude"), changes.port ?? server.port, {
		pid: changes.pid === undefined ? process.pid : changes.pid,
		workspaceFolders: [h.project],
		ideName: "Visual Studio Code",
		token: server.token,
		runningInWindows: true,
	});
}

/** Picked anyway (its key connected and followed): nothing starts, nothing reaches the server. */
async function neverConnected(source: IdeServerSource, server: FakeIdeServer, key = KEY): Promise<void> {
	h.connected = key;
	source.follow();
	expect(source.isPending(key)).toBe(false);
	await source.lookAgain();
	source.follow();
	await sleep(50);
	expect(server.upgrades).toEqual([]);
	expect(source.editors()).toEqual([]);
	expect(source.facts(key)).toBeUndefined();
}

/** A process that ran and exited: its pid names nothing now. */
const deadPid = () => spawnSync(process.execPath, ["-e", ""]).pid;

/** A free port: bound, then let go. */
async function freePort(): Promise<number> {
	const server = createServer();
	await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
	const { port } = server.address() as { port: number };
	await new Promise((done) => server.close(done));
	return port;
}

describe("lockfiles that are not used", () => {
	const cases: [string, (server: FakeIdeServer) => Promise<string> | string][] = [
		[
			"a symlink to a lockfile elsewhere",
			(server) => {
				const elsewhere = join(h.home, "elsewhere");
				mkdirSync(elsewhere);
				const real = join(elsewhere, "real.lock");
				renameSync(writeLock(server), real);
				symlinkSync(real, join(h.lockDir("claude"), `${server.port}.lock`));
				return "a symlink, not a regular file";
			},
		],
		[
			"a fifo named like a lockfile (a reader that blocks on it would hang)",
			(server) => {
				mkdirSync(h.lockDir("claude"), { recursive: true, mode: 0o700 });
				spawnSync("mkfifo", ["-m", "0644", join(h.lockDir("claude"), `${server.port}.lock`)]);
				return "a fifo, not a regular file";
			},
		],
		[
			"a group-writable lockfile",
			(server) => {
				chmodSync(writeLock(server), 0o664);
				return "writable by group or others (mode 0664)";
			},
		],
		[
			"a lockfile of another user",
			(server) => {
				chownSync(writeLock(server), NOBODY, NOBODY);
				return `owned by uid ${NOBODY}, not by you (uid 0)`;
			},
		],
		[
			"bad JSON",
			(server) => {
				writeFileSync(writeLock(server), '{"pid": 1, "workspaceFolders": [');
				return "not JSON (a legacy lockfile, or a torn write)";
			},
		],
		[
			"a 5 MB lockfile",
			(server) => {
				const path = writeLock(server);
				const json = JSON.parse(readFileSync(path, "utf8"));
				writeFileSync(path, JSON.stringify({ ...json, padding: "x".repeat(5 * 1024 * 1024) }));
				return `${statSync(path).size} bytes, over the 65536-byte limit for a lockfile`;
			},
		],
		[
			"a lockfile whose pid is dead",
			(server) => {
				const pid = deadPid();
				writeLock(server, { pid });
				return `dead pid ${pid} (a lockfile left behind)`;
			},
		],
		[
			"a reused pid: a process started after the lockfile was written",
			(server) => {
				const later = spawn("sleep", ["30"], { stdio: "ignore" });
				h.scope.defer(() => later.kill("SIGKILL"));
				const path = writeLock(server, { pid: later.pid ?? null });
				const anHourAgo = Date.now() / 1000 - 3600;
				utimesSync(path, anHourAgo, anHourAgo);
				return `pid ${later.pid} was reused (it started after the lockfile was written)`;
			},
		],
		[
			"a lockfile naming a port nothing listens on",
			async (server) => {
				const port = await freePort();
				writeLock(server, { port });
				return `nothing listens on port ${port} (a stale lockfile)`;
			},
		],
	];

	test.each(cases)("%s: its reason, and never connected", async (_name, prepare) => {
		const server = await h.server("vscode", { writeLockfile: false });
		const reason = await prepare(server);
		const source = await h.source({ mode: "auto" });
		expect(source.report().locks).toHaveLength(1);
		expect(lockOf(source)?.unused).toBe(reason);
		expect(lockOf(source)?.guard).toBe("unknown until connected");
		await neverConnected(source, server);
	});
});

describe("lock dirs that are not read", () => {
	const cases: [string, () => string][] = [
		[
			"a dir writable by everyone (0777)",
			() => {
				chmodSync(h.lockDir("claude"), 0o777);
				return `writable by group or others (mode 0777); run: chmod 755 ${h.lockDir("claude")}`;
			},
		],
		[
			"a dir of another user",
			() => {
				chownSync(h.lockDir("claude"), NOBODY, NOBODY);
				return `owned by uid ${NOBODY}, not by you (uid 0)`;
			},
		],
		[
			"a symlink to a dir",
			() => {
				const real = join(h.home, "real-ide");
				renameSync(h.lockDir("claude"), real);
				symlinkSync(real, h.lockDir("claude"));
				return `${h.lockDir("claude")} is a symlink: not read`;
			},
		],
	];

	test.each(cases)("%s: its verdict, its lockfiles never read", async (_name, prepare) => {
		const server = await h.server("vscode");
		const verdict = prepare();
		const source = await h.source({ mode: "auto" });
		expect(source.report().dirs[0]).toMatchObject({ path: h.lockDir("claude"), verdict });
		expect(source.report().locks).toEqual([]);
		await neverConnected(source, server);
	});
});

/** Sockets of this machine connected, connecting or lately closed to `port`: what any attempt would leave. */
function connectionsTo(port: number): number {
	let found = 0;
	for (const table of ["/proc/net/tcp", "/proc/net/tcp6"]) {
		const lines = readFileSync(table, "utf8").trim().split("\n").slice(1);
		for (const line of lines) {
			const [, , remote, state] = line.trim().split(/\s+/);
			const remotePort = Number.parseInt(remote?.split(":")[1] ?? "", 16);
			if (remotePort === port && state !== "0A") found++;
		}
	}
	return found;
}

describe.skipIf(!canRunAsNobody())("a port held by another user", () => {
	test("its reason names the uid; never connected, even when picked", async () => {
		const child = await startFakeIdeServerAs("nobody", {
			flavour: "vscode",
			lockDir: h.lockDir("claude"),
			workspaceFolders: [h.project],
		});
		h.scope.defer(() => child.stop());
		const source = await h.source({ mode: "auto" });
		expect(lockOf(source)).toMatchObject({
			port: child.port,
			unused: `port ${child.port} is listened on by uid ${NOBODY}`,
		});
		expect(lockOf(source)?.holderPid).toBeUndefined();
		for (const key of [KEY, `pid:${child.pid}`]) {
			h.connected = key;
			source.follow();
			expect(source.isPending(key)).toBe(false);
		}
		await source.lookAgain();
		source.follow();
		await sleep(100);
		expect(connectionsTo(child.port)).toBe(0);
		expect(source.editors()).toEqual([]);
		expect(JSON.stringify(source.report())).not.toContain(child.token ?? "no token");
		// The count sees a connection when there is one.
		const probe = connect({ host: "127.0.0.1", port: child.port });
		h.scope.defer(() => probe.destroy());
		await new Promise((done) => probe.once("connect", done));
		expect(connectionsTo(child.port)).toBeGreaterThan(0);
	});

	test("a port taken by another user after pi proved it: the connection's own owner is checked, nothing sent", async () => {
		const child = await startFakeIdeServerAs("nobody", {
			flavour: "vscode",
			lockDir: h.lockDir("claude"),
			workspaceFolders: [h.project],
			writeLockfile: false,
		});
		h.scope.defer(() => child.stop());
		// As if the lock dir had been read while this user's IDE still held the port: pi dials it now.
		const opened = await McpSocket.open({
			serverUidOf: (serverPort, clientPort) => testProcessFacts().connectionServerUid(serverPort, clientPort),
			port: child.port,
			headers: { "x-claude-code-ide-authorization": "the-users-token-0123456789" },
			subprotocol: true,
			timeoutMs: 2000,
			uid: process.getuid?.() ?? 0,
			clock: systemClock,
			onNotification: () => {},
		});
		expect(opened).toEqual({
			ok: false,
			reason: `port ${child.port} was listened on by uid ${NOBODY} when pi connected: nothing sent`,
		});
		expect(await child.upgradesSeen()).toBe(0);
	});
});
