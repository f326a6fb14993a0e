import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { INSTALL_ELISP, PUSH_WINDOW_BYTES } from "../../../src/editors/emacs/core/elisp/push-elisp.ts";
import { EMACS_SNAPSHOT_CAPS, parseEmacsSnapshot } from "../../../src/editors/emacs/core/snapshot.ts";
import { CleanupScope } from "../../support/cleanup-scope.ts";
import { freshPrefix, runChunk } from "../../support/emacs-push.ts";
import { type RawPeer, rawPeer } from "../../support/emacs-raw-peer.ts";
import { RealEmacs, requireEmacs } from "../../support/real-emacs.ts";
import { tempDir } from "../../support/temp-dir.ts";
import { waitFor } from "../../support/wait-for.ts";

const available = requireEmacs("the Emacs flow-control tests");

/** Five lines of 25 000 CJK characters: 375 KB of UTF-8, more than a unix socket holds (~208 KiB). */
const CJK_LINES = 5;
const CJK = `${"漢".repeat(25_000)}\n`.repeat(CJK_LINES);

describe.skipIf(!available)("a pi that stops reading never freezes a real Emacs 28.2", () => {
	const scope = new CleanupScope();
	let emacs: RealEmacs;
	let root: string;

	beforeAll(async () => {
		const dir = tempDir("emacs-flow");
		scope.defer(dir.cleanup);
		root = dir.path;
		mkdirSync(join(root, "proj"));
		writeFileSync(join(root, "proj", "cjk.txt"), CJK);
		writeFileSync(join(root, "proj", "binary.txt"), "\x01".repeat(70_000));
		emacs = await RealEmacs.start({
			cwd: join(root, "proj"),
			runtimeDir: join(root, "run"),
			scope: `emacs-flow-${process.pid}`,
			files: [join(root, "proj", "cjk.txt")],
		});
		scope.defer(() => emacs.close());
	}, 60_000);
	afterAll(() => scope.close());

	/** pi's elisp installed against a socket of the test's, read and acknowledged as pi does until stopped. */
	const install = async (name: string): Promise<{ peer: RawPeer; states: () => Record<string, unknown>[] }> => {
		const socket = join(root, name);
		const peer = await rawPeer(socket, scope, true);
		const args = { socket, token: "ab", prefix: freshPrefix(), push: true, debounce_ms: 10, caps: EMACS_SNAPSHOT_CAPS };
		expect(await runChunk(emacs, INSTALL_ELISP, args)).toEqual({ ok: true, value: { ok: true } });
		await waitFor("the first push", () => peer.lines.length >= 2);
		const states = () =>
			peer.lines.slice(1).map((line) => (JSON.parse(line) as { state: Record<string, unknown> }).state);
		return { peer, states };
	};
	const settle = () => new Promise((done) => setTimeout(done, 60));

	test("375 KB of CJK text selected while pi reads nothing: Emacs answers, keys work, the state comes once pi reads", async () => {
		const { peer, states } = await install("stopped.sock");
		peer.stopReading();
		// Each push of the region is one line of its text cut to 66 000 bytes: the second would pass the window.
		emacs.keys("C-x", "h");
		await settle();
		// To the next line's start (a C-n moves one screen line of a line this long).
		for (let line = 2; line <= 4; line++) {
			emacs.keys("C-e", "C-f");
			await settle();
		}
		const started = performance.now();
		expect(await emacs.eval("(+ 1 2)", 1000)).toMatchObject({ ok: true, value: "3" });
		expect(performance.now() - started).toBeLessThan(1000);
		expect(
			await emacs.eval("(with-current-buffer (window-buffer) (list (line-number-at-pos) (region-active-p)))", 1000),
		).toMatchObject({
			ok: true,
			value: "(4 t)\n",
		});
		peer.startReading();
		const last = await waitFor("the held-back state, the region from line 4", () =>
			states().find((state) => (state.cursor as { line: number }).line === 4),
		);
		const parsed = parseEmacsSnapshot(last);
		expect(parsed.ok && parsed.snapshot.region).toMatchObject({
			start: { line: 4, column: 1 },
			end: { line: CJK_LINES, column: 75_000 },
			active: true,
			selected_at: null,
			whole_lines: true,
			text_cut: true,
		});
		expect(parsed.ok && parsed.cuts).toEqual(["the selection's text cut in Emacs at 66000 bytes"]);
		const text = parsed.ok ? (parsed.snapshot.region?.text ?? "") : "";
		// The cut never splits a character: 22 000 characters of three bytes, 66 000 bytes.
		expect(Buffer.byteLength(text, "utf8")).toBe(66_000);
		expect(text).toBe("漢".repeat(22_000));
		// The token, the first state, the region's first line; the three after it held back, the last sent for them.
		expect(peer.lines).toHaveLength(4);
		for (const size of peer.sizes) expect(size).toBeLessThan(67_000);
		expect((peer.sizes[2] ?? 0) * 2).toBeGreaterThan(PUSH_WINDOW_BYTES);
		emacs.keys("C-g");
		peer.sockets[0]?.destroy();
	});

	test("a selection of control characters (six bytes each in JSON) is cut so its line stays as small", async () => {
		await emacs.eval(
			`(progn (find-file ${JSON.stringify(join(root, "proj", "binary.txt"))}) (goto-char (point-min)) 'done)`,
		);
		const { peer, states } = await install("binary.sock");
		emacs.keys("C-x", "h");
		const state = await waitFor("the region pushed", () =>
			states().find((candidate) => (candidate.region as { active?: boolean } | null)?.active === true),
		);
		const region = state.region as { text: string; text_cut: boolean; whole_lines: boolean };
		expect(region.text).toBe("\x01".repeat(11_000));
		expect([region.text_cut, region.whole_lines]).toEqual([true, true]);
		for (const size of peer.sizes) expect(size).toBeLessThan(67_000);
		emacs.keys("C-g");
		peer.sockets[0]?.destroy();
	});
});
