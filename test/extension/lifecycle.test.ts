import { describe, expect, test } from "vitest";
import { EDITOR_EVENT_CHANNEL } from "../../src/index.ts";
import { unchangedLine } from "../../src/prompt/core/editor-block.ts";
import { resourceCount } from "../../src/shared/process-memory.ts";
import { FakeEditor } from "../support/fake-editor.ts";
import { nvimFixtureText } from "../support/fixtures.ts";
import { contentText, type SdkSession, startSdkSession } from "../support/sdk-session.ts";
import { useSdkWorkspace } from "../support/sdk-workspace.ts";
import { waitFor } from "../support/wait-for.ts";

const ws = useSdkWorkspace("lifecycle");

/** Node's own view of what keeps the process busy: timers, fs watchers, file handles. */
function activeResources(): Record<string, number> {
	const counts: Record<string, number> = {};
	for (const kind of process.getActiveResourcesInfo()) counts[kind] = (counts[kind] ?? 0) + 1;
	return counts;
}

const emit = (pi: SdkSession, event: object) => pi.session.extensionRunner.emit(event as never);

describe("session lifecycle in a real AgentSession", () => {
	test("100 session_shutdown/session_start cycles leave no timer, watcher or handle behind", async () => {
		const nvim = FakeEditor.spawn(ws.stateDir);
		ws.defer(() => nvim.kill());
		nvim.write(nvimFixtureText("named-buffer", { project: ws.project, pid: nvim.pid }));
		const pi = await startSdkSession({ cwd: ws.project, agentDir: ws.agentDir });
		ws.defer(() => pi.shutdown());
		await pi.session.prompt("warm up");
		const baseline = activeResources();
		const ownBaseline = { ...resourceCount() };
		expect(ownBaseline).toMatchObject({ watchers: 1, timers: 1 });

		for (let cycle = 0; cycle < 100; cycle++) {
			await emit(pi, { type: "session_shutdown", reason: "new" });
			await emit(pi, { type: "session_start", reason: "new" });
		}
		expect(resourceCount()).toEqual(ownBaseline);
		await waitFor("node's active resources back to the baseline", () => {
			const now = activeResources();
			return ["Timeout", "FSEvent", "FSReqCallback", "FileHandle"].every(
				(kind) => (now[kind] ?? 0) <= (baseline[kind] ?? 0),
			);
		});
		await pi.session.prompt("still working?");
		// Same session, same editor state: the model already has the block, so one line says it still holds.
		expect(contentText(pi.contexts.at(-1)?.messages.at(-1) ?? {})).toBe(unchangedLine());
	});

	test("session_start twice (pi 0.73 RPC) starts once; shutdown twice is safe", async () => {
		const pi = await startSdkSession({ cwd: ws.project, agentDir: ws.agentDir });
		ws.defer(() => pi.shutdown());
		await emit(pi, { type: "session_start", reason: "startup" });
		expect(resourceCount()).toMatchObject({ watchers: 1, timers: 1 });
		expect(resourceCount().runtimeWatches).toBeGreaterThan(0);
		await emit(pi, { type: "session_shutdown", reason: "quit" });
		await emit(pi, { type: "session_shutdown", reason: "quit" });
		expect(resourceCount()).toEqual({ watchers: 0, timers: 0, runtimeWatches: 0, lockWatches: 0, emacsWatches: 0 });
	});

	test("shutdown while reads are in flight does not throw and leaves nothing open", async () => {
		const connected = FakeEditor.spawn(ws.stateDir);
		const others = Array.from({ length: 20 }, () => FakeEditor.spawn(ws.stateDir));
		const editors = [connected, ...others];
		ws.defer(() => Promise.all(editors.map((e) => e.kill())).then(() => {}));
		connected.write(nvimFixtureText("named-buffer", { project: ws.project, pid: connected.pid }));
		const pi = await startSdkSession({ cwd: ws.project, agentDir: ws.agentDir });
		ws.defer(() => pi.shutdown());
		let announced = 0;
		pi.events.on(EDITOR_EVENT_CHANNEL, () => announced++);
		let round = 0;
		const writing = setInterval(() => {
			round++;
			for (const editor of editors)
				editor.write(
					nvimFixtureText("named-buffer", { project: `${ws.project}/x`, pid: editor.pid, timestamp: round }),
				);
		}, 20);
		ws.defer(() => clearInterval(writing));
		// The connected editor's writes are being read by now, and the writes go on during the shutdown.
		await waitFor("the watcher is busy", () => announced >= 3, 20_000);
		await emit(pi, { type: "session_shutdown", reason: "quit" });
		clearInterval(writing);
		expect(resourceCount()).toEqual({ watchers: 0, timers: 0, runtimeWatches: 0, lockWatches: 0, emacsWatches: 0 });
	});
});
