import { describe, expect, test } from "vitest";
import { AskLedger, askToken } from "../../../src/asks/core/ask-ledger.ts";

const WAIT_MS = 2000;
const NEOVIM = { key: "pid:1", label: "Neovim 1" };
const EMACS = { key: "pid:2", label: "Emacs 2" };

/** An ask sent now: what went to pi (with its token). */
function send(ledger: AskLedger, editor: typeof NEOVIM, text: string, idle: boolean, sentAtMs = 0) {
	return ledger.sending({ ...editor, from: `asked from ${editor.label}`, text, idle, sentAtMs });
}

describe("an ask sent while pi is idle", () => {
	test("input seen (its token taken off) → the run started → delivered, its editor the run's", () => {
		const ledger = new AskLedger();
		const { id, sent } = send(ledger, NEOVIM, "explain @/p/a.ts#L2", true);
		expect(sent).toBe(`${askToken(id)}explain @/p/a.ts#L2`);
		expect(sent).toMatch(/^\[pi-ide-ask \d+\] explain/);

		const seen = ledger.inputSeen(sent, true);
		expect(seen?.text).toBe("explain @/p/a.ts#L2");
		expect(seen?.ask).toMatchObject({ id, ...NEOVIM, idle: true, seen: true });
		expect(ledger.promptAsk("explain @/p/a.ts#L2")?.label).toBe("Neovim 1");
		expect(ledger.promptAsk("something else")).toBeUndefined();

		expect(ledger.runStarted()).toEqual([NEOVIM]);
		expect(ledger.askers()).toEqual([NEOVIM]);
		expect(ledger.promptAsk("explain @/p/a.ts#L2")).toBeUndefined();
		// Delivered: the wait is over for it, and its own user message adds nobody.
		expect(ledger.expired(10 * WAIT_MS, WAIT_MS)).toEqual([]);
		expect(ledger.userMessage("explain @/p/a.ts#L2")).toEqual([]);
		expect(ledger.clear()).toEqual([]);
	});

	test.each([
		["a text of the user's own", "explain this"],
		["a token of no ask", `${askToken(99)}explain`],
		["a token not at the start", `explain ${askToken(1)}`],
		["a malformed token", "[pi-ide-ask x] explain"],
	])("input that is not an ask's: %s, left alone", (_name, text) => {
		const ledger = new AskLedger();
		send(ledger, NEOVIM, "explain", true);
		expect(ledger.inputSeen(text, true)).toBeUndefined();
		expect(ledger.runStarted()).toEqual([]);
	});

	test("a run no ask started belongs to nobody", () => {
		const ledger = new AskLedger();
		expect(ledger.runStarted()).toEqual([]);
		ledger.fileChanged("/p/a.ts");
		expect(ledger.runEnded()).toEqual({ askers: [], files: ["/p/a.ts"] });
	});
});

describe("an ask sent while pi is busy: queued, delivered at its own user message", () => {
	test("matched by its text, never by another's", () => {
		const ledger = new AskLedger();
		expect(ledger.runStarted()).toEqual([]);
		const first = send(ledger, NEOVIM, "[asked from Neovim 1]\nwhy?", false);
		const second = send(ledger, EMACS, "[asked from Emacs 2]\nhow?", false);
		expect(ledger.inputSeen(first.sent, false)?.text).toBe("[asked from Neovim 1]\nwhy?");
		expect(ledger.inputSeen(second.sent, false)?.text).toBe("[asked from Emacs 2]\nhow?");
		expect(ledger.promptAsk("[asked from Neovim 1]\nwhy?")).toBeUndefined();

		expect(ledger.userMessage("a message of the user's own")).toEqual([]);
		expect(ledger.userMessage("[asked from Emacs 2]\nhow?")).toEqual([EMACS]);
		expect(ledger.askers()).toEqual([EMACS]);
		expect(ledger.userMessage("[asked from Emacs 2]\nhow?")).toEqual([]);
		expect(ledger.userMessage("[asked from Neovim 1]\nwhy?")).toEqual([NEOVIM]);
		expect(ledger.askers()).toEqual([EMACS, NEOVIM]);
	});

	test("a queued ask never expires: pi holds it until the run takes it", () => {
		const ledger = new AskLedger();
		const { sent } = send(ledger, NEOVIM, "why?", false);
		ledger.inputSeen(sent, false);
		expect(ledger.expired(100 * WAIT_MS, WAIT_MS)).toEqual([]);
		expect(ledger.userMessage("why?")).toEqual([NEOVIM]);
	});

	test("a user message with its text before its input was seen is not it", () => {
		const ledger = new AskLedger();
		const { sent } = send(ledger, NEOVIM, "why?", false);
		expect(ledger.userMessage("why?")).toEqual([]);
		ledger.inputSeen(sent, false);
		expect(ledger.userMessage("why?")).toEqual([NEOVIM]);
	});

	test("the same editor asking again in one run is told working once", () => {
		const ledger = new AskLedger();
		const { sent } = send(ledger, NEOVIM, "one", true);
		ledger.inputSeen(sent, true);
		expect(ledger.runStarted()).toEqual([NEOVIM]);
		const again = send(ledger, NEOVIM, "two", false);
		ledger.inputSeen(again.sent, false);
		expect(ledger.userMessage("two")).toEqual([]);
		expect(ledger.askers()).toEqual([NEOVIM]);
		expect(ledger.clear()).toEqual([]);
	});
});

test("an ask sent idle that pi took busy (a run began meanwhile) is queued, delivered at its user message", () => {
	const ledger = new AskLedger();
	const { sent } = send(ledger, NEOVIM, "explain", true);
	expect(ledger.inputSeen(sent, false)?.ask.idle).toBe(false);
	expect(ledger.promptAsk("explain")).toBeUndefined();
	expect(ledger.runStarted()).toEqual([]);
	expect(ledger.expired(10 * WAIT_MS, WAIT_MS)).toEqual([]);
	expect(ledger.userMessage("explain")).toEqual([NEOVIM]);
});

describe("expiry: an idle ask that started no run within the wait", () => {
	test("each at its own time, only the undelivered idle ones", () => {
		const ledger = new AskLedger();
		const lost = send(ledger, NEOVIM, "lost", true, 0);
		const late = send(ledger, EMACS, "late", true, 1500);
		const queued = send(ledger, EMACS, "queued", false, 0);
		ledger.inputSeen(queued.sent, false);
		expect(ledger.expired(WAIT_MS - 1, WAIT_MS)).toEqual([]);
		expect(ledger.expired(WAIT_MS, WAIT_MS).map((ask) => ask.id)).toEqual([lost.id]);
		expect(ledger.expired(WAIT_MS + 1499, WAIT_MS)).toEqual([]);
		expect(ledger.expired(WAIT_MS + 1500, WAIT_MS).map((ask) => ask.id)).toEqual([late.id]);
		expect(ledger.expired(100 * WAIT_MS, WAIT_MS)).toEqual([]);
		expect(ledger.clear().map((ask) => ask.id)).toEqual([queued.id]);
	});

	test("an ask whose input was seen but whose run never started expires, and a later run is not its", () => {
		const ledger = new AskLedger();
		const { id, sent } = send(ledger, NEOVIM, "explain", true, 0);
		ledger.inputSeen(sent, true);
		expect(ledger.expired(WAIT_MS, WAIT_MS).map((ask) => ask.id)).toEqual([id]);
		expect(ledger.promptAsk("explain")).toBeUndefined();
		expect(ledger.runStarted()).toEqual([]);
	});
});

describe("the run: its askers until it ends", () => {
	test("a retry's second run start (pi 1.x) keeps the askers and the files", () => {
		const ledger = new AskLedger();
		const { sent } = send(ledger, NEOVIM, "explain", true);
		ledger.inputSeen(sent, true);
		expect(ledger.runStarted()).toEqual([NEOVIM]);
		ledger.fileChanged("/p/a.ts");
		expect(ledger.runStarted()).toEqual([]);
		expect(ledger.askers()).toEqual([NEOVIM]);
		ledger.fileChanged("/p/b.ts");
		ledger.fileChanged("/p/a.ts");
		expect(ledger.runEnded()).toEqual({ askers: [NEOVIM], files: ["/p/a.ts", "/p/b.ts"] });
	});

	test("runEnded answers once: the next run starts empty", () => {
		const ledger = new AskLedger();
		const { sent } = send(ledger, NEOVIM, "explain", true);
		ledger.inputSeen(sent, true);
		ledger.runStarted();
		ledger.fileChanged("/p/a.ts");
		expect(ledger.runEnded()).toEqual({ askers: [NEOVIM], files: ["/p/a.ts"] });
		expect(ledger.runEnded()).toEqual({ askers: [], files: [] });
		expect(ledger.askers()).toEqual([]);
		// A file changed between runs belongs to no run.
		ledger.fileChanged("/p/c.ts");
		expect(ledger.runStarted()).toEqual([]);
		expect(ledger.runEnded()).toEqual({ askers: [], files: [] });
	});

	test("a queued ask delivered after the run it was sent into ended joins the next one", () => {
		const ledger = new AskLedger();
		ledger.runStarted();
		const { sent } = send(ledger, EMACS, "how?", false);
		ledger.inputSeen(sent, false);
		expect(ledger.runEnded().askers).toEqual([]);
		expect(ledger.runStarted()).toEqual([]);
		expect(ledger.userMessage("how?")).toEqual([EMACS]);
		expect(ledger.runEnded().askers).toEqual([EMACS]);
	});
});

test("clear(): every ask not delivered, once; the run and the starting ask forgotten", () => {
	const ledger = new AskLedger();
	const started = send(ledger, NEOVIM, "started", true);
	ledger.inputSeen(started.sent, true);
	ledger.runStarted();
	const idle = send(ledger, EMACS, "idle", true);
	ledger.inputSeen(idle.sent, true);
	const queued = send(ledger, NEOVIM, "queued", false);
	expect(
		ledger
			.clear()
			.map((ask) => ask.id)
			.sort(),
	).toEqual([idle.id, queued.id].sort());
	expect(ledger.clear()).toEqual([]);
	expect(ledger.askers()).toEqual([]);
	expect(ledger.promptAsk("idle")).toBeUndefined();
	expect(ledger.runStarted()).toEqual([]);
	expect(ledger.inputSeen(queued.sent, false)).toBeUndefined();
});
