import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createEditTool, type ExtensionContext, type ToolCallEvent } from "@mariozechner/pi-coding-agent";
import { describe, expect, test } from "vitest";
import { NO_REVIEWER_TEXT } from "../../src/review/core/model-texts.ts";
import { ReviewGate } from "../../src/review/review-gate.ts";
import { ManualClock } from "../support/clocks.ts";
import { tempDir } from "../support/temp-dir.ts";
import { gateRig, ScriptedHost, ScriptedUi, waitUntil } from "./gate-rig.ts";

describe("the review gate: the editor and pi's select race, the first answer wins, pi's own tool writes", () => {
	const dir = tempDir("review-gate");

	const setup = (options: Parameters<typeof gateRig>[1] = {}) => gateRig(dir.path, options);

	const file = (name: string, text?: string) => {
		const path = join(dir.path, name);
		if (text !== undefined) writeFileSync(path, text);
		return path;
	};

	test("a write accepted in the editor as proposed: not blocked, the input untouched, pi's select withdrawn", async () => {
		const { host, ui, call } = setup();
		file("a.ts", "old\n");
		const { event, result } = call("write", { path: "a.ts", content: "new\n" });
		await waitUntil(() => host.requests.length === 1 && ui.titles.length === 1);
		expect(host.requests[0]).toMatchObject({
			file: join(dir.path, "a.ts"),
			displayName: "a.ts",
			onDisk: "old\n",
			proposed: "new\n",
		});
		expect(ui.titles[0]).toBe("Review: write a.ts (+1 -1)\nShown in Neovim, tab page 2: :w accepts; or answer here.");
		host.answer({ kind: "accepted", text: "new\n" });
		expect(await result).toBeUndefined();
		expect(event.input).toEqual({ path: "a.ts", content: "new\n" });
		expect(ui.withdrawn).toBe(1);
		expect(host.closed).toBe(1);
	});

	test("an edit of a CRLF file changed by the user: one whole-file edit that pi's own edit turns into exactly their version", async () => {
		const { gate, host, call } = setup();
		const path = file("crlf.ts", "\uFEFFone\r\ntwo\r\nthree\r\n");
		const { event, result } = call("edit", { path: "crlf.ts", edits: [{ oldText: "two", newText: "TWO" }] });
		await waitUntil(() => host.requests.length === 1);
		expect(host.requests[0]?.proposed).toBe("\uFEFFone\r\nTWO\r\nthree\r\n");
		host.answer({ kind: "accepted", text: "one\nTWO!\nthree\n" });
		expect(await result).toBeUndefined();
		await createEditTool(dir.path).execute("x", event.input as never);
		expect(readFileSync(path, "utf8")).toBe("\uFEFFone\r\nTWO!\r\nthree\r\n");
		const patched = gate.toolResult({
			toolCallId: event.toolCallId,
			isError: false,
			content: [{ type: "text", text: "ok" }],
		} as never);
		expect(patched?.content[1]).toMatchObject({ type: "text" });
		expect(JSON.stringify(patched?.content[1])).toContain("-TWO\\n+TWO!");
	});

	test("a second edit of the same file in one message is shown on top of the first one accepted", async () => {
		const { gate, host, call } = setup();
		file("twice.ts", "a\nb\nc\n");
		const first = call("edit", { path: "twice.ts", edits: [{ oldText: "a", newText: "A" }] });
		await waitUntil(() => host.requests.length === 1);
		host.answer({ kind: "accepted", text: "A\nb\nc\n" });
		expect(await first.result).toBeUndefined();
		const second = call("edit", { path: "twice.ts", edits: [{ oldText: "c", newText: "C" }] });
		await waitUntil(() => host.requests.length === 2);
		expect(host.requests[1]).toMatchObject({ onDisk: "A\nb\nc\n", proposed: "A\nb\nC\n" });
		host.answer({ kind: "rejected" });
		expect(await second.result).toMatchObject({ block: true });
		gate.turnEnded();
		const third = call("edit", { path: "twice.ts", edits: [{ oldText: "c", newText: "C" }] });
		await waitUntil(() => host.requests.length === 3);
		expect(host.requests[2]?.onDisk).toBe("a\nb\nc\n");
		host.answer({ kind: "rejected" });
		await third.result;
	});

	test("rejected in the editor with a reason: blocked, the model told where and why", async () => {
		const { host, call } = setup();
		file("r.ts", "x\n");
		const { result } = call("write", { path: "r.ts", content: "y\n" });
		await waitUntil(() => host.requests.length === 1);
		host.answer({ kind: "rejected", reason: "keep x" });
		expect(await result).toEqual({
			block: true,
			reason:
				'The user rejected this write of r.ts in Neovim; the file was not changed. The user\'s reason: "keep x". Do not make the same change again: take the reason into account.',
		});
	});

	test("pi's select first: the view closes; 'reject and say why' asks for the reason", async () => {
		const { host, ui, call } = setup();
		file("s.ts", "x\n");
		const { result } = call("write", { path: "s.ts", content: "y\n" });
		await ui.choose("Reject and say why");
		expect(await result).toMatchObject({ block: true, reason: expect.stringContaining('"too clever"') });
		expect(host.closed).toBe(1);
	});

	test("the view closed decides nothing: the select is asked again, saying so, and decides", async () => {
		const { host, ui, call } = setup();
		file("c.ts", "x\n");
		const { event, result } = call("write", { path: "c.ts", content: "y\n" });
		await waitUntil(() => ui.titles.length === 1);
		host.answer({ kind: "closed" });
		await waitUntil(() => ui.titles.length === 2);
		expect(ui.titles[1]).toContain("The diff in Neovim was closed without a decision: decide here.");
		await ui.choose("Accept");
		expect(await result).toBeUndefined();
		expect(event.input).toEqual({ path: "c.ts", content: "y\n" });
	});

	test("Esc rejects and stops the turn", async () => {
		const { ui, call, aborted } = setup();
		file("e.ts", "x\n");
		const { result } = call("write", { path: "e.ts", content: "y\n" });
		await ui.choose(undefined);
		expect(await result).toMatchObject({
			block: true,
			reason: expect.stringContaining("The user rejected this write of e.ts in pi"),
		});
		await waitUntil(() => aborted() === 1);
	});

	test("the turn aborted: the view closes, nothing is written", async () => {
		const { host, call, abortTurn } = setup();
		file("ab.ts", "x\n");
		const { event, result } = call("write", { path: "ab.ts", content: "y\n" });
		await waitUntil(() => host.requests.length === 1);
		abortTurn();
		expect(await result).toMatchObject({ block: true, reason: expect.stringContaining("cancelled") });
		expect(host.closed).toBe(1);
		expect(event.input).toEqual({ path: "ab.ts", content: "y\n" });
	});

	test("a file saved meanwhile is not overwritten", async () => {
		const { host, call } = setup();
		const path = file("m.ts", "x\n");
		const { result } = call("write", { path: "m.ts", content: "y\n" });
		await waitUntil(() => host.requests.length === 1);
		writeFileSync(path, "saved by the user\n");
		host.answer({ kind: "accepted", text: "y\n" });
		expect(await result).toMatchObject({ block: true, reason: expect.stringContaining("changed on disk") });
	});

	test("accept all: later calls of the session are not reviewed", async () => {
		const { host, ui, call } = setup();
		file("all.ts", "x\n");
		const first = call("write", { path: "all.ts", content: "y\n" });
		await ui.choose("Accept all in this session");
		expect(await first.result).toBeUndefined();
		expect(await call("write", { path: "all.ts", content: "z\n" }).result).toBeUndefined();
		expect(host.requests).toHaveLength(1);
	});

	test("a new file is shown against nothing", async () => {
		const { host, call } = setup();
		const { result } = call("write", { path: "brand-new.ts", content: "hi\n" });
		await waitUntil(() => host.requests.length === 1);
		expect(host.requests[0]?.onDisk).toBeUndefined();
		host.answer({ kind: "accepted", text: "hi\n" });
		expect(await result).toBeUndefined();
	});

	test("an edit pi's own tool would fail on is not reviewed: the tool says why itself", async () => {
		const { host, call } = setup();
		file("nomatch.ts", "x\n");
		expect(
			await call("edit", { path: "nomatch.ts", edits: [{ oldText: "absent", newText: "y" }] }).result,
		).toBeUndefined();
		expect(host.requests).toHaveLength(0);
	});

	test("print mode with no editor to show it: blocked, saying review is on and how to turn it off", async () => {
		const { call } = setup({ target: { none: "no editor is connected" }, hasUI: false });
		file("p.ts", "x\n");
		expect(await call("write", { path: "p.ts", content: "y\n" }).result).toEqual({
			block: true,
			reason: NO_REVIEWER_TEXT,
		});
	});

	test("review off: nothing happens", async () => {
		const { host, call } = setup({ standing: { on: false, source: "default" } });
		expect(await call("write", { path: "off.ts", content: "y\n" }).result).toBeUndefined();
		expect(host.requests).toHaveLength(0);
	});

	test("the session ends mid-review: the review stops undecided, its view closed, nothing written", async () => {
		const { gate, host, call } = setup();
		const path = file("end.ts", "x\n");
		const { result } = call("write", { path: "end.ts", content: "y\n" });
		await waitUntil(() => host.requests.length === 1);
		await gate.close();
		expect(host.closed).toBe(1);
		expect(await result).toMatchObject({ block: true, reason: expect.stringContaining("cancelled") });
		expect(readFileSync(path, "utf8")).toBe("x\n");
	});

	test("Esc stops the turn: the message's later calls are blocked without a view; the next turn reviews again", async () => {
		const { gate, host, ui, call } = setup();
		file("s1.ts", "x\n");
		const first = call("write", { path: "s1.ts", content: "y\n" });
		await ui.choose(undefined);
		await first.result;
		expect(await call("write", { path: "s1.ts", content: "z\n" }).result).toMatchObject({
			block: true,
			reason: expect.stringContaining("stopped the turn"),
		});
		expect(host.requests).toHaveLength(1);
		gate.turnEnded();
		const again = call("write", { path: "s1.ts", content: "z\n" });
		await waitUntil(() => host.requests.length === 2);
		await ui.choose("Reject");
		expect(await again.result).toMatchObject({ block: true });
	});

	test("RPC, no editor: the host's dialog carries a timeout; when it ends unanswered, the call is rejected", async () => {
		const { ui, clock, call } = setup({ target: { none: "no editor is connected" }, rpc: true });
		file("t.ts", "x\n");
		const { result } = call("write", { path: "t.ts", content: "y\n" });
		await waitUntil(() => ui.titles.length === 1);
		expect(ui.options[0]).toEqual({ timeout: 120_000 });
		clock.advance(120_000);
		expect(await result).toMatchObject({ block: true, reason: expect.stringContaining('"no answer in time"') });
	});

	test("RPC: a dialog pi's timer ended a little early by the clock (Node's loop time lags) still timed out", async () => {
		const { ui, clock, call } = setup({ target: { none: "no editor is connected" }, rpc: true });
		file("t3.ts", "x\n");
		const { result } = call("write", { path: "t3.ts", content: "y\n" });
		await waitUntil(() => ui.titles.length === 1);
		clock.advance(119_900);
		await ui.choose(undefined);
		expect(await result).toMatchObject({ block: true, reason: expect.stringContaining('"no answer in time"') });
	});

	test("RPC, the dialog timed out while the editor shows the diff: the editor decides", async () => {
		const { host, ui, clock, call } = setup({ rpc: true });
		file("t2.ts", "x\n");
		const { result } = call("write", { path: "t2.ts", content: "y\n" });
		await waitUntil(() => ui.titles.length === 1);
		clock.advance(120_000);
		host.answer({ kind: "accepted", text: "y\n" });
		expect(await result).toBeUndefined();
		expect(ui.titles).toHaveLength(1);
	});

	test("RPC, the view closed: asked again, saying so; the host keeps the first dialog, and either answer decides", async () => {
		const { host, ui, call } = setup({ rpc: true });
		file("t3.ts", "x\n");
		const { result } = call("write", { path: "t3.ts", content: "y\n" });
		await waitUntil(() => ui.titles.length === 1);
		host.answer({ kind: "closed" });
		await waitUntil(() => ui.titles.length === 2);
		expect(ui.titles[1]).toContain("The diff in Neovim was closed without a decision: decide here.");
		expect(ui.withdrawn).toBe(0);
		await ui.choose("Accept");
		expect(await result).toBeUndefined();
		expect(ui.withdrawn).toBe(1);
	});

	test("print mode, the view closed: not written, and not called the user's rejection", async () => {
		const { host, call } = setup({ hasUI: false });
		file("p2.ts", "x\n");
		const { result } = call("write", { path: "p2.ts", content: "y\n" });
		await waitUntil(() => host.requests.length === 1);
		host.answer({ kind: "closed" });
		const blocked = (await result) as { reason: string };
		expect(blocked.reason).toContain("the diff in Neovim was closed without a decision");
		expect(blocked.reason).toContain("The user did not reject it.");
	});

	test("an editor slow to show it: pi's select asks after a second, saying the diff is opening", async () => {
		const { ui, clock, call } = setup({ host: new ScriptedHost("never") });
		file("slow.ts", "x\n");
		const { result } = call("write", { path: "slow.ts", content: "y\n" });
		await waitUntil(() => clock.pendingTimers > 0);
		expect(ui.titles).toHaveLength(0);
		clock.advance(999);
		expect(ui.titles).toHaveLength(0);
		clock.advance(1);
		await waitUntil(() => ui.titles.length === 1);
		expect(ui.titles[0]).toContain("Opening the diff in Neovim...");
		await ui.choose("Reject");
		await result;
	});

	test("a secret file changed by the user: the model is told, without the diff", async () => {
		const { gate, host, call } = setup({ secret: true });
		file("secret.env", "KEY=1\n");
		const { event, result } = call("write", { path: "secret.env", content: "KEY=2\n" });
		await waitUntil(() => host.requests.length === 1);
		host.answer({ kind: "accepted", text: "KEY=sk-live-abc\n" });
		expect(await result).toBeUndefined();
		const patched = gate.toolResult({ toolCallId: event.toolCallId, isError: false, content: [] } as never);
		expect(JSON.stringify(patched)).toContain("secret file");
		expect(JSON.stringify(patched)).not.toContain("sk-live");
	});

	test("the session ends while a call is on its way to a review: no view opens", async () => {
		const host = new ScriptedHost();
		let release!: () => void;
		const gate = new ReviewGate({
			standing: () => ({ on: true, source: "global" }),
			target: () =>
				new Promise((done) => {
					release = () => done({ host, hint: "" });
				}),
			guard: async () => undefined,
			rpc: () => false,
			isSecretFile: () => false,
			clock: new ManualClock(),
		});
		file("late.ts", "x\n");
		const ctx = { cwd: dir.path, hasUI: true, ui: new ScriptedUi(new ManualClock()) } as unknown as ExtensionContext;
		const result = gate.toolCall(
			{
				type: "tool_call",
				toolName: "write",
				toolCallId: "late",
				input: { path: "late.ts", content: "y\n" },
			} as ToolCallEvent,
			ctx,
		);
		await waitUntil(() => release !== undefined);
		await gate.close();
		release();
		expect(await result).toMatchObject({ block: true });
		expect(host.requests).toHaveLength(0);
	});
});
