import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import type { EmacsDiffChannel } from "../../../src/editors/diff-channels.ts";
import type { DiffRequest, RequestOutcome } from "../../../src/review/core/diff-host.ts";
import { EMACS_DIFF_CLOSE_ELISP, EMACS_DIFF_OPEN_ELISP } from "../../../src/review/core/emacs-diff-elisp.ts";
import { emacsDiffHost } from "../../../src/review/hosts/emacs-host.ts";
import { EMACS_DIFF_OPEN_MS } from "../../../src/shared/core/timing.ts";
import { ManualClock } from "../../support/clocks.ts";
import { emacsReviewSuite, REVIEW_MAIN, REVIEW_PROPOSED, settledAnswer } from "../../support/emacs-review.ts";
import { requireEmacs } from "../../support/real-emacs.ts";
import { tempDir } from "../../support/temp-dir.ts";
import { waitFor } from "../../support/wait-for.ts";

/**
 * The review's proposal in a real Emacs 28.2 that is not simply waiting for it: a user in the minibuffer, a busy
 * Emacs, pi in its terminal, pi gone, names and lines that are not what pi expects.
 */
const available = requireEmacs("the Emacs review conditions tests");

const PROPOSAL = "*pi: src/main.js (proposed)*";

describe.skipIf(!available)("the review's proposal in a real Emacs, in every state", () => {
	const suite = emacsReviewSuite();

	test("hostile names: quotes, %, a leading -, a newline; the buffer's name one line, shown as it is", async () => {
		const { emacs, host, request, layout, expectNothingLeft } = await suite.start();
		const name = `-q "%s"\n(x).js`;
		writeFileSync(join(suite.project(), "src", name), REVIEW_MAIN);
		const view = host.open(request({ file: join(suite.project(), "src", name), displayName: `src/${name}` }));
		const bufferName = `*pi: src/-q "%s" (x).js (proposed)*`;
		expect(await view.shown).toEqual({ ok: true, where: `buffer ${bufferName}` });
		expect((await layout()).reviews).toMatchObject([{ name: bufferName, mode: "js-mode", text: REVIEW_PROPOSED }]);
		// The mode line shows the name as it is: no `%s` of it read as a mode-line construct.
		await waitFor("the name on screen", () => emacs.screen().includes(`*pi: src/-q "%s" (x).js`));
		emacs.keys("C-c", "C-c");
		expect(await view.answer).toEqual({ kind: "accepted", text: REVIEW_PROPOSED });
		await view.close();
		await expectNothingLeft();
	});

	test("a user in the minibuffer: the proposal opens beside, the prompt and its text kept", async () => {
		const { emacs, host, request, layout, expectNothingLeft } = await suite.start();
		emacs.keys("M-x", "forward-ch");
		await waitFor("the prompt", async () => (await layout()).minibuffer === "forward-ch");
		const view = host.open(request());
		expect(await view.shown).toEqual({ ok: true, where: `buffer ${PROPOSAL}` });
		const now = await layout();
		expect(now).toMatchObject({ windows: 2, minibuffer: "forward-ch", selected: " *Minibuf-1*" });
		expect(now.reviews).toMatchObject([{ windows: 1 }]);
		// A C-g that lands while one of pi's evals runs quits that eval, not the prompt: typed again until it is gone.
		await waitFor("the prompt gone", async () => {
			if ((await layout()).minibuffer === null) return true;
			emacs.keys("C-g");
			await new Promise((done) => setTimeout(done, 200));
			return (await layout()).minibuffer === null;
		});
		await view.close();
		await expectNothingLeft();
	});

	test("a busy Emacs: not shown, with why, within the open's budget; the late open opens nothing", async () => {
		const { emacs, host, request, expectNothingLeft } = await suite.start();
		const busy = "(run-at-time 0 nil (lambda () (let ((end (+ (float-time) 3))) (while (< (float-time) end)))))";
		expect((await emacs.eval(busy)).ok).toBe(true);
		const started = performance.now();
		const view = host.open(request());
		const shown = await view.shown;
		const waitedMs = performance.now() - started;
		expect(shown).toEqual({
			ok: false,
			reason: expect.stringMatching(/^Emacs did not open the proposal: no answer within/),
		});
		expect(waitedMs).toBeLessThan(EMACS_DIFF_OPEN_MS + 500);
		expect(await view.answer).toEqual({ kind: "failed", reason: (shown as { reason: string }).reason });
		await view.close();
		await waitFor("Emacs free again", async () => (await emacs.eval("t", 1000)).ok, 10_000);
		await expectNothingLeft();
	});

	test("pi in this Emacs's terminal: the proposal opens beside, the user's window stays selected", async () => {
		const { host, request, layout, expectNothingLeft } = await suite.start({ enclosing: true });
		const view = host.open(request());
		expect((await view.shown).ok).toBe(true);
		expect(await layout()).toMatchObject({
			windows: 2,
			selected: "main.js",
			reviews: [{ windows: 1 }],
		});
		await view.close();
		await expectNothingLeft();
	});

	test("pi gone with a review open: the answer fails, and Emacs's next command removes the review", async () => {
		const { emacs, connection, host, request, layout, expectNothingLeft } = await suite.start();
		const view = host.open(request());
		expect((await view.shown).ok).toBe(true);
		await connection.close();
		expect(await view.answer).toEqual({ kind: "failed", reason: "pi closed the connection" });
		await waitFor("the install torn down", async () => {
			const answer = await emacs.eval(`(fboundp '${connection.channel.prefix}send)`);
			return answer.ok && answer.value === "nil";
		});
		emacs.keys("C-f");
		await waitFor("the review removed", async () => (await layout()).reviews.length === 0);
		await expectNothingLeft();
	});

	test("lines that are not pi's shape, or another review's, are ignored; the real answer still counts", async () => {
		const { emacs, connection, host, request, layout, expectNothingLeft } = await suite.start();
		const asked = request();
		const view = host.open(asked);
		await view.shown;
		const send = `${connection.channel.prefix}send`;
		for (const alist of [
			`(("kind" . "review") ("id" . "other") ("event" . "rejected"))`,
			`(("kind" . "review") ("id" . "${asked.id}") ("event" . "maybe"))`,
			`(("kind" . "review") ("id" . "${asked.id}") ("event" . "rejected") ("reason" . 42))`,
			`(("kind" . "state") ("id" . "${asked.id}") ("event" . "closed"))`,
		])
			expect((await emacs.eval(`(${send} '${alist})`)).ok).toBe(true);
		expect(await settledAnswer(view, emacs)).toBe("pending");
		emacs.keys("C-c", "C-k");
		await waitFor("the question", async () => (await layout()).minibuffer === "");
		emacs.keys("Enter");
		expect(await view.answer).toEqual({ kind: "rejected" });
		await view.close();
		await expectNothingLeft();
	});
	test("closed before it was shown: the open runs first, then the close; nothing is left", async () => {
		const { host, request, expectNothingLeft } = await suite.start();
		const view = host.open(request());
		await view.close();
		expect((await view.shown).ok).toBe(true);
		expect(await view.answer).toEqual({ kind: "closed" });
		await expectNothingLeft();
	});

	test("two reviews at once: closing one leaves the other working, the last removes everything", async () => {
		const { emacs, host, request, layout, expectNothingLeft } = await suite.start();
		const first = host.open(request());
		expect((await first.shown).ok).toBe(true);
		const second = host.open(request({ proposed: "second\n" }));
		expect((await second.shown).ok).toBe(true);
		expect((await layout()).reviews.map((review) => review.name).sort()).toEqual([PROPOSAL, `${PROPOSAL}<2>`]);
		await first.close();
		expect(await layout()).toMatchObject({
			reviews: [{ name: `${PROPOSAL}<2>`, text: "second\n" }],
			selected: `${PROPOSAL}<2>`,
		});
		emacs.keys("C-c", "C-c");
		expect(await second.answer).toEqual({ kind: "accepted", text: "second\n" });
		await second.close();
		await expectNothingLeft();
	});
});

/** The host's own rules against a channel that answers as the test says: no Emacs needed. */
describe("the Emacs host when its requests fail", () => {
	const dirs: (() => void)[] = [];
	afterEach(() => {
		for (const cleanup of dirs.splice(0)) cleanup();
	});

	function fakeChannel(answer: (chunk: string, args: unknown) => RequestOutcome | Promise<RequestOutcome>) {
		const dir = tempDir("emacs-review-fake");
		dirs.push(dir.cleanup);
		const asked: string[] = [];
		let closeConnection!: (reason: string) => void;
		const closed = new Promise<string>((resolve) => {
			closeConnection = resolve;
		});
		const listeners = new Set<(message: unknown) => void>();
		const channel: EmacsDiffChannel = {
			enclosing: false,
			prefix: "pi-ide-1-1-",
			privateDir: dir.path,
			clock: new ManualClock(),
			run: async (_what, chunk, args) => {
				asked.push(chunk === EMACS_DIFF_OPEN_ELISP ? "open" : chunk === EMACS_DIFF_CLOSE_ELISP ? "close" : "other");
				return answer(chunk, args);
			},
			onReviewMessage: (listener) => {
				listeners.add(listener);
				return () => listeners.delete(listener);
			},
			whenClosed: () => closed,
		};
		const send = (message: unknown) => {
			for (const listener of listeners) listener(message);
		};
		return { channel, asked, closeConnection, send, listeners, dir: dir.path };
	}
	const diff: DiffRequest = { id: "a1b2c3", file: "/p/a.ts", displayName: "a.ts", onDisk: "a\n", proposed: "b\n" };
	const shownValue: RequestOutcome = { ok: true, value: { ok: true, buffer: "*pi: a.ts (proposed)*", window: true } };

	test("a request that fails: not shown, with why; the answer fails the same; what may have opened is closed", async () => {
		const fake = fakeChannel((chunk) =>
			chunk === EMACS_DIFF_OPEN_ELISP
				? { ok: false, reason: "no answer within 2000 ms" }
				: { ok: true, value: { closed: 0 } },
		);
		const view = emacsDiffHost(fake.channel).open(diff);
		const reason = "Emacs did not open the proposal: no answer within 2000 ms";
		expect(await view.shown).toEqual({ ok: false, reason });
		expect(await view.answer).toEqual({ kind: "failed", reason });
		await view.close();
		expect(fake.asked).toEqual(["open", "close"]);
		expect(fake.listeners.size).toBe(0);
		// The proposal's file went once Emacs answered.
		expect(existsSync(join(fake.dir, "review-a1b2c3-proposed"))).toBe(false);
	});

	test("a run that throws is a failure like any other; close() never throws", async () => {
		const fake = fakeChannel(() => {
			throw new Error("socket gone");
		});
		const view = emacsDiffHost(fake.channel).open(diff);
		expect(await view.shown).toEqual({ ok: false, reason: "Emacs did not open the proposal: socket gone" });
		await expect(view.close()).resolves.toBeUndefined();
	});

	test("the connection closing before the open's answer: not shown, the answer fails with why", async () => {
		const fake = fakeChannel(() => new Promise(() => {}));
		const view = emacsDiffHost(fake.channel).open(diff);
		fake.closeConnection("Emacs closed the connection");
		expect(await view.shown).toEqual({ ok: false, reason: "Emacs closed the connection" });
		expect(await view.answer).toEqual({ kind: "failed", reason: "Emacs closed the connection" });
	});

	test("the first answer counts; later ones and other reviews' are ignored", async () => {
		const fake = fakeChannel(() => shownValue);
		const view = emacsDiffHost(fake.channel).open(diff);
		expect(await view.shown).toEqual({ ok: true, where: "buffer *pi: a.ts (proposed)*" });
		fake.send({ kind: "review", id: "ffffff", event: "rejected", reason: "not this one" });
		fake.send({ kind: "review", id: "a1b2c3", event: "rejected", reason: "  too long  " });
		fake.send({ kind: "review", id: "a1b2c3", event: "accepted" });
		expect(await view.answer).toEqual({ kind: "rejected", reason: "too long" });
		expect(fake.listeners.size).toBe(0);
	});

	test("an accept whose text pi cannot read (no file, not UTF-8) fails: pi's select decides", async () => {
		const fake = fakeChannel(() => shownValue);
		const host = emacsDiffHost(fake.channel);
		const missing = host.open(diff);
		await missing.shown;
		fake.send({ kind: "review", id: "a1b2c3", event: "accepted" });
		expect(await missing.answer).toMatchObject({ kind: "failed", reason: expect.stringMatching(/could not be read/) });
		const bad = host.open({ ...diff, id: "d4e5f6" });
		await bad.shown;
		writeFileSync(join(fake.dir, "review-d4e5f6-accepted"), Buffer.from([0x61, 0xff, 0x0a]));
		fake.send({ kind: "review", id: "d4e5f6", event: "accepted" });
		expect(await bad.answer).toMatchObject({ kind: "failed", reason: expect.stringMatching(/could not be read/) });
		expect(existsSync(join(fake.dir, "review-d4e5f6-accepted"))).toBe(false);
	});

	test("an id that cannot name a file is not shown, and nothing is asked of Emacs", async () => {
		const fake = fakeChannel(() => shownValue);
		const view = emacsDiffHost(fake.channel).open({ ...diff, id: "../x" });
		expect(await view.shown).toMatchObject({ ok: false, reason: expect.stringMatching(/cannot name a file/) });
		await view.close();
		expect(fake.asked).toEqual([]);
	});
});
