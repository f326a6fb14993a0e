import { spawn } from "node:child_process";
import { createServer, type Server } from "node:net";
import { afterEach, describe, expect, test } from "vitest";
import {
	ancestorsOf,
	cmdlineOf,
	commOf,
	cwdOf,
	descendantsOf,
	environOf,
	environValue,
	inTestScope,
	listeningTcpTable,
	ownerOf,
	processIds,
	procStatOf,
	socketInodesOf,
} from "../../../src/editors/processes/proc-files.ts";

/** The one module that reads `/proc`, on the real `/proc` of this machine and processes the test starts. */
describe("the reads of /proc", () => {
	const closers: (() => void)[] = [];
	afterEach(() => {
		for (const close of closers.splice(0)) close();
	});

	test("this process: listed, named, owned, its parent among its ancestors, its cwd and arguments", async () => {
		expect(processIds()).toContain(process.pid);
		expect(commOf(process.pid)).toBe(`${procStatOf(process.pid)?.name}\n`);
		expect(await ownerOf(process.pid)).toBe(process.getuid?.());
		expect(ancestorsOf(process.pid)[0]).toBe(process.ppid);
		expect(ancestorsOf(process.pid)).toContain(1);
		expect(await cwdOf(process.pid)).toBe(process.cwd());
		expect((await cmdlineOf(process.pid, 64))?.[0]).toBe(process.execPath);
	});

	test("a child started with a variable: a descendant, in scope by that variable, its environment read", async () => {
		const child = spawn("sleep", ["30"], {
			stdio: "ignore",
			env: { ...process.env, PI_IDE_TEST_PROC_SCOPE: "scope-x" },
		});
		closers.push(() => child.kill("SIGKILL"));
		const pid = child.pid as number;
		expect(descendantsOf(process.pid)).toContain(pid);
		expect(await inTestScope(pid, "scope-x")).toBe(true);
		expect(await inTestScope(pid, "another")).toBe(false);
		const environ = await environOf(pid);
		expect(environ && environValue(environ, "PI_IDE_TEST_PROC_SCOPE")).toBe("scope-x");
		expect(await cmdlineOf(pid, 1)).toEqual(["sleep"]);
	});

	test("a process that is gone: nothing read, nothing thrown", async () => {
		const child = spawn("true", [], { stdio: "ignore" });
		const pid = child.pid as number;
		await new Promise((done) => child.once("exit", done));
		await new Promise((done) => setImmediate(done));
		expect(await environOf(pid)).toBeNull();
		expect(await cwdOf(pid)).toBeUndefined();
		expect(await socketInodesOf(pid)).toEqual([]);
		expect(ancestorsOf(-1)).toEqual([]);
	});

	test("a loopback TCP server of this test: listed as listening, its inode among this process's fds", async () => {
		const server: Server = createServer();
		await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
		closers.push(() => server.close());
		const port = (server.address() as { port: number }).port;
		const listener = (await listeningTcpTable()).find((row) => row.port === port);
		expect(listener).toMatchObject({ port, loopback: true, uid: process.getuid?.() });
		expect(await socketInodesOf(process.pid)).toContain(listener?.inode);
	});
});
