import { createServer, type Socket } from "node:net";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { EmacsRequests } from "../../../src/editors/emacs/requests.ts";
import { systemClock } from "../../../src/shared/clock.ts";
import type { Clock } from "../../../src/shared/core/clock.ts";
import { CleanupScope } from "../../support/cleanup-scope.ts";
import { tempDir } from "../../support/temp-dir.ts";

/**
 * Node runs a timer by its loop's cached time, which a busy process lets fall behind: the timer may fire while a
 * precise clock says less than its time passed. This clock says no time passes at all, its timers fire at once.
 */
const timerAheadOfClock: Clock = {
	...systemClock,
	nowMs: () => 1_000,
	after(_ms, run) {
		const timer = setTimeout(run, 5);
		return () => clearTimeout(timer);
	},
};

describe("EmacsRequests' busy mark (real sockets)", () => {
	const scope = new CleanupScope();
	afterEach(() => scope.close());

	/** A socket that takes connections and never says a word, as a busy Emacs's server. */
	async function silentServer(): Promise<string> {
		const dir = tempDir("emacs-requests");
		scope.defer(dir.cleanup);
		const path = join(dir.path, "server");
		const held: Socket[] = [];
		const server = createServer((connection) => held.push(connection));
		await new Promise<void>((listening) => server.listen(path, listening));
		scope.defer(() => {
			for (const connection of held) connection.destroy();
			return new Promise((closed) => server.close(closed));
		});
		return path;
	}

	test("silence until the timer fires is busy, even when the clock says the time is not up", async () => {
		const socket = await silentServer();
		const requests = new EmacsRequests(() => ({ socket, pid: 1 }), timerAheadOfClock);
		const answer = await requests.ask("unsaved list", "(lambda (args) args)", {}, 1_150);
		expect(answer).toMatchObject({ ok: false, reason: "no answer within 150 ms" });
		expect(requests.busy).toBe(true);
		expect(requests.lastRequest).toMatchObject({ what: "unsaved list", failure: "no answer within 150 ms" });
		requests.heardFrom();
		expect(requests.busy).toBe(false);
	});

	test("a socket that is not there is an answer of sorts: not busy", async () => {
		const dir = tempDir("emacs-requests");
		scope.defer(dir.cleanup);
		const requests = new EmacsRequests(() => ({ socket: join(dir.path, "none"), pid: 1 }), systemClock);
		const answer = await requests.ask("unsaved list", "(lambda (args) args)", {});
		expect(answer).toMatchObject({ ok: false, reason: expect.stringContaining("cannot talk to Emacs") });
		expect(requests.busy).toBe(false);
	});
});
