import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { ASK_START_WAIT_MS } from "../../src/shared/core/timing.ts";
import { tempDir } from "../support/temp-dir.ts";
import { askRig, fakeEditor } from "./ask-rig.ts";

const cleanups: (() => void)[] = [];
afterEach(() => {
	for (const cleanup of cleanups.splice(0)) cleanup();
});

function project() {
	const dir = tempDir("asks-edges");
	cleanups.push(dir.cleanup);
	mkdirSync(join(dir.path, "src"));
	writeFileSync(join(dir.path, "src", "a.ts"), "one\ntwo\n");
	const rig = askRig(dir.path);
	cleanups.push(() => rig.service.close());
	return rig;
}

describe("an ask's edges: a refused send, control characters, a compaction before the run", () => {
	test("a send pi refuses forgets that ask only: another editor's waiting ask still starts its run", async () => {
		const { ask, input, state, service } = project();
		const [a, b] = [fakeEditor(31), fakeEditor(32)];
		const sentA = await ask(a, { prompt: "from a" });
		state.sendThrows = new Error("refused");
		expect(await ask(b, { prompt: "from b" })).toBeUndefined();
		expect(input(sentA ?? "")).toBe("from a");
		expect(service.promptFrom("from a")).toBe("asked from Neovim 31, now connected to it");
		service.agentStarted();
		expect(a.statuses()).toEqual(["pi: working (faux/model-1)"]);
		expect(b.statuses()).toEqual(["pi: not sent: refused"]);
		service.close();
		expect(b.statuses()).toEqual(["pi: not sent: refused"]);
	});

	test("control characters and escape sequences the user's text holds are dropped; lines and tabs stay", async () => {
		const { ask, input } = project();
		const sent = await ask(fakeEditor(33), { prompt: "hi\u001b]0;title\u0007 \u001b[2J there\u202e\nnext\tline" });
		expect(input(sent ?? "")).toBe("hi  there\nnext\tline");
	});

	test("a compaction between the input and the run: the ask waits for it, then starts the run told as usual", async () => {
		const { ask, input, clock, service } = project();
		const neovim = fakeEditor(34);
		const text = input((await ask(neovim, { prompt: "after compaction" })) ?? "");
		service.setCompacting(true);
		clock.advance(10 * ASK_START_WAIT_MS);
		expect(neovim.told).toEqual([]);
		service.setCompacting(false);
		expect(service.promptFrom(text)).toBe("asked from Neovim 34, now connected to it");
		service.agentStarted();
		expect(neovim.statuses()).toEqual(["pi: working (faux/model-1)"]);
		clock.advance(10 * ASK_START_WAIT_MS);
		expect(neovim.statuses()).toEqual(["pi: working (faux/model-1)"]);
	});
});
