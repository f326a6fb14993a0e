import { encode } from "@msgpack/msgpack";
import { afterEach, describe, expect, test } from "vitest";
import { NeovimSession } from "../../../src/editors/neovim/session.ts";
import { GUARD_ASK_MS } from "../../../src/shared/core/timing.ts";
import { CleanupScope } from "../../support/cleanup-scope.ts";
import { ManualClock } from "../../support/clocks.ts";
import { fakeRpcServer } from "../../support/fake-rpc-server.ts";
import { waitFor } from "../../support/wait-for.ts";

/**
 * One Neovim session against an in-process msgpack-RPC server that answers what the test says, when it says:
 * the clock is moved by hand, so the guard's budget is measured exactly.
 */
interface Held {
	method: string;
	answer: (value: unknown) => void;
}

async function heldServer(scope: CleanupScope): Promise<{ path: string; requests: Held[] }> {
	const requests: Held[] = [];
	const { path } = await fakeRpcServer(scope, (message, socket) => {
		const [, id, method] = message as [number, number, string];
		requests.push({ method, answer: (value) => socket.write(encode([1, id, null, value])) });
	});
	return { path, requests };
}

describe("the guard's ask: Neovim's mode and its unsaved list share one budget", () => {
	const scope = new CleanupScope();
	afterEach(() => scope.close());

	async function connected(clock: ManualClock) {
		const { path, requests } = await heldServer(scope);
		const session = new NeovimSession(
			{ pid: 4242, startSeconds: 1, socket: path },
			{ clock, changed: () => {}, closed: () => {} },
		);
		const opening = session.open();
		// Connecting asks the mode, names pi's channel, finds it, then reads the state: answered in turn.
		const answers: unknown[] = [{ mode: "n", blocking: false }, null, 3, { mode: "n", blocking: false }, null];
		for (const [index, value] of answers.entries()) {
			const request = await waitFor(`request ${index + 1} of connecting`, () => requests[index]);
			request.answer(value);
		}
		await opening;
		scope.defer(() => session.close());
		return { session, requests, asked: requests.length };
	}

	test("a slow mode leaves the list only what is left of the budget: the whole ask ends by the deadline", async () => {
		const clock = new ManualClock();
		const { session, requests, asked } = await connected(clock);
		let result: string[] | undefined | "waiting" = "waiting";
		void session.unsavedNow(clock.nowMs() + GUARD_ASK_MS).then((files) => {
			result = files;
		});
		const mode = await waitFor("nvim_get_mode asked", () => requests[asked]);
		expect(mode.method).toBe("nvim_get_mode");
		clock.advance(100);
		mode.answer({ mode: "n", blocking: false });
		const list = await waitFor("the unsaved list asked", () => requests[asked + 1]);
		expect(list.method).toBe("nvim_exec_lua");
		clock.advance(GUARD_ASK_MS - 100 - 1);
		await new Promise((done) => setImmediate(done));
		expect(result).toBe("waiting");
		clock.advance(1);
		await waitFor("the ask given up at the deadline", () => result !== "waiting");
		expect(result).toBeUndefined();
		expect(session.report().lastRequest?.failure).toContain(`no answer within ${GUARD_ASK_MS - 100} ms`);
	});

	test("answered in time: the list", async () => {
		const clock = new ManualClock();
		const { session, requests, asked } = await connected(clock);
		const asking = session.unsavedNow(clock.nowMs() + GUARD_ASK_MS);
		(await waitFor("nvim_get_mode asked", () => requests[asked])).answer({ mode: "n", blocking: false });
		(await waitFor("the unsaved list asked", () => requests[asked + 1])).answer(["/p/a.ts", 7]);
		expect(await asking).toEqual(["/p/a.ts"]);
	});

	test("a deadline already past: nothing is asked", async () => {
		const clock = new ManualClock();
		const { session, requests, asked } = await connected(clock);
		const deadline = clock.nowMs() + GUARD_ASK_MS;
		clock.advance(GUARD_ASK_MS);
		expect(await session.unsavedNow(deadline)).toBeUndefined();
		expect(requests).toHaveLength(asked);
	});
});
