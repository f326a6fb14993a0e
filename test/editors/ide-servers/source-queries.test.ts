import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { IDE_SELECTION_REPLAY_MS, PROMPT_FLUSH_TIMEOUT_MS } from "../../../src/shared/core/timing.ts";
import { FLAVOURS, type IdeFlavour } from "../../support/ide-server-flavours.ts";
import { waitFor } from "../../support/wait-for.ts";
import { editorOf, lockOf, methodsSeen, range, SourceHarness } from "./source-harness.ts";

/**
 * What the IDE server source asks of a connected server, flavour by flavour: the state at connect (a queried
 * or replayed selection is stale), the unsaved documents, the ask before a prompt of a server silent on a file
 * switch, and the JSON-RPC pings JetBrains sends while a request of pi's is pending.
 */

const ALL = Object.keys(FLAVOURS) as IdeFlavour[];
const KEY = SourceHarness.KEY;
const offers = (tool: string) => ALL.filter((flavour) => FLAVOURS[flavour].tools.includes(tool));
const count = (methods: string[], method: string) => methods.filter((seen) => seen === method).length;

let h: SourceHarness;
beforeEach(() => {
	h = new SourceHarness();
});
afterEach(() => h.close());

describe.each(offers("getCurrentSelection"))("%s's state at connect", (flavour) => {
	test("read by query: the file and selection, the selection stale (pi did not see it made)", async () => {
		const server = await h.server(flavour);
		const file = h.file("a.ts");
		server.setEditor({ file, text: "1\n2\n3\n", selection: range(0, 0, 1, 0), selectedText: "line 1\n" });
		const source = await h.source();
		await h.connect(source, { pastReplay: false });
		expect(methodsSeen(server)).toContain("tools/call getCurrentSelection");
		const buffer = await waitFor("the queried file", () => editorOf(source)?.state.active_buffer ?? undefined);
		expect(buffer).toMatchObject({ file, lines_total: 4, cursor: { line: 2, column: 1 } });
		expect(buffer.selection).toEqual({
			start: { line: 1, column: 1 },
			end: { line: 1, column: 6 },
			text: "line 1\n",
			selected_at: null,
		});
	});
});

describe("VS Code's replay and its silence on a file switch", () => {
	test("the selection replayed after connecting has no time; one made after the replay window is fresh", async () => {
		// Released by the test, not after a real delay: the replay lands after the connect's own queries, as VS Code's does.
		const server = await h.server("vscode", { replayDelayMs: "held" });
		const file = h.file("a.ts");
		// The user selected line 1 (pushed, to no client), then moved the cursor within the debounce (not pushed).
		server.setEditor({ file, selection: range(0, 0, 1, 0), selectedText: "line 1\n" });
		server.setEditor({ selection: range(3, 0, 3, 0), selectedText: "" }, { push: false });
		const source = await h.source();
		await h.connect(source, { pastReplay: false });
		await waitFor("the connect's queries answered", () => editorOf(source)?.state.active_buffer?.cursor?.line === 4);
		expect(editorOf(source)?.state.active_buffer).toMatchObject({ cursor: { line: 4, column: 1 }, selection: null });
		h.clock.advance(IDE_SELECTION_REPLAY_MS - 1);
		server.releaseReplay();
		await waitFor("the replay", () => editorOf(source)?.state.active_buffer?.selection ?? undefined);
		expect(editorOf(source)?.state.active_buffer?.selection).toMatchObject({ text: "line 1\n", selected_at: null });
		h.clock.advance(200);
		server.setEditor({ selection: range(2, 0, 2, 4), selectedText: "line" });
		await waitFor("the new selection", () => editorOf(source)?.state.active_buffer?.selection?.text === "line");
		expect(editorOf(source)?.state.active_buffer?.selection?.selected_at).toBe(h.clock.nowSeconds());
	});

	test("pending before every prompt: flush asks what it shows and picks up the file switched to", async () => {
		const server = await h.server("vscode");
		const [a, b] = [h.file("a.ts"), h.file("b.ts", 9)];
		server.setEditor({ file: a, selection: range(0, 0, 0, 0) });
		const source = await h.source();
		await h.connect(source);
		expect(editorOf(source)?.state.active_buffer?.file).toBe(a);
		expect(source.isPending(KEY)).toBe(true);
		const pushes = lockOf(source)?.session?.pushes;
		server.setEditor({ file: b, text: "b\n" });
		const before = methodsSeen(server);
		await source.flush(KEY);
		expect(lockOf(source)?.session?.pushes).toBe(pushes);
		const asked = methodsSeen(server).slice(before.length);
		expect(asked).toEqual(expect.arrayContaining(["tools/call getOpenEditors", "tools/call getCurrentSelection"]));
		expect(editorOf(source)?.state.active_buffer).toMatchObject({ file: b, lines_total: 2 });
		await waitFor("b's diagnostics asked", () => methodsSeen(server).includes("tools/call getDiagnostics"));
	});

	test("a flush the server does not answer ends at the prompt's cap; the last known state stays", async () => {
		const server = await h.server("vscode");
		const a = h.file("a.ts");
		server.setEditor({ file: a, selection: range(0, 0, 0, 0) });
		const source = await h.source();
		await h.connect(source);
		server.holdTool("getOpenEditors");
		server.holdTool("getCurrentSelection");
		server.setEditor({ file: h.file("b.ts") });
		let done = false;
		const flushed = source.flush(KEY).then(() => {
			done = true;
		});
		await waitFor("both asked", () => count(methodsSeen(server), "tools/call getCurrentSelection") === 2);
		h.clock.advance(PROMPT_FLUSH_TIMEOUT_MS - 1);
		await new Promise((resolve) => setImmediate(resolve));
		expect(done).toBe(false);
		h.clock.advance(1);
		await flushed;
		expect(editorOf(source)?.state.active_buffer?.file).toBe(a);
		expect(lockOf(source)?.session?.lastRequest?.failure).toMatch(/no answer to tools\/call within 250 ms/);
	});

	test("a server that pushes on a file switch is not asked before a prompt", async () => {
		const server = await h.server("claudecode-nvim");
		const source = await h.source();
		await h.connect(source);
		expect(source.isPending(KEY)).toBe(false);
		const before = methodsSeen(server).length;
		await source.flush(KEY);
		expect(methodsSeen(server)).toHaveLength(before);
	});
});

describe("diagnostics across a quick file switch", () => {
	test("switched while the last file's are still asked: the new file's are asked too, the old answer dropped", async () => {
		const server = await h.server("claudecode-nvim");
		const source = await h.source();
		await h.connect(source);
		const [a, b] = [h.file("a.ts"), h.file("b.ts")];
		const diagnostics = {
			[a]: [{ message: "bad a", severity: "error" as const, line: 0, character: 0 }],
			[b]: [{ message: "bad b", severity: "error" as const, line: 0, character: 0 }],
		};
		const held = server.holdTool("getDiagnostics");
		server.setEditor({ file: a, diagnostics, selection: range(0, 0, 0, 0) });
		await waitFor("a's asked", () => methodsSeen(server).includes("tools/call getDiagnostics"));
		server.setEditor({ file: b, selection: range(1, 0, 1, 0) });
		await waitFor(
			"b's diagnostics",
			() => editorOf(source)?.state.active_buffer?.diagnostics?.[0]?.message === "bad b",
		);
		expect(count(methodsSeen(server), "tools/call getDiagnostics")).toBe(2);
		// a's answer, released now, comes too late to count.
		held.release();
		await new Promise((done) => setTimeout(done, 50));
		expect(editorOf(source)?.state.active_buffer).toMatchObject({ file: b, diagnostics: [{ message: "bad b" }] });
	});
});

describe.each(ALL)("%s's unsaved documents", (flavour) => {
	const { dirtyTools } = FLAVOURS[flavour];

	test(
		dirtyTools ? "from getOpenEditors, asked again at a tool call" : "unknown: the guard is not available",
		async () => {
			const server = await h.server(flavour);
			const [a, b] = [h.file("a.ts"), h.file("b.ts")];
			server.setEditor({ file: a, text: "x\ny\n", dirty: [a, b], selection: range(0, 0, 0, 0) });
			const source = await h.source();
			await h.connect(source);
			const deadline = () => h.clock.nowMs() + 150;
			if (!dirtyTools) {
				expect(editorOf(source)).toMatchObject({ unsavedUnknown: "not-told" });
				expect(editorOf(source)?.unsavedFiles).toBeUndefined();
				expect(await source.unsavedNow(KEY, deadline(), a)).toBeUndefined();
				return;
			}
			expect(editorOf(source)?.unsavedFiles).toEqual([a, b]);
			expect(editorOf(source)?.state.active_buffer).toMatchObject({ file: a, modified: true, lines_total: 3 });
			server.setEditor({ dirty: [b] }, { push: false });
			expect(await source.unsavedNow(KEY, deadline(), a)).toEqual([b]);
			// getOpenEditors not answering within the budget: the target asked with checkDocumentDirty in what is left.
			server.holdTool("getOpenEditors");
			const asked = source.unsavedNow(KEY, deadline(), b);
			await waitFor("getOpenEditors asked", () => count(methodsSeen(server), "tools/call getOpenEditors") === 3);
			h.clock.advance(150);
			expect(await asked).toContain(b);
			expect(server.received.at(-1)?.message.params).toEqual({
				name: "checkDocumentDirty",
				arguments: { filePath: b },
			});
			// A deadline already passed: nothing asked.
			const seen = server.received.length;
			expect(await source.unsavedNow(KEY, h.clock.nowMs(), a)).toBeUndefined();
			expect(server.received).toHaveLength(seen);
		},
	);
});

describe("keep-alive", () => {
	test("JetBrains' JSON-RPC pings are answered, also while a request of pi's is held", async () => {
		const server = await h.server("jetbrains");
		const source = await h.source();
		await h.connect(source);
		expect(await server.pingClients(1000)).toEqual([true]);
		const held = server.holdTool("getDiagnostics");
		server.setEditor({ file: h.file("a.ts"), selection: range(0, 0, 0, 0) });
		await waitFor("getDiagnostics pending", () => methodsSeen(server).includes("tools/call getDiagnostics"));
		expect(await server.pingClients(1000)).toEqual([true]);
		held.release();
		expect(lockOf(source)?.connection).toBe("connected");
	});

	test("nvim's WebSocket pings are answered: the client is not dropped", async () => {
		const server = await h.server("claudecode-nvim", { wsPingMs: 40 });
		const source = await h.source();
		await h.connect(source);
		await new Promise((done) => setTimeout(done, 200));
		expect(server.openClients).toBe(1);
		expect(lockOf(source)?.connection).toBe("connected");
	});
});
