import { describe, expect, test } from "vitest";
import type { EditorRequest, EditorRequestAnswer, EditorRequests } from "../../../src/editors/editor-source.ts";
import { SUGGEST_SHOW_LUA, SUGGEST_START_LUA, SUGGEST_STOP_LUA } from "../../../src/editors/neovim/core/suggest-lua.ts";
import type { NeovimRequest } from "../../../src/editors/neovim/requests.ts";
import type { RpcAnswer } from "../../../src/editors/neovim/rpc.ts";
import { NeovimSuggestions } from "../../../src/editors/neovim/suggestions.ts";
import { SUGGESTION_KEYS_DEFAULT } from "../../../src/settings/core/settings.ts";
import { ManualClock } from "../../support/clocks.ts";
import { waitFor } from "../../support/wait-for.ts";

/**
 * One Neovim's ghost text on pi's side, against a Neovim that answers what the test says and an answerer that
 * records what it was handed: started and stopped as wanted, asks handed on only while on, answers sent back.
 */
const CHANNEL = 7;
const KEY = "pid:4242";
const REQUEST = { filePath: "/p/a.ts", cursorBefore: "x = ", cursorAfter: "" };
const ask = (id: number, tick = 10) => [{ id, tick, buf: 1, unoffered: [], request: REQUEST }];

function rig(options: { own?: boolean; answer?: (request: EditorRequest) => EditorRequestAnswer } = {}) {
	const clock = new ManualClock();
	let own = options.own ?? true;
	const seen = { asked: [] as EditorRequest[], cancelled: [] as unknown[], gone: 0 };
	const requests: EditorRequests = {
		wanted: () => true,
		ownEditors: () => own,
		onStandingChange: () => () => {},
		answer: async (key, request) => {
			expect(key).toBe(KEY);
			seen.asked.push(request);
			return options.answer?.(request) ?? { result: { suggestions: ["2;"] } };
		},
		cancelled: (key, id) => seen.cancelled.push([key, id]),
		gone: () => {
			seen.gone++;
		},
	};
	/** Each chunk run, and how Neovim answers the next ones (by chunk). */
	const runs: { what: string; chunk: string; args: unknown[] }[] = [];
	const answers = new Map<string, RpcAnswer>([
		[SUGGEST_START_LUA, { ok: true, value: { owner: CHANNEL, unoffered: [] } }],
		[SUGGEST_SHOW_LUA, { ok: true, value: "shown" }],
		[SUGGEST_STOP_LUA, { ok: true, value: true }],
	]);
	const suggestions = new NeovimSuggestions({
		key: KEY,
		requests,
		options: { debounceMs: 300, keys: SUGGESTION_KEYS_DEFAULT },
		clock,
		channel: () => CHANNEL,
		run: async (what, [, params]: NeovimRequest) => {
			const [chunk, args] = params as [string, unknown[]];
			runs.push({ what, chunk, args });
			return answers.get(chunk) ?? { ok: false, reason: "unknown chunk" };
		},
	});
	return {
		clock,
		suggestions,
		seen,
		runs,
		answers,
		setOwn: (value: boolean) => {
			own = value;
		},
		chunks: () => runs.map((run) => run.what),
	};
}

describe("one Neovim's ghost text on pi's side", () => {
	test("started with the channel and the settings; Neovim's ask handed on under the editor's key; the answer sent back", async () => {
		const r = rig();
		await r.suggestions.set(true);
		expect(r.runs[0]?.args).toEqual([
			CHANNEL,
			{
				debounce_ms: 300,
				keys: { accept: "<M-l>", next: "<M-]>", previous: "<M-[>", dismiss: "<C-]>", ask: "<M-\\>" },
			},
		]);
		expect(r.suggestions.isOn).toBe(true);
		expect(r.suggestions.notification("pi_ide_suggest", ask(1, 41))).toBe(true);
		await waitFor("the answer sent back", () => r.runs.find((run) => run.what === "suggestion"));
		expect(r.seen.asked).toEqual([{ id: 1, method: "getSuggestions", params: REQUEST }]);
		expect(r.runs.at(-1)?.args).toEqual([CHANNEL, 1, 41, ["2;"]]);
		await waitFor("counted", () => r.suggestions.report()?.counts.shown === 1);
		expect(r.suggestions.report()).toMatchObject({ state: "on", counts: { asked: 1, shown: 1 } });
	});

	test("a cancelled answer draws nothing; a failed one draws none (Neovim stops waiting)", async () => {
		let n = 0;
		const r = rig({
			answer: () =>
				++n === 1 ? { error: { code: -32800, message: "cancelled" } } : { error: { code: -32603, message: "x" } },
		});
		r.answers.set(SUGGEST_SHOW_LUA, { ok: true, value: "empty" });
		await r.suggestions.set(true);
		r.suggestions.notification("pi_ide_suggest", ask(1));
		r.suggestions.notification("pi_ide_suggest", ask(2));
		await waitFor("the second's none", () => r.runs.find((run) => run.what === "suggestion"));
		expect(r.runs.filter((run) => run.what === "suggestion").map((run) => run.args)).toEqual([[CHANNEL, 2, 10, []]]);
		await waitFor("counted", () => r.suggestions.report()?.counts.empty === 1);
	});

	test("Neovim's cancel reaches the answerer; nonsense is a reason in /ide status", async () => {
		const r = rig();
		await r.suggestions.set(true);
		r.suggestions.notification("pi_ide_suggest_cancel", [{ id: 3 }]);
		expect(r.seen.cancelled).toEqual([[KEY, 3]]);
		r.suggestions.notification("pi_ide_suggest", [{ id: "x" }]);
		expect(r.suggestions.report()?.problem).toBe("a suggestion's ask without its id or tick");
		expect(r.suggestions.notification("pi_ide_state", [])).toBe(false);
	});

	test("an ask that crosses a stop, or comes once suggestions are off, reaches no model", async () => {
		const r = rig();
		r.suggestions.notification("pi_ide_suggest", ask(1));
		await r.suggestions.set(true);
		r.setOwn(false);
		r.suggestions.notification("pi_ide_suggest", ask(2));
		await new Promise((done) => setImmediate(done));
		expect(r.seen.asked).toEqual([]);
	});

	test("stopped: the stop chunk, what was asked abandoned; a stop Neovim did not confirm is sent again", async () => {
		const r = rig();
		await r.suggestions.set(true);
		const goneBefore = r.seen.gone;
		r.answers.set(SUGGEST_STOP_LUA, { ok: false, reason: "no answer within 500 ms" });
		await r.suggestions.set(false);
		expect(r.seen.gone).toBe(goneBefore + 1);
		expect(r.suggestions.report()).toBeUndefined();
		r.answers.set(SUGGEST_STOP_LUA, { ok: true, value: true });
		await r.suggestions.set(false);
		await r.suggestions.set(false);
		expect(r.chunks()).toEqual(["start suggestions", "stop suggestions", "stop suggestions"]);
	});

	test("another pi owns them: said in the report, asked again only every few seconds; taken once free", async () => {
		const r = rig();
		r.answers.set(SUGGEST_START_LUA, { ok: true, value: { owner: 3 } });
		await r.suggestions.set(true);
		expect(r.suggestions.report()).toMatchObject({ state: "elsewhere", owner: 3 });
		await r.suggestions.set(true);
		r.clock.advance(1999);
		await r.suggestions.set(true);
		expect(r.chunks()).toEqual(["start suggestions"]);
		r.answers.set(SUGGEST_START_LUA, { ok: true, value: { owner: CHANNEL, unoffered: ["accept"] } });
		r.clock.advance(1);
		await r.suggestions.set(true);
		expect(r.suggestions.report()).toMatchObject({ state: "on", unoffered: ["accept"] });
		// Turned off while another owned them: nothing to stop in Neovim.
		const other = rig();
		other.answers.set(SUGGEST_START_LUA, { ok: true, value: { owner: 3 } });
		await other.suggestions.set(true);
		await other.suggestions.set(false);
		expect(other.chunks()).toEqual(["start suggestions"]);
	});

	test("a start Neovim did not answer: failed, asked again later, and stopped when off is wanted (it may still run)", async () => {
		const r = rig();
		r.answers.set(SUGGEST_START_LUA, { ok: false, reason: "no answer within 500 ms" });
		await r.suggestions.set(true);
		expect(r.suggestions.report()).toMatchObject({ state: "failed", reason: "no answer within 500 ms" });
		await r.suggestions.set(false);
		expect(r.chunks()).toEqual(["start suggestions", "stop suggestions"]);
	});

	test("the connection closed: what was asked is abandoned, nothing sent", async () => {
		const r = rig();
		await r.suggestions.set(true);
		const goneBefore = r.seen.gone;
		r.suggestions.closed();
		expect(r.seen.gone).toBe(goneBefore + 1);
		expect(r.suggestions.isOn).toBe(false);
	});
});
