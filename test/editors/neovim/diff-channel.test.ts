import type { Socket } from "node:net";
import { encode } from "@msgpack/msgpack";
import { afterEach, describe, expect, test } from "vitest";
import { NeovimSession } from "../../../src/editors/neovim/session.ts";
import { CleanupScope } from "../../support/cleanup-scope.ts";
import { ManualClock } from "../../support/clocks.ts";
import { fakeRpcServer } from "../../support/fake-rpc-server.ts";
import { waitFor } from "../../support/wait-for.ts";

/**
 * The review's way into one Neovim (`NeovimSession.diffChannel`) against an in-process msgpack-RPC server: what it
 * sends, and how `pi_ide_diff` notifications reach the review beside the state pushes, untouched by them.
 */
describe("a Neovim session's diff channel", () => {
	const scope = new CleanupScope();
	afterEach(() => scope.close());

	async function connected(channelId: number) {
		const requests: { method: string; params: unknown[] }[] = [];
		let client: Socket | undefined;
		const { path } = await fakeRpcServer(scope, (message, socket) => {
			client = socket;
			const [, id, method, params] = message as [number, number, string, unknown[]];
			requests.push({ method, params });
			// Connecting: the mode, pi's client info, its channel, the mode again, the state (nonsense: no reading).
			const value =
				method === "nvim_get_mode"
					? { mode: "n", blocking: false }
					: method === "nvim_exec_lua" && String(params[0]).includes("chan.client")
						? channelId
						: null;
			socket.write(encode([1, id, null, value]));
		});
		const session = new NeovimSession(
			{ pid: 4242, startSeconds: 1, socket: path },
			{ clock: new ManualClock(), changed: () => {}, closed: () => {} },
		);
		await session.open();
		scope.defer(() => session.close());
		const notify = (method: string, params: unknown[]) => client?.write(encode([2, method, params]));
		return { session, requests, notify, client: () => client };
	}

	test("pi_ide_diff reaches every listener; one that throws ends nothing; unsubscribed, none", async () => {
		const { session, notify } = await connected(3);
		const channel = session.diffChannel(true);
		expect(channel).toMatchObject({ enclosing: true, channel: 3 });
		const seen: unknown[] = [];
		channel?.onDiffEvent(() => {
			throw new Error("a listener's bug");
		});
		const unsubscribe = channel?.onDiffEvent((params) => seen.push(params));
		notify("pi_ide_diff", ["abc123", "closed"]);
		await waitFor("the diff event", () => seen.length === 1);
		expect(seen).toEqual([["abc123", "closed"]]);
		expect(session.isOpen).toBe(true);
		// A state push is the session's, never the review's.
		notify("pi_ide_state", [{ cwd: "/" }]);
		unsubscribe?.();
		notify("pi_ide_diff", ["abc123", "rejected"]);
		notify("pi_ide_diff", ["after"]);
		// Answers come after what was written before them: the notifications were all handled by then.
		expect(await channel?.run("round trip", "return 1", [])).toMatchObject({ ok: true });
		expect(seen).toEqual([["abc123", "closed"]]);
		expect(session.isOpen).toBe(true);
	});

	test("run sends the chunk with its arguments after nvim_get_mode; whenClosed says why the connection ended", async () => {
		const { session, requests, client } = await connected(3);
		const channel = session.diffChannel(false);
		const asked = requests.length;
		const answer = await channel?.run("diff test", "return ...", [1, "two"]);
		expect(answer).toEqual({ ok: true, value: null });
		expect(requests.slice(asked)).toEqual([
			{ method: "nvim_get_mode", params: [] },
			{ method: "nvim_exec_lua", params: ["return ...", [1, "two"]] },
		]);
		client()?.destroy();
		expect(await channel?.whenClosed()).toBe("Neovim closed the connection");
		expect(session.diffChannel(false)).toBeUndefined();
	});

	test("no diff channel while pi's channel in that Neovim is unknown", async () => {
		const { session } = await connected(0);
		expect(session.diffChannel(false)).toBeUndefined();
	});
});
