import { existsSync, mkdirSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { PROBE_ELISP } from "../../../src/editors/emacs/core/elisp/probe-elisp.ts";
import { evalInEmacs, requestEmacs } from "../../../src/editors/emacs/server-client.ts";
import { systemClock } from "../../../src/shared/clock.ts";
import { CleanupScope } from "../../support/cleanup-scope.ts";
import { RealEmacs, requireEmacs } from "../../support/real-emacs.ts";
import { tempDir } from "../../support/temp-dir.ts";
import { waitFor } from "../../support/wait-for.ts";

const options = (timeoutMs = 5000, expectedPid?: number) => ({ clock: systemClock, timeoutMs, expectedPid });

/** Everything an outsider may put in a path or a file's text, in one argument. */
const HOSTILE = {
	path: '/tmp/x y/-&&n&_\n/"q"\\/ü 中文😀.ts',
	lisp: '") (kill-emacs) ("',
	dash: "-eval (kill-emacs)",
	controls: "a\r\n\tb\u0000c\u001b[31m",
	list: ["", " ", "&", "-", [], {}],
	numbers: [0, -1, 1.5, 1e21],
	flags: [true, false, null],
};

describe("the client against servers that are not Emacs (no Emacs needed)", () => {
	const scope = new CleanupScope();
	afterEach(() => scope.close());

	async function serverAt(handle: (connection: import("node:net").Socket) => void): Promise<string> {
		const dir = tempDir("emacs-fake-server");
		scope.defer(dir.cleanup);
		const path = join(dir.path, "server");
		const server = createServer(handle);
		await new Promise<void>((listening) => server.listen(path, listening));
		scope.defer(() => new Promise((closed) => server.close(closed)));
		return path;
	}

	test("no answer: the timeout, on time", async () => {
		const path = await serverAt((connection) => scope.defer(() => connection.destroy()));
		const started = Date.now();
		expect(await requestEmacs(path, "-eval 1 \n", options(200))).toEqual({
			ok: false,
			reason: "no answer within 200 ms",
			timedOut: true,
		});
		expect(Date.now() - started).toBeLessThan(1500);
	});

	test("no socket there", async () => {
		const answer = await requestEmacs("/nonexistent/pi-ide/server", "-eval 1 \n", options());
		expect(answer).toMatchObject({ ok: false, reason: expect.stringContaining("cannot talk to Emacs") });
	});

	test("an endless reply stops at the cap", async () => {
		const path = await serverAt((connection) => {
			const chunk = `-print ${"x".repeat(64 * 1024)}`;
			const pump = () => {
				while (!connection.destroyed && connection.write(chunk));
				if (!connection.destroyed) connection.once("drain", pump);
			};
			connection.on("error", () => {});
			pump();
		});
		expect(await requestEmacs(path, "-eval 1 \n", options(10_000))).toMatchObject({
			ok: false,
			reason: expect.stringContaining("reply over"),
		});
	});

	test("the request arrives in one write, as one line", async () => {
		let received = "";
		const path = await serverAt((connection) => {
			connection.on("data", (data) => {
				received += data.toString();
				if (received.endsWith("\n")) connection.end("-emacs-pid 9\n-print 1\n");
			});
		});
		expect(await requestEmacs(path, "-eval (+&_1&_2) \n", options())).toEqual({ ok: true, value: "1", emacsPid: 9 });
		expect(received).toBe("-eval (+&_1&_2) \n");
	});

	test("an answer as another pid than the socket's holder is refused", async () => {
		// Read what pi sends (a paused socket never sees pi close it), answer as pid 9.
		const path = await serverAt((connection) => connection.resume().end("-emacs-pid 9\n-print 1\n"));
		expect(await requestEmacs(path, "-eval 1 \n", options(5000, 10))).toEqual({
			ok: false,
			reason: "the server answered as pid 9, not 10",
		});
	});
});

const available = requireEmacs("the Emacs server client tests");

describe.skipIf(!available)("the client against a real Emacs 28.2's server (in tmux)", () => {
	const scope = new CleanupScope();
	let emacs: RealEmacs;
	let root: string;

	beforeAll(async () => {
		const dir = tempDir("emacs-client");
		scope.defer(dir.cleanup);
		root = dir.path;
		mkdirSync(join(root, "proj"));
		emacs = await RealEmacs.start({
			cwd: join(root, "proj"),
			runtimeDir: join(root, "run"),
			scope: `emacs-client-${process.pid}`,
		});
		scope.defer(() => emacs.close());
	}, 60_000);
	afterAll(() => scope.close());

	test("pi's probe reads a hostile argument back exactly: nothing of it became code", async () => {
		const answer = await evalInEmacs(emacs.socket, PROBE_ELISP, HOSTILE, options(5000, emacs.pid));
		expect(answer).toEqual({
			ok: true,
			value: { pid: emacs.pid, version: "28.2", daemon: false, frames: 1, args: HOSTILE },
		});
	});

	test("a 140 KB argument, its answer in many -print-nonl chunks", async () => {
		const big = "é&- \n".repeat(20_000);
		const started = Date.now();
		const answer = await evalInEmacs(emacs.socket, PROBE_ELISP, big, options(10_000, emacs.pid));
		expect(answer.ok && (answer.value as { args: string }).args).toBe(big);
		process.stderr.write(`a 140 KB argument round trip: ${Date.now() - started} ms\n`);
	});

	test("an error reaching the server is final when it arrives (28.2 then holds the connection 5 s)", async () => {
		const started = Date.now();
		expect(await emacs.eval('(error "boom & -x\\nsecond line")')).toEqual({
			ok: false,
			reason: "Emacs: boom & -x?second line",
		});
		expect(Date.now() - started).toBeLessThan(2000);
	});

	test("a busy Emacs: the request times out cleanly, and Emacs answers again after", async () => {
		const marker = join(root, "busy-started");
		const busy = emacs.eval(
			`(progn (write-region "" nil ${JSON.stringify(marker)}) (let ((end (+ (float-time) 3))) (while (< (float-time) end))) 'done)`,
			15_000,
		);
		await waitFor("Emacs in its busy loop", () => existsSync(marker), 10_000);
		const started = Date.now();
		expect(await evalInEmacs(emacs.socket, PROBE_ELISP, {}, options(500, emacs.pid))).toEqual({
			ok: false,
			reason: "no answer within 500 ms",
			timedOut: true,
		});
		expect(Date.now() - started).toBeLessThan(1500);
		// A request given up on while Emacs was busy: pi closed its connection before Emacs read a byte.
		const late = join(root, "late-request-ran");
		expect(await emacs.eval(`(write-region "" nil ${JSON.stringify(late)})`, 300)).toMatchObject({ ok: false });
		expect(await busy).toMatchObject({ ok: true, value: "done" });
		expect(await evalInEmacs(emacs.socket, PROBE_ELISP, [1], options(5000, emacs.pid))).toMatchObject({
			ok: true,
			value: { args: [1] },
		});
		// 28.2 writes -emacs-pid before it evaluates; to a connection pi closed that fails, and the eval never runs.
		// (Had Emacs read the line before pi gave up, it would run: every request must be harmless late.)
		expect(existsSync(late)).toBe(false);
	}, 30_000);

	test("while the user is in a minibuffer prompt the server still answers", async () => {
		emacs.keys("M-x");
		await waitFor("the M-x prompt", () => emacs.screen().includes("M-x"));
		const started = Date.now();
		expect(await evalInEmacs(emacs.socket, PROBE_ELISP, "m", options(2000, emacs.pid))).toMatchObject({
			ok: true,
			value: { args: "m" },
		});
		process.stderr.write(`an answer from inside M-x: ${Date.now() - started} ms\n`);
		emacs.keys("C-g");
	});
});
