import { describe, expect, test } from "vitest";
import type { ToolAnswer, ToolCaller } from "../../../src/editors/tool-caller.ts";
import type { DiffRequest } from "../../../src/review/core/diff-host.ts";
import { tabNameOf } from "../../../src/review/core/open-diff.ts";
import { type ToolConnect, toolDiffHost } from "../../../src/review/hosts/tool-host.ts";

/** An editor answering `tools/call` as the test says: the IDE servers and the VS Code client's socket alike. */
function fakeCaller(options: { offers?: boolean } = {}) {
	const calls: { name: string; args: Record<string, unknown> }[] = [];
	const listeners = new Set<(method: string, params: unknown) => void>();
	let answerOpen!: (answer: ToolAnswer) => void;
	let closeConnection!: (reason: string) => void;
	const closed = new Promise<string>((resolve) => {
		closeConnection = resolve;
	});
	const caller: ToolCaller = {
		callTool: (name, args) => {
			calls.push({ name, args });
			if (name !== "openDiff") return Promise.resolve({ ok: true, result: {} });
			return new Promise<ToolAnswer>((resolve) => {
				answerOpen = resolve;
			});
		},
		offers: () => options.offers ?? true,
		onNotification: (listener) => {
			listeners.add(listener);
			return () => listeners.delete(listener);
		},
		whenClosed: () => closed,
	};
	const notify = (method: string, params: unknown) => {
		for (const listener of listeners) listener(method, params);
	};
	return { caller, calls, listeners, notify, closeConnection, answerOpen: (answer: ToolAnswer) => answerOpen(answer) };
}

const diff: DiffRequest = { id: "a1b2c3", file: "/p/a.ts", displayName: "a.ts", onDisk: "a\n", proposed: "b\n" };
const where = `tab "${tabNameOf(diff)}"`;
const saved = (...texts: string[]): ToolAnswer => ({
	ok: true,
	result: { content: texts.map((text) => ({ type: "text", text })) },
});

function connectTo(caller: ToolCaller): { connect: ToolConnect; released: () => number } {
	let released = 0;
	const connect: ToolConnect = async () => ({ ok: true, caller, release: () => released++ });
	return { connect, released: () => released };
}

describe("a review over openDiff", () => {
	test("an IDE server: shown once the call went out; its FILE_SAVED is the answer; close_tab on close", async () => {
		const fake = fakeCaller();
		const { connect, released } = connectTo(fake.caller);
		const view = toolDiffHost("IntelliJ IDEA", connect, { ownClient: false }).open(diff);
		expect(await view.shown).toEqual({ ok: true, where });
		fake.answerOpen(saved("FILE_SAVED", "mine\n"));
		expect(await view.answer).toEqual({ kind: "accepted", text: "mine\n" });
		await view.close();
		expect(fake.calls.map((call) => call.name)).toEqual(["openDiff", "close_tab"]);
		expect(fake.calls[1]?.args).toEqual({ tab_name: tabNameOf(diff) });
		expect(released()).toBe(1);
		expect(fake.listeners.size).toBe(0);
	});

	test("the VS Code client: shown on its pi/diffShown, closed on its pi/diffClosed", async () => {
		const fake = fakeCaller();
		const view = toolDiffHost("VS Code", connectTo(fake.caller).connect, { ownClient: true }).open(diff);
		await new Promise((done) => setImmediate(done));
		expect(fake.calls[0]?.args).toMatchObject({ old_file_contents: "a\n" });
		fake.notify("pi/diffShown", { tab_name: "another tab" });
		fake.notify("pi/diffShown", { tab_name: tabNameOf(diff) });
		expect(await view.shown).toEqual({ ok: true, where });
		fake.notify("pi/diffClosed", { tab_name: tabNameOf(diff) });
		expect(await view.answer).toEqual({ kind: "closed" });
		await view.close();
	});

	test("an answer that is not understood fails the show and the answer alike", async () => {
		const fake = fakeCaller();
		const view = toolDiffHost("VS Code", connectTo(fake.caller).connect, { ownClient: true }).open(diff);
		await new Promise((done) => setImmediate(done));
		fake.answerOpen(saved("MAYBE"));
		const reason = 'it answered openDiff with "MAYBE"';
		expect(await view.shown).toEqual({ ok: false, reason });
		expect(await view.answer).toEqual({ kind: "failed", reason });
	});

	test("no connection, no openDiff, a connection that ends: not shown or failed, with why", async () => {
		const refused = toolDiffHost("VS Code", async () => ({ ok: false, reason: "no socket" }), { ownClient: true });
		const none = refused.open(diff);
		expect(await none.shown).toEqual({ ok: false, reason: "no socket" });
		expect(await none.answer).toEqual({ kind: "failed", reason: "no socket" });
		await none.close();

		const mute = fakeCaller({ offers: false });
		const unoffered = toolDiffHost("Zed", connectTo(mute.caller).connect, { ownClient: false }).open(diff);
		expect(await unoffered.shown).toEqual({ ok: false, reason: "it does not offer openDiff" });

		const ending = fakeCaller();
		const view = toolDiffHost("IntelliJ IDEA", connectTo(ending.caller).connect, { ownClient: false }).open(diff);
		expect((await view.shown).ok).toBe(true);
		ending.closeConnection("the server went away");
		expect(await view.answer).toEqual({ kind: "failed", reason: "the server went away" });
	});

	test("closed by pi at once: the answer fails as closed by pi; the tab asked for is closed, none opened", async () => {
		const fake = fakeCaller();
		const { connect, released } = connectTo(fake.caller);
		const view = toolDiffHost("VS Code", connect, { ownClient: true }).open(diff);
		await view.close();
		expect(await view.shown).toEqual({ ok: false, reason: "closed by pi" });
		expect(await view.answer).toEqual({ kind: "failed", reason: "closed by pi" });
		await view.close();
		expect(fake.calls.map((call) => call.name)).toEqual(["close_tab"]);
		expect(released()).toBeGreaterThan(0);
	});

	test("closed by pi while the editor shows it: a later answer is not the review's", async () => {
		const fake = fakeCaller();
		const view = toolDiffHost("IntelliJ IDEA", connectTo(fake.caller).connect, { ownClient: false }).open(diff);
		expect((await view.shown).ok).toBe(true);
		await view.close();
		fake.answerOpen(saved("FILE_SAVED"));
		expect(await view.answer).toEqual({ kind: "failed", reason: "closed by pi" });
	});

	test("a caller that throws is the editor failing, never a rejection", async () => {
		const fake = fakeCaller();
		const throwing: ToolCaller = {
			...fake.caller,
			callTool: () => {
				throw new Error("boom");
			},
		};
		const view = toolDiffHost("VS Code", connectTo(throwing).connect, { ownClient: true }).open(diff);
		expect(await view.answer).toEqual({ kind: "failed", reason: "the review failed: Error: boom" });
	});
});
