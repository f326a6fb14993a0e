import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { PUSH_LUA } from "../../../src/editors/neovim/core/lua.ts";
import { SUGGEST_SHOW_LUA, SUGGEST_START_LUA, SUGGEST_STOP_LUA } from "../../../src/editors/neovim/core/suggest-lua.ts";
import { parseSuggestAsk, type SuggestAsk } from "../../../src/editors/neovim/core/suggest-protocol.ts";
import { RpcConnection } from "../../../src/editors/neovim/rpc.ts";
import { systemClock } from "../../../src/shared/clock.ts";
import { bufferLines, ghostLeftovers, ghostMarks, NOTHING_LEFT } from "../../support/neovim-ghost.ts";
import { RealNeovim, requireNeovim } from "../../support/real-neovim.ts";
import { tempDir } from "../../support/temp-dir.ts";
import { waitFor } from "../../support/wait-for.ts";

/**
 * The ghost text's Lua in a real (headless) Neovim 0.7.2, driven as pi drives it by a connection of the test's
 * own (its channel is "pi"): asks after a pause, drawn only while it fits, the keys, one undo step, one owner,
 * nothing left after a stop or once the channel is gone.
 */
const available = requireNeovim("the Neovim ghost text's Lua tests");

const DEBOUNCE_MS = 60;
const KEYS = { accept: "<M-l>", next: "<M-]>", previous: "<M-[>", dismiss: "<C-]>", ask: "<M-\\>" };
const TEXT = "const a = 1;\nconst b = \nlast line\n";

/** A connection playing pi: its channel, what Neovim notified it, the chunks run with its arguments. */
class FakePi {
	readonly asks: SuggestAsk[] = [];
	readonly cancels: number[] = [];
	private constructor(
		readonly rpc: RpcConnection,
		readonly channel: number,
	) {}

	static async connect(socket: string): Promise<FakePi> {
		const asks: SuggestAsk[] = [];
		const cancels: number[] = [];
		const rpc = await RpcConnection.open(socket, {
			clock: systemClock,
			timeoutMs: 2000,
			onNotification: (method, params) => {
				if (method === "pi_ide_suggest") {
					const parsed = parseSuggestAsk(params);
					if (!parsed.ok) throw new Error(parsed.reason);
					asks.push(parsed.value);
				} else if (method === "pi_ide_suggest_cancel") cancels.push((params as [{ id: number }])[0].id);
			},
		});
		if (typeof rpc === "string") throw new Error(rpc);
		const info = await rpc.request("nvim_get_api_info", [], 2000);
		const pi = new FakePi(rpc, (info.ok && (info.value as unknown[])[0]) as number);
		Object.assign(pi, { asks, cancels });
		return pi;
	}

	async run(chunk: string, ...args: unknown[]): Promise<unknown> {
		const answer = await this.rpc.request("nvim_exec_lua", [chunk, args], 2000);
		if (!answer.ok) throw new Error(answer.reason);
		return answer.value;
	}

	start(keys: Record<string, string> = KEYS): Promise<unknown> {
		return this.run(SUGGEST_START_LUA, this.channel, { debounce_ms: DEBOUNCE_MS, keys });
	}

	show(ask: SuggestAsk, texts: string[]): Promise<unknown> {
		return this.run(SUGGEST_SHOW_LUA, this.channel, ask.id, ask.tick, texts);
	}

	stop(): Promise<unknown> {
		return this.run(SUGGEST_STOP_LUA, this.channel);
	}

	nextAsk(count: number): Promise<SuggestAsk> {
		return waitFor(`ask #${count}`, () => this.asks[count - 1], 3000);
	}
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

describe.skipIf(!available)("the ghost text's Lua in a real Neovim", () => {
	let dir: { path: string; cleanup: () => void };
	let nvim: RealNeovim;
	const file = () => join(dir.path, "proj", "main.ts");
	const pis: FakePi[] = [];

	beforeAll(async () => {
		dir = tempDir("nvim-suggest");
		mkdirSync(join(dir.path, "proj"));
		writeFileSync(file(), TEXT);
		nvim = await RealNeovim.start({
			cwd: join(dir.path, "proj"),
			args: ["main.ts"],
			tmpDir: join(dir.path, "tmp"),
			ui: false,
		});
	});
	afterAll(() => {
		nvim?.kill();
		dir?.cleanup();
	});
	afterEach(async () => {
		for (const pi of pis.splice(0)) {
			await pi.stop().catch(() => {});
			pi.rpc.close();
		}
		await nvim.keys("<Esc><Esc>", "n");
		await nvim.command("silent! iunmap <M-l>");
		await nvim.command("silent! edit! main.ts");
		// What the test's own cleanup left in v:errmsg is not pi's.
		await nvim.lua("vim.v.errmsg = ''");
	});

	async function pi(): Promise<FakePi> {
		const connected = await FakePi.connect(nvim.socket);
		pis.push(connected);
		return connected;
	}

	/** Insert mode at the end of line 2 (`const b = `), `typed` typed there. */
	async function typeAtLineEnd(typed: string): Promise<void> {
		await nvim.keys("2GA", "i");
		await nvim.keys(typed);
	}

	test("start claims the suggestions for pi's channel: a TextChangedI timer, the ask key, nothing per key more", async () => {
		const owner = await pi();
		expect(await owner.start()).toEqual({ owner: owner.channel, unoffered: [] });
		const left = await ghostLeftovers(nvim);
		expect(left.owner).toBe(owner.channel);
		expect(left.modules).toEqual([`pi_ide_suggest.${owner.channel}`]);
		expect(left.maps).toEqual(["<M-Bslash>"]);
		expect(left.autocmds.sort()).toEqual(
			["BufLeave", "InsertLeave", "TextChangedI", "User"].map((event) => `pi_ide_suggest_${owner.channel} ${event}`),
		);
	});

	test("a pause at a line's end asks once with the buffer's context; the answer is drawn past the line's end", async () => {
		const owner = await pi();
		await owner.start();
		await typeAtLineEnd("4");
		const ask = await owner.nextAsk(1);
		expect(ask.request).toEqual({
			filePath: file(),
			language: "typescript",
			cursorBefore: "const a = 1;\nconst b = 4",
			cursorAfter: "\nlast line",
			suggestionCount: 3,
		});
		await sleep(DEBOUNCE_MS * 3);
		expect(owner.asks).toHaveLength(1);
		expect(await owner.show(ask, ["2;"])).toBe("shown");
		expect(await ghostMarks(nvim)).toEqual([{ row: 1, col: 11, text: "2;", below: [], pos: "overlay" }]);
		const maps = (await ghostLeftovers(nvim)).maps.sort();
		expect(maps).toEqual(["<C-]>", "<M-Bslash>", "<M-l>", "<M-[>", "<M-]>"].sort());
	});

	test("accept: the text in the buffer, the cursor after it, one undo step of its own", async () => {
		const owner = await pi();
		await owner.start();
		await typeAtLineEnd("f");
		const ask = await owner.nextAsk(1);
		expect(await owner.show(ask, ["oo(\n  bar)"])).toBe("shown");
		expect(await ghostMarks(nvim)).toEqual([{ row: 1, col: 11, text: "oo(", below: ["  bar)"], pos: "overlay" }]);
		await nvim.keys("<M-l>");
		await waitFor("the accepted text", async () => (await bufferLines(nvim))[2] === "  bar)");
		await nvim.keys("X<Esc>", "n");
		expect(await bufferLines(nvim)).toEqual(["const a = 1;", "const b = foo(", "  bar)X", "last line"]);
		expect(await ghostMarks(nvim)).toEqual([]);
		expect((await ghostLeftovers(nvim)).maps).toEqual(["<M-Bslash>"]);
		await nvim.keys("u", "n");
		expect(await bufferLines(nvim)).toEqual(["const a = 1;", "const b = foo(", "  bar)", "last line"]);
		await nvim.keys("u", "n");
		expect(await bufferLines(nvim)).toEqual(["const a = 1;", "const b = f", "last line"]);
	});

	test("cycle with [i/n], dismiss by key; typing the next characters uses the text up without asking", async () => {
		const owner = await pi();
		await owner.start();
		await typeAtLineEnd("x");
		const ask = await owner.nextAsk(1);
		await owner.show(ask, ["yz;", "y2;", "w;"]);
		expect((await ghostMarks(nvim))[0]?.text).toBe("yz;  [1/3]");
		await nvim.keys("<M-]>");
		await waitFor("the second", async () => (await ghostMarks(nvim))[0]?.text === "y2;  [2/3]");
		await nvim.keys("<M-[><M-[>");
		await waitFor("the third, backwards", async () => (await ghostMarks(nvim))[0]?.text === "w;  [3/3]");
		await nvim.keys("<M-]>");
		await waitFor("the first again", async () => (await ghostMarks(nvim))[0]?.text === "yz;  [1/3]");
		// "y" fits two of them: both kept, the one shown first; nothing asked while typing through.
		await nvim.keys("y");
		await waitFor("used up by y", async () => (await ghostMarks(nvim))[0]?.text === "z;  [1/2]");
		expect((await ghostMarks(nvim))[0]?.col).toBe(12);
		await nvim.keys("z");
		await waitFor("used up by z", async () => (await ghostMarks(nvim))[0]?.text === ";");
		await sleep(DEBOUNCE_MS * 3);
		expect(owner.asks).toHaveLength(1);
		await nvim.keys("<C-]>");
		await waitFor("dismissed", async () => (await ghostMarks(nvim)).length === 0);
		expect((await ghostLeftovers(nvim)).maps).toEqual(["<M-Bslash>"]);
		expect(await bufferLines(nvim)).toContain("const b = xyz");
	});

	test("typing something else dismisses it and asks again after the pause; a stale answer is never drawn", async () => {
		const owner = await pi();
		await owner.start();
		await typeAtLineEnd("a");
		const first = await owner.nextAsk(1);
		await owner.show(first, ["bc"]);
		await nvim.keys("q");
		await waitFor("dismissed by another character", async () => (await ghostMarks(nvim)).length === 0);
		const second = await owner.nextAsk(2);
		expect(second.request).toMatchObject({ cursorBefore: "const a = 1;\nconst b = aq" });
		// Typed on before the answer came: a cancel, and the late answer is not drawn.
		await nvim.keys("r");
		await waitFor("the cancel", () => owner.cancels.includes(second.id));
		expect(await owner.show(second, ["late"])).toBe("stale");
		const third = await owner.nextAsk(3);
		// An answer to an older id than the latest is stale too.
		expect(await owner.show(second, ["older"])).toBe("stale");
		expect(await ghostMarks(nvim)).toEqual([]);
		// The cursor moved away before the answer: stale.
		await nvim.keys("<Left>");
		expect(await owner.show(third, ["moved"])).toBe("stale");
		expect(await ghostMarks(nvim)).toEqual([]);
	});

	test("the ask key asks at once; leaving Insert mode cancels what is asked; the rest of the line not empty: not asked", async () => {
		const owner = await pi();
		await owner.start();
		await nvim.keys("2GA", "i");
		await nvim.keys("<M-\\>");
		const ask = await owner.nextAsk(1);
		expect(ask.byHand).toBe(true);
		await nvim.keys("<Esc>", "n");
		await waitFor("the cancel", () => owner.cancels.includes(ask.id));
		expect(await owner.show(ask, ["x"])).toBe("stale");
		// In the middle of a line (0.7 draws only past its end): nothing asked, by pause or by key.
		await nvim.keys("1G0i", "i");
		await nvim.keys("z<M-\\>");
		await sleep(DEBOUNCE_MS * 3);
		expect(owner.asks).toHaveLength(1);
	});

	test("a key the user maps is not offered, and their mapping is left alone", async () => {
		await nvim.command("inoremap <M-l> USER");
		const owner = await pi();
		await owner.start();
		await typeAtLineEnd("1");
		const ask = await owner.nextAsk(1);
		expect(ask.unoffered).toEqual(["accept"]);
		await owner.show(ask, ["23"]);
		await nvim.keys("<M-l>");
		await waitFor("the user's mapping ran", async () => (await bufferLines(nvim))[1] === "const b = 1USER");
		await nvim.keys("<Esc>", "n");
		await owner.stop();
		expect(await nvim.lua(`return vim.fn.maparg("<M-l>", "i")`)).toBe("USER");
	});

	test("one owner: a second pi is told whose they are; once they are free it takes them", async () => {
		const first = await pi();
		const second = await pi();
		await first.start();
		expect(await second.start()).toEqual({ owner: first.channel });
		await first.stop();
		expect(await ghostLeftovers(nvim)).toEqual(NOTHING_LEFT);
		expect(await second.start()).toMatchObject({ owner: second.channel });
		// The owner's connection gone: the claim no longer stands, and what it left goes.
		second.rpc.close();
		const third = await pi();
		expect(await third.start()).toMatchObject({ owner: third.channel });
		expect((await ghostLeftovers(nvim)).modules).toEqual([`pi_ide_suggest.${third.channel}`]);
	});

	test("stopped: nothing left (ghost text, mappings, autocmds, the claim, the module)", async () => {
		const owner = await pi();
		await owner.start();
		await typeAtLineEnd("9");
		await owner.show(await owner.nextAsk(1), ["9;"]);
		expect(await ghostMarks(nvim)).toHaveLength(1);
		await owner.stop();
		expect(await ghostLeftovers(nvim)).toEqual(NOTHING_LEFT);
		expect(await nvim.lua("return vim.v.errmsg")).toBe("");
	});

	test("pi gone with ghost text on screen: everything goes at Neovim's next key (the pushes' failure says so)", async () => {
		const owner = await pi();
		await owner.run(PUSH_LUA, owner.channel, `pi_ide_${owner.channel}`, 20);
		await owner.start();
		await typeAtLineEnd("7");
		await owner.show(await owner.nextAsk(1), ["7;"]);
		await nvim.keys("<Esc>", "n");
		owner.rpc.close();
		await nvim.keys("k", "n");
		await waitFor("nothing left after one key", async () => {
			const left = await ghostLeftovers(nvim);
			return JSON.stringify(left) === JSON.stringify(NOTHING_LEFT);
		});
		expect(await nvim.piGroups()).toEqual([]);
		expect(await nvim.lua("return vim.v.errmsg")).toBe("");
	});

	test("pi gone without pushes: the next ask's failed notification takes everything", async () => {
		const owner = await pi();
		await owner.start();
		owner.rpc.close();
		await typeAtLineEnd("5");
		await waitFor("nothing left after the pause", async () => {
			const left = await ghostLeftovers(nvim);
			return JSON.stringify(left) === JSON.stringify(NOTHING_LEFT);
		});
		expect(await nvim.lua("return vim.v.errmsg")).toBe("");
	});

	test("the context is cut at 8 KiB each side, never inside a character", async () => {
		const big = `${"é".repeat(6000)}\n`.repeat(3);
		writeFileSync(join(dir.path, "proj", "big.ts"), `${big}tail = \n${big}`);
		await nvim.command("edit big.ts");
		const owner = await pi();
		await owner.start();
		await nvim.keys("4GA", "i");
		await nvim.keys("1");
		const request = (await owner.nextAsk(1)).request as { cursorBefore: string; cursorAfter: string };
		expect(Buffer.byteLength(request.cursorBefore)).toBeLessThanOrEqual(8192);
		expect(Buffer.byteLength(request.cursorBefore)).toBeGreaterThan(8180);
		expect(request.cursorBefore.endsWith("é\ntail = 1")).toBe(true);
		expect(request.cursorBefore).not.toContain("\uFFFD");
		expect(Buffer.byteLength(request.cursorAfter)).toBeLessThanOrEqual(8192);
		expect(request.cursorAfter.startsWith("\néé")).toBe(true);
		await nvim.keys("<Esc>", "n");
		await nvim.command("edit! main.ts");
	});
});
