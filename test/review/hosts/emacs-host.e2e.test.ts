import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { PROPOSAL_HEADER } from "../../../src/review/core/emacs-diff-protocol.ts";
import { acceptedText } from "../../../src/review/core/final-text.ts";
import { EMACS_DIFF_OPEN_MS } from "../../../src/shared/core/timing.ts";
import { emacsReviewSuite, REVIEW_PROPOSED, settledAnswer } from "../../support/emacs-review.ts";
import { requireEmacs } from "../../support/real-emacs.ts";
import { waitFor } from "../../support/wait-for.ts";

/**
 * The review's proposal in a real Emacs 28.2 with a UI (`emacs -nw -Q` in tmux), reached the way pi reaches it:
 * pi's push listener, the install over the server, requests as the session makes them. The user's answers are
 * typed as keys. (emacs-host-conditions.test.ts: the states Emacs may be in, and the host's own rules.)
 */
const available = requireEmacs("the Emacs review tests");

const PROPOSAL = "*pi: src/main.js (proposed)*";

describe.skipIf(!available)("the review's proposal in a real Emacs", () => {
	const suite = emacsReviewSuite();

	test("shown within 300 ms beside the file, in its mode without its hooks, the changed lines marked", async () => {
		const { emacs, host, request, layout, expectNothingLeft } = await suite.start();
		expect(host.editorName).toBe("Emacs");
		const started = performance.now();
		const view = host.open(request());
		const shown = await view.shown;
		const latencyMs = performance.now() - started;
		process.stderr.write(`emacs proposal shown in ${latencyMs.toFixed(1)} ms\n`);
		expect(shown).toEqual({ ok: true, where: `buffer ${PROPOSAL}` });
		expect(latencyMs).toBeLessThan(300);
		const now = await layout();
		expect(now).toMatchObject({ windows: 2, selected: PROPOSAL, minibuffer: null, mode_hooks_ran: false });
		expect(now.reviews).toEqual([
			{
				name: PROPOSAL,
				mode: "js-mode",
				text: REVIEW_PROPOSED,
				header: PROPOSAL_HEADER,
				font_lock: true,
				modified: false,
				coding: "utf-8-unix",
				overlays: [[2, 3]],
				windows: 1,
				point_line: 2,
				dir: `${join(suite.project(), "src")}/`,
			},
		]);
		await waitFor("the header line on screen", () =>
			emacs.screen().includes("pi's proposal: C-c C-c accept, C-c C-k reject"),
		);
		expect(await settledAnswer(view, emacs)).toBe("pending");
		await view.close();
		await expectNothingLeft();
	});

	test("C-c C-c accepts with the proposal's text; close() then leaves nothing, the user back in the file", async () => {
		const { emacs, connection, host, request, expectNothingLeft } = await suite.start();
		const view = host.open(request());
		expect((await view.shown).ok).toBe(true);
		emacs.keys("C-c", "C-c");
		expect(await view.answer).toEqual({ kind: "accepted", text: REVIEW_PROPOSED });
		await view.close();
		await expectNothingLeft();
		// Idempotent: a second close finds nothing; pi's own close sent no "closed".
		await view.close();
		expect(connection.lines).toEqual([{ kind: "review", id: expect.any(String), event: "accepted" }]);
	});

	test("an edited proposal is accepted with the edited text", async () => {
		const { emacs, host, request, layout, expectNothingLeft } = await suite.start();
		const view = host.open(request());
		await view.shown;
		emacs.keys("M->", "x = 5", "M-<", "C-k", "C-k");
		await waitFor("the edits", async () => (await layout()).reviews[0]?.text.startsWith("export const b"));
		emacs.keys("C-c", "C-c");
		expect(await view.answer).toEqual({ kind: "accepted", text: "export const b = 3;\nexport const c = 4;\nx = 5" });
		expect((await layout()).reviews[0]).toMatchObject({ modified: false });
		await view.close();
		await expectNothingLeft();
	});

	test("C-c C-k asks why and rejects with the reason; with none typed, rejects", async () => {
		const { emacs, host, request, layout, expectNothingLeft } = await suite.start();
		const view = host.open(request());
		await view.shown;
		emacs.keys("C-c", "C-k");
		await waitFor("the question", async () => (await layout()).minibuffer === "");
		emacs.keys("too long", "Enter");
		expect(await view.answer).toEqual({ kind: "rejected", reason: "too long" });
		await view.close();
		const second = host.open(request());
		await second.shown;
		emacs.keys("C-c", "C-k");
		await waitFor("the question", async () => (await layout()).minibuffer === "");
		emacs.keys("Enter");
		expect(await second.answer).toEqual({ kind: "rejected" });
		await second.close();
		await expectNothingLeft();
	});

	test("C-x C-s in the proposal writes nothing and decides nothing: it says how to answer", async () => {
		const { emacs, connection, host, request, expectNothingLeft } = await suite.start();
		const view = host.open(request());
		await view.shown;
		const messages = "(with-current-buffer (messages-buffer) (buffer-string))";
		const logged = await emacs.eval(messages);
		emacs.keys("C-x", "C-s");
		await waitFor("the hint", () => emacs.screen().includes("C-c C-c accepts it, C-c C-k rejects it"));
		expect(connection.lines).toEqual([]);
		// Shown in the echo area as the answer to the user's key, never kept in *Messages*.
		expect(await emacs.eval(messages)).toEqual(logged);
		emacs.keys("C-c", "C-c");
		expect(await view.answer).toMatchObject({ kind: "accepted" });
		await view.close();
		await expectNothingLeft();
	});

	test("killing the proposal decides nothing: 'closed' once, its window gone with it", async () => {
		const { emacs, connection, host, request, expectNothingLeft } = await suite.start();
		const view = host.open(request());
		await view.shown;
		emacs.keys("C-x", "k", "Enter");
		expect(await view.answer).toEqual({ kind: "closed" });
		await expectNothingLeft();
		await view.close();
		expect(connection.lines).toEqual([{ kind: "review", id: expect.any(String), event: "closed" }]);
	});

	test("pi's select answers while the user types in the proposal: the buffer closes under them, nothing sent", async () => {
		const { emacs, connection, host, request, expectNothingLeft } = await suite.start();
		const view = host.open(request());
		await view.shown;
		emacs.keys("typing");
		await view.close();
		expect(await view.answer).toEqual({ kind: "closed" });
		await expectNothingLeft();
		expect(connection.lines).toEqual([]);
	});

	test("a new file: its mode from its name, nothing marked", async () => {
		const { emacs, host, request, layout, expectNothingLeft } = await suite.start();
		const view = host.open(
			request({
				file: join(suite.project(), "src", "new.py"),
				displayName: "src/new.py",
				onDisk: undefined,
				proposed: "print(1)\n",
			}),
		);
		expect(await view.shown).toEqual({ ok: true, where: "buffer *pi: src/new.py (proposed)*" });
		expect((await layout()).reviews).toMatchObject([{ mode: "python-mode", overlays: [], text: "print(1)\n" }]);
		emacs.keys("C-c", "C-c");
		expect(await view.answer).toEqual({ kind: "accepted", text: "print(1)\n" });
		await view.close();
		await expectNothingLeft();
	});

	test("a CRLF file shows without ^M and comes back as Emacs holds it; the gate's endings restore it", async () => {
		const { emacs, host, request, layout, expectNothingLeft } = await suite.start();
		const proposed = "one\r\ntwo changed\r\nthree\r\n";
		const view = host.open(request({ onDisk: "one\r\ntwo\r\n", proposed }));
		expect((await view.shown).ok).toBe(true);
		expect((await layout()).reviews).toMatchObject([
			{ text: "one\ntwo changed\nthree\n", coding: "utf-8-dos", overlays: [[2, 3]] },
		]);
		await waitFor("the proposal on screen", () => emacs.screen().includes("two changed"));
		expect(emacs.screen()).not.toContain("^M");
		emacs.keys("C-c", "C-c");
		const answer = await view.answer;
		expect(answer).toEqual({ kind: "accepted", text: "one\ntwo changed\nthree\n" });
		expect(acceptedText(proposed, (answer as { text: string }).text)).toBe(proposed);
		await view.close();
		await expectNothingLeft();
	});

	test("a file of a few MB opens well within the open's budget and is accepted whole", async () => {
		const { emacs, host, request, layout, expectNothingLeft } = await suite.start();
		const line = "const value = 'some text that makes a line of code a usual width';";
		const big = `${Array.from({ length: 60_000 }, (_, index) => `${line} // ${index}`).join("\n")}\n`;
		const proposed = big.replace("// 30000\n", "// changed\n");
		const started = performance.now();
		const view = host.open(request({ onDisk: big, proposed }));
		expect((await view.shown).ok).toBe(true);
		const latencyMs = performance.now() - started;
		process.stderr.write(`emacs proposal of ${(big.length / 1e6).toFixed(1)} MB shown in ${latencyMs.toFixed(0)} ms\n`);
		expect(latencyMs).toBeLessThan(EMACS_DIFF_OPEN_MS);
		expect((await layout(false)).reviews[0]).toMatchObject({
			overlays: [[30_001, 30_001]],
			point_line: 30_001,
		});
		const acceptedAt = performance.now();
		emacs.keys("C-c", "C-c");
		expect(await view.answer).toEqual({ kind: "accepted", text: proposed });
		process.stderr.write(
			`emacs accepted ${(big.length / 1e6).toFixed(1)} MB in ${(performance.now() - acceptedAt).toFixed(0)} ms\n`,
		);
		await view.close();
		await expectNothingLeft();
	});
});
