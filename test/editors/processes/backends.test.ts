import { type ChildProcess, spawn } from "node:child_process";
import { createConnection, type Socket } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { sameStart } from "../../../src/editors/processes/core/backend-choice.ts";
import { TEST_SCOPE_VARIABLE } from "../../../src/editors/processes/process-facts.ts";
import { testProcessFacts } from "../../support/process-facts.ts";
import { tempDir } from "../../support/temp-dir.ts";
import { waitFor } from "../../support/wait-for.ts";

/**
 * Both backends asked the same questions about one real process: a Node child listening on a unix socket and on
 * a loopback TCP port, started in a dir of its own with a scope in its environment. What the `ps` backend
 * answers must be what `/proc` answers (its launch arguments split at spaces, its start in whole seconds).
 */
const uid = process.getuid?.() ?? 0;
const SCOPE = `backends-${process.pid}`;
let dir: { path: string; cleanup: () => void };
let child: ChildProcess;
let tcpPort: number;
let socketPath: string;

beforeAll(async () => {
	dir = tempDir("process-facts");
	socketPath = join(dir.path, "editor.sock");
	const script = [
		"const net = require('node:net');",
		"net.createServer(() => {}).listen(process.argv[1], () => {",
		"  const tcp = net.createServer((socket) => socket.on('error', () => {}));",
		"  tcp.listen(0, '127.0.0.1', () => console.log(tcp.address().port));",
		"});",
	].join("\n");
	child = spawn(process.execPath, ["-e", script, socketPath], {
		cwd: dir.path,
		env: { ...process.env, [TEST_SCOPE_VARIABLE]: SCOPE, EDITOR_HOME: "/home/someone" },
		stdio: ["ignore", "pipe", "inherit"],
	});
	tcpPort = await new Promise((resolve) => child.stdout?.once("data", (data) => resolve(Number(String(data)))));
});

afterAll(() => {
	child.kill("SIGKILL");
	dir.cleanup();
});

describe.each(["proc", "ps"] as const)("the %s backend", (backend) => {
	const facts = testProcessFacts(backend);
	const pid = () => child.pid as number;
	const isNode = (name: string) => name === "node";

	test("named: this user's processes by kernel name, in the test scope when one is set", async () => {
		const scoped = await facts.named(isNode, uid, SCOPE);
		expect(scoped).toEqual([{ pid: pid(), name: "node", startSeconds: expect.any(Number) }]);
		expect(await facts.named(isNode, uid + 1, SCOPE)).toEqual([]);
		expect(await facts.named(isNode, uid, "another-scope")).toEqual([]);
		const all = await facts.named(isNode, uid, undefined);
		expect(typeof all !== "string" && all.map((found) => found.pid)).toContain(pid());
	});

	test("its binary, arguments, working dir and environment, asked with a pid that is gone: left out", async () => {
		const gone = spawn("true");
		await new Promise((done) => gone.once("exit", done));
		const pids = [pid(), gone.pid as number];
		expect(await facts.executables(pids)).toEqual(new Map([[pid(), process.execPath]]));
		const args = (await facts.launchArgs(pids, 64)).get(pid());
		expect(args?.[0]).toBe(process.execPath);
		expect(args?.at(-1)).toBe(socketPath);
		expect((await facts.launchArgs(pids, 2)).get(pid())).toHaveLength(2);
		expect(await facts.workingDirs(pids)).toEqual(new Map([[pid(), dir.path]]));
		expect(await facts.environments(pids, ["EDITOR_HOME", "NOT_SET"])).toEqual(
			new Map([[pid(), { EDITOR_HOME: "/home/someone" }]]),
		);
		expect(await facts.executables([])).toEqual(new Map());
	});

	test("its listening sockets: the unix path and the TCP port, proven as its own", async () => {
		const { byPid, heldTwice } = await facts.listeningUnixPaths([pid(), process.pid]);
		expect(byPid.get(pid())).toEqual([socketPath]);
		expect(heldTwice.has(socketPath)).toBe(false);
		expect(await facts.listeningTcpPorts(pid())).toEqual([tcpPort]);
		expect(await facts.portHolder(tcpPort, pid(), uid)).toEqual({ pid: pid(), startSeconds: expect.any(Number) });
		expect(await facts.portHolder(tcpPort, undefined, uid)).toEqual({ pid: pid(), startSeconds: expect.any(Number) });
		expect(await facts.stillHeldBy(tcpPort, pid(), uid)).toBeUndefined();
		expect(await facts.stillHeldBy(tcpPort, process.pid, uid)).toBe(
			`pid ${process.pid} no longer holds port ${tcpPort}`,
		);
	});

	test("an impostor bound at its path after unlinking its file: held twice, counted across every process", async () => {
		const path = join(dir.path, `shared-${backend}.sock`);
		const listen = (unlinkFirst: boolean) =>
			spawn(
				process.execPath,
				[
					"-e",
					`const fs = require("node:fs"); if (${unlinkFirst}) fs.rmSync(process.argv[1], { force: true });
					require("node:net").createServer().listen(process.argv[1], () => console.log("up"));`,
					path,
				],
				{ stdio: ["ignore", "pipe", "inherit"] },
			);
		const up = (listener: ChildProcess) => new Promise((resolve) => listener.stdout?.once("data", resolve));
		const editor = listen(false);
		await up(editor);
		const impostor = listen(true);
		await up(impostor);
		try {
			const pids = [editor.pid as number];
			const across = await facts.listeningUnixPaths(pids, true);
			expect(across.byPid.get(editor.pid as number)).toEqual([path]);
			expect([...across.heldTwice]).toEqual([path]);
			// Asked of its own pids only, `lsof` cannot see the other binding; `/proc/net/unix` lists every socket.
			const own = await facts.listeningUnixPaths(pids);
			expect(own.heldTwice.has(path)).toBe(backend === "proc");
		} finally {
			editor.kill("SIGKILL");
			impostor.kill("SIGKILL");
		}
	});

	test("the server end of a connection made to it belongs to its user", async () => {
		const socket = await new Promise<Socket>((resolve) => {
			const made = createConnection({ host: "127.0.0.1", port: tcpPort }, () => resolve(made));
		});
		try {
			expect(await facts.connectionServerUid(tcpPort, socket.localPort as number)).toBe(uid);
		} finally {
			socket.destroy();
		}
	});

	test("its start, its ancestors, and whether it runs", async () => {
		const start = await facts.startOf(pid());
		expect(start).toBeGreaterThan(Date.now() / 1000 - 3600);
		expect(start).toBeLessThanOrEqual(Date.now() / 1000);
		await facts.learnStarts([pid()]);
		expect(facts.knownStart(pid())).toBe(start);
		expect(facts.runsNow(pid(), start)).toBe(true);
		expect(facts.runsNow(pid(), (start as number) + 100)).toBe(false);
		expect((await facts.ancestors(pid()))[0]).toBe(process.pid);
		expect(facts.status()).toMatchObject({ backend, unknown: [] });
	});
});

test("both backends give one process one start (whole seconds), and a dead pid none", async () => {
	const [proc, ps] = [testProcessFacts("proc"), testProcessFacts("ps")];
	const [a, b] = await Promise.all([proc.startOf(child.pid as number), ps.startOf(child.pid as number)]);
	expect(sameStart(a as number, b as number)).toBe(true);
	const gone = spawn("true");
	await new Promise((done) => gone.once("exit", done));
	await waitFor(
		"the exited child reaped",
		async () => (await ps.startOf(gone.pid as number)) === undefined || undefined,
	);
	expect(await proc.startOf(gone.pid as number)).toBeUndefined();
	expect(proc.runsNow(gone.pid as number)).toBe(false);
	expect(ps.runsNow(gone.pid as number)).toBe(false);
});
