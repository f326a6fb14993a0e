import { spawn } from "node:child_process";
import {
	chmodSync,
	chownSync,
	existsSync,
	mkdirSync,
	readdirSync,
	renameSync,
	statSync,
	symlinkSync,
	writeFileSync,
} from "node:fs";
import { connect, createServer, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { removeLeftDirs } from "../../../../src/editors/emacs/push/push-dirs.ts";
import { PUSH_LINE_MAX_BYTES, PushListener } from "../../../../src/editors/emacs/push/push-listener.ts";
import { EMACS_PUSH_HELLO_TIMEOUT_MS } from "../../../../src/shared/core/timing.ts";
import { CleanupScope } from "../../../support/cleanup-scope.ts";
import { ManualClock } from "../../../support/clocks.ts";
import { startOfProcess, testProcessFacts } from "../../../support/process-facts.ts";
import { tempDir } from "../../../support/temp-dir.ts";
import { waitFor } from "../../../support/wait-for.ts";

const uid = process.getuid?.() ?? 0;

/** A client as pi's elisp is one: connects, writes lines, reads what pi answers. */
async function client(path: string, scope: CleanupScope) {
	const socket: Socket = connect(path);
	scope.defer(() => socket.destroy());
	let received = "";
	let ended = false;
	socket.on("data", (data) => {
		received += data.toString("latin1");
	});
	socket.on("close", () => {
		ended = true;
	});
	socket.on("error", () => {});
	await new Promise((connected) => socket.once("connect", connected));
	return {
		socket,
		write: (text: string) => socket.write(text),
		received: () => received,
		ended: () => ended,
	};
}

describe("pi's push listener (no Emacs)", () => {
	const scope = new CleanupScope();
	afterEach(() => scope.close());

	async function open(runtime?: string, clock?: ManualClock) {
		const listener = await PushListener.open({ XDG_RUNTIME_DIR: runtime }, uid, startOfProcess(), clock);
		if (typeof listener === "string") throw new Error(listener);
		scope.defer(() => listener.close());
		return listener;
	}

	function runtimeDir(mode = 0o700) {
		const dir = tempDir("push-runtime");
		scope.defer(dir.cleanup);
		const runtime = join(dir.path, "run");
		mkdirSync(runtime, { mode });
		return runtime;
	}

	test("its socket is 0600 in a fresh 0700 dir under XDG_RUNTIME_DIR; close removes both", async () => {
		const runtime = runtimeDir();
		const listener = await open(runtime);
		expect(dirname(dirname(listener.socketPath))).toBe(runtime);
		expect(statSync(dirname(listener.socketPath)).mode & 0o777).toBe(0o700);
		expect(statSync(listener.socketPath).mode & 0o777).toBe(0o600);
		await listener.close();
		expect(existsSync(dirname(listener.socketPath))).toBe(false);
	});

	test("its dir is named with pi's pid and start (whole unix seconds, alike from /proc and ps)", async () => {
		const listener = await open(runtimeDir());
		const ticks = await testProcessFacts().startOf(process.pid);
		expect(ticks).toBeGreaterThan(1_600_000_000);
		expect(basename(dirname(listener.socketPath))).toMatch(
			new RegExp(`^pi-ide-emacs-${process.pid}-${ticks}-[A-Za-z0-9]{6}$`),
		);
	});

	/** A pi killed with -9 as it leaves its dir: a process that listened there, killed, its socket file left. */
	async function killedListenerDir(parent: string): Promise<string> {
		const staging = join(parent, "staging");
		mkdirSync(staging, { mode: 0o700 });
		const child = spawn(
			process.execPath,
			[
				"-e",
				"require('node:net').createServer().listen(process.argv[1]); setInterval(() => {}, 1000)",
				join(staging, "push"),
			],
			{ stdio: "ignore" },
		);
		await waitFor("the child listening", () => existsSync(join(staging, "push")));
		const ticks = await testProcessFacts().startOf(child.pid as number);
		const exited = new Promise((done) => child.once("exit", done));
		child.kill("SIGKILL");
		await exited;
		const dir = join(parent, `pi-ide-emacs-${child.pid}-${ticks}-Ab12Cd`);
		renameSync(staging, dir);
		return dir;
	}

	test("opening removes the dirs a pi killed with -9 left; every other entry stays as it was", async () => {
		const runtime = runtimeDir();
		const ticks = (await testProcessFacts().startOf(process.pid)) as number;
		const left = await killedListenerDir(runtime);
		expect(existsSync(join(left, "push"))).toBe(true);
		const made = (name: string, mode = 0o700) => {
			const dir = join(runtime, name);
			mkdirSync(dir, { mode });
			chmodSync(dir, mode);
			writeFileSync(join(dir, "keep"), "x");
			return dir;
		};
		// pi's pid now runs a process started at another time: the pid was reused, that pi is gone.
		const reused = made(`pi-ide-emacs-${process.pid}-${ticks + 10}-aaaaaa`);
		const alive = made(`pi-ide-emacs-${process.pid}-${ticks}-bbbbbb`);
		const open0755 = made("pi-ide-emacs-999999999-1-cccccc", 0o755);
		const oldName = made("pi-ide-emacs-dddddd");
		const target = made("elsewhere");
		symlinkSync(target, join(runtime, "pi-ide-emacs-999999999-1-eeeeee"));
		writeFileSync(join(runtime, "pi-ide-emacs-999999999-1-ffffff"), "a file");
		// No pid of this namespace, but a listener there: another pid namespace's live pi sharing the dir.
		const shared = made("pi-ide-emacs-999999999-1-gggggg");
		const server = createServer();
		await new Promise<void>((listening) => server.listen(join(shared, "push"), listening));
		scope.defer(() => new Promise((closed) => server.close(closed)));

		const listener = await open(runtime);
		expect(existsSync(left)).toBe(false);
		expect(existsSync(reused)).toBe(false);
		for (const kept of [alive, open0755, oldName, target, shared]) expect(existsSync(join(kept, "keep"))).toBe(true);
		expect(readdirSync(runtime).sort()).toEqual(
			[
				basename(dirname(listener.socketPath)),
				basename(alive),
				basename(open0755),
				basename(oldName),
				"elsewhere",
				"pi-ide-emacs-999999999-1-eeeeee",
				"pi-ide-emacs-999999999-1-ffffff",
				basename(shared),
			].sort(),
		);
	});

	test.skipIf(uid !== 0)("another user's dir of that name stays (run as root: chown is possible)", async () => {
		const runtime = runtimeDir();
		const dir = join(runtime, "pi-ide-emacs-999999999-1-hhhhhh");
		mkdirSync(dir, { mode: 0o700 });
		chownSync(dir, 12345, 12345);
		await removeLeftDirs(runtime, uid, startOfProcess());
		expect(existsSync(dir)).toBe(true);
	});

	test("a parent that cannot be read removes nothing and says nothing", async () => {
		await expect(removeLeftDirs("/nonexistent/pi-ide-run", uid, startOfProcess())).resolves.toBeUndefined();
	});

	test.each([
		["unset", undefined],
		["relative", "run"],
		["missing", "/nonexistent/pi-ide-run"],
	])("XDG_RUNTIME_DIR %s: the system temp dir", async (_what, runtime) => {
		const listener = await open(runtime);
		expect(dirname(dirname(listener.socketPath))).toBe(tmpdir());
	});

	test("XDG_RUNTIME_DIR open to the group: the system temp dir", async () => {
		const runtime = runtimeDir(0o750);
		const listener = await open(runtime);
		expect(dirname(dirname(listener.socketPath))).toBe(tmpdir());
	});

	test("a connection with its token: each JSON line a message, each acknowledged with one byte", async () => {
		const listener = await open(runtimeDir());
		const messages: unknown[] = [];
		const peer = listener.expect({ message: (value) => messages.push(value), closed: () => {} });
		expect(peer.token).toMatch(/^[0-9a-f]{32}$/);
		const emacs = await client(listener.socketPath, scope);
		emacs.write(`${peer.token}\n{"kind":"state","state":{"a":1}}\n{"kind":"rev`);
		await waitFor("one message", () => messages.length === 1);
		expect(peer.connected).toBe(true);
		emacs.write('iew"}\nnot json\n\n[1]\n');
		await waitFor("two more", () => messages.length === 3);
		expect(messages).toEqual([{ kind: "state", state: { a: 1 } }, { kind: "review" }, [1]]);
		expect(peer.ignoredLines).toBe(2);
		await waitFor("every line acknowledged", () => emacs.received() === ".....");
	});

	test("an unknown token, or a token already used, is dropped; the first connection stays", async () => {
		const listener = await open(runtimeDir());
		const messages: unknown[] = [];
		const peer = listener.expect({ message: (value) => messages.push(value), closed: () => {} });
		const stranger = await client(listener.socketPath, scope);
		stranger.write("0123456789abcdef\n1\n");
		await waitFor("the stranger dropped", () => stranger.ended());
		const emacs = await client(listener.socketPath, scope);
		emacs.write(`${peer.token}\n`);
		await waitFor("connected", () => peer.connected);
		const twin = await client(listener.socketPath, scope);
		twin.write(`${peer.token}\n2\n`);
		await waitFor("the twin dropped", () => twin.ended());
		emacs.write("3\n");
		await waitFor("the first one's message", () => messages.length === 1);
		expect(messages).toEqual([3]);
	});

	test("no token within the hello timeout: dropped (the clock moved by hand)", async () => {
		const clock = new ManualClock();
		const listener = await open(runtimeDir(), clock);
		const silent = await client(listener.socketPath, scope);
		await waitFor("the timer armed", () => clock.pendingTimers === 1);
		clock.advance(EMACS_PUSH_HELLO_TIMEOUT_MS - 1);
		await new Promise((settle) => setTimeout(settle, 20));
		expect(silent.ended()).toBe(false);
		clock.advance(1);
		await waitFor("dropped", () => silent.ended());
	});

	test("a first line too long for a token is dropped before it ends", async () => {
		const listener = await open(runtimeDir());
		const long = await client(listener.socketPath, scope);
		long.write("a".repeat(300));
		await waitFor("dropped", () => long.ended());
	});

	test("a line over the cap ends the peer, with the reason", async () => {
		const listener = await open(runtimeDir());
		const reasons: string[] = [];
		const peer = listener.expect({ message: () => {}, closed: (reason) => reasons.push(reason) });
		const emacs = await client(listener.socketPath, scope);
		emacs.write(`${peer.token}\n`);
		await waitFor("connected", () => peer.connected);
		const chunk = "x".repeat(1024 * 1024);
		for (let sent = 0; sent <= PUSH_LINE_MAX_BYTES && !emacs.ended(); sent += chunk.length) emacs.write(chunk);
		await waitFor("dropped", () => emacs.ended(), 10_000);
		expect(reasons).toEqual([`dropped: a line over ${PUSH_LINE_MAX_BYTES} bytes`]);
		expect(peer.connected).toBe(false);
	});

	test("Emacs closing says so once; pi's own close says nothing and ends the connection", async () => {
		const listener = await open(runtimeDir());
		const reasons: string[] = [];
		const handlers = { message: () => {}, closed: (reason: string) => reasons.push(reason) };
		const first = listener.expect(handlers);
		const second = listener.expect(handlers);
		const a = await client(listener.socketPath, scope);
		a.write(`${first.token}\n`);
		const b = await client(listener.socketPath, scope);
		b.write(`${second.token}\n`);
		await waitFor("both connected", () => first.connected && second.connected);
		a.socket.end();
		await waitFor("the first closed", () => reasons.length === 1);
		expect(reasons).toEqual(["Emacs closed the connection"]);
		second.close();
		await waitFor("the second ended by pi", () => b.ended());
		expect(reasons).toHaveLength(1);
		const late = await client(listener.socketPath, scope);
		late.write(`${second.token}\n`);
		await waitFor("a closed peer's token is refused", () => late.ended());
	});

	test("the listener's close ends every connection", async () => {
		const listener = await open(runtimeDir());
		const peer = listener.expect({ message: () => {}, closed: () => {} });
		const emacs = await client(listener.socketPath, scope);
		emacs.write(`${peer.token}\n`);
		await waitFor("connected", () => peer.connected);
		await listener.close();
		await waitFor("ended", () => emacs.ended());
	});
});
