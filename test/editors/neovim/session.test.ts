import { encode } from "@msgpack/msgpack";
import { afterEach, describe, expect, test } from "vitest";
import type { EditorAsks } from "../../../src/editors/editor-asks.ts";
import { ASK_START_LUA } from "../../../src/editors/neovim/core/ask-lua.ts";
import { LEAVE_LUA, PUSH_LUA } from "../../../src/editors/neovim/core/lua.ts";
import { NeovimSession } from "../../../src/editors/neovim/session.ts";
import { GUARD_ASK_MS, NEOVIM_REQUEST_TIMEOUT_MS } from "../../../src/shared/core/timing.ts";
import { CleanupScope } from "../../support/cleanup-scope.ts";
import { ManualClock } from "../../support/clocks.ts";
import { fakeRpcServer } from "../../support/fake-rpc-server.ts";
import { waitFor } from "../../support/wait-for.ts";

/**
 * One Neovim session against an in-process msgpack-RPC server that answers what the test says, when it says:
 * the clock is moved by hand, so timeouts and budgets are measured exactly.
 */
interface Held {
	method: string;
	params: unknown[];
	answer: (value: unknown) => void;
}

const FREE = { mode: "n", blocking: false };

/** Neovim 4242's session over a held server; `answerNext` answers the requests in the order they came. */
async function heldSession(scope: CleanupScope, clock: ManualClock, asks?: EditorAsks) {
	const requests: Held[] = [];
	const { path } = await fakeRpcServer(scope, (message, socket) => {
		const [, id, method, params] = message as [number, number, string, unknown[]];
		requests.push({ method, params, answer: (value) => socket.write(encode([1, id, null, value])) });
	});
	const session = new NeovimSession(
		{ pid: 4242, startSeconds: 1, socket: path },
		{
			clock,
			changed: () => {},
			closed: () => {},
			...(asks && { asks: { asks, project: () => "/p", piInside: () => false } }),
		},
	);
	let answered = 0;
	const answerNext = async (what: string, value: unknown): Promise<Held> => {
		const held = await waitFor(what, () => requests[answered]);
		answered++;
		held.answer(value);
		return held;
	};
	/** Connecting asks the mode, names pi's channel, finds it (3), then reads the state. */
	const connect = async () => {
		const opening = session.open();
		for (const value of [FREE, null, 3, FREE, null]) await answerNext("connecting", value);
		await opening;
	};
	return { session, requests, answerNext, connect };
}

/** Closes the session, answering its leave (the mode, then the Lua). */
async function leaveAnswered(session: NeovimSession, requests: Held[]): Promise<void> {
	const from = requests.length;
	const closing = session.close();
	(await waitFor("the leave's mode", () => requests[from])).answer(FREE);
	(await waitFor("the leave", () => requests[from + 1])).answer(true);
	await closing;
}

describe("the guard's ask: Neovim's mode and its unsaved list share one budget", () => {
	const scope = new CleanupScope();
	afterEach(() => scope.close());

	async function connected(clock: ManualClock) {
		const { session, requests, connect } = await heldSession(scope, clock);
		await connect();
		scope.defer(() => leaveAnswered(session, requests));
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

describe("pi leaves a Neovim: one last request, and nothing of pi's starts anew meanwhile", () => {
	const scope = new CleanupScope();
	afterEach(() => scope.close());
	/** The Lua chunk an `nvim_exec_lua` request ran, and its arguments. */
	const chunkOf = (held: Held) => held.params as [string, unknown[]];

	test("the asks' stop unanswered while a push decides again: no asks registered, no pushes started or stopped, the leave sent last", async () => {
		const clock = new ManualClock();
		const asks = { on: () => true, received: () => {}, gone: () => {} };
		const { session, requests, answerNext, connect } = await heldSession(scope, clock, asks);
		await connect();
		const pushing = session.setPushing(true);
		await answerNext("the mode", FREE);
		expect(chunkOf(await answerNext("the pushes", 1))[0]).toBe(PUSH_LUA);
		await pushing;
		const registering = session.decideAsks(true, false);
		await answerNext("the mode", FREE);
		expect(chunkOf(await answerNext("the asks", { defined: ["Pi"], taken: [] }))[0]).toBe(ASK_START_LUA);
		await registering;
		expect(session.report().asks?.state).toBe("on");

		const from = requests.length;
		const closing = session.close();
		// The asks' stop: its mode asked, never answered (Neovim busy), while a push makes the source decide again.
		expect((await waitFor("the asks' stop asks the mode", () => requests[from])).method).toBe("nvim_get_mode");
		// The pushes' group is the leave's to end: kept until then, it ends the rest if the leave never lands.
		const deciding = [session.decideAsks(true, false), session.setPushing(false), session.setPushing(true)];
		clock.advance(NEOVIM_REQUEST_TIMEOUT_MS);
		(await waitFor("the leave's mode", () => requests[from + 1])).answer(FREE);
		const leave = await waitFor("the leave", () => requests[from + 2]);
		expect(chunkOf(leave)).toEqual([LEAVE_LUA, [3, "pi_ide_3"]]);
		leave.answer(true);
		await Promise.all([...deciding, closing]);
		expect(requests).toHaveLength(from + 3);
		expect(session.isOpen).toBe(false);
		expect(session.isPushing).toBe(false);
	});

	test("a session that never learnt its channel (Neovim in a prompt) sends no leave", async () => {
		const { session, requests, answerNext } = await heldSession(scope, new ManualClock());
		const opening = session.open();
		await answerNext("the mode", { mode: "r", blocking: true });
		await opening;
		await session.close();
		expect(requests.map((held) => held.method)).toEqual(["nvim_get_mode"]);
	});
});
