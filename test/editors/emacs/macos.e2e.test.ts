import { mkdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import type { SourceEvent } from "../../../src/editors/core/editor.ts";
import { EmacsSource } from "../../../src/editors/emacs/source.ts";
import { CleanupScope } from "../../support/cleanup-scope.ts";
import { testProcessFacts } from "../../support/process-facts.ts";
import { RealEmacs, requireEmacs } from "../../support/real-emacs.ts";
import { sourceHooks } from "../../support/source-hooks.ts";
import { tempDir } from "../../support/temp-dir.ts";
import { waitFor } from "../../support/wait-for.ts";

/**
 * A Mac's Emacs server dir through the Emacs source, on both ways of asking about processes: pi told it runs on
 * darwin, with a Mac's `TMPDIR` (`/var/folders/…/T/`, its trailing slash) and no `XDG_RUNTIME_DIR`, and a real
 * Emacs given the same environment, which makes its own `$TMPDIR/emacs<uid>/server` (server.el).
 */
const available = requireEmacs("the Emacs source's macOS paths");
const uid = process.getuid?.() ?? 0;

describe.skipIf(!available)("a Mac's Emacs server dir through the Emacs source (real Emacs 28.2, no pi)", () => {
	describe.each(["proc", "ps"] as const)("asked through the %s backend", (backend) => {
		const scope = new CleanupScope();
		let project: string;
		let file: string;
		let macTmp: string;
		let procScope: string;
		let events: SourceEvent[] = [];

		beforeEach(() => {
			const dir = tempDir("emacs-macos");
			scope.defer(dir.cleanup);
			project = join(dir.path, "proj");
			mkdirSync(join(project, "src"), { recursive: true });
			file = join(project, "src", "main.py");
			writeFileSync(file, "line1\nline2\nline3\n");
			// A Mac's TMPDIR: the user's own dir under /var/folders, with the trailing slash a Mac gives it.
			macTmp = `${join(dir.path, "var", "folders", "40", "x8y", "T")}/`;
			mkdirSync(macTmp, { recursive: true, mode: 0o700 });
			procScope = `emacs-macos-${backend}-${process.pid}-${Math.random().toString(36).slice(2)}`;
			events = [];
		});
		afterEach(() => scope.close());

		async function macSource(): Promise<EmacsSource> {
			const started = new EmacsSource(
				{
					enabled: { on: true, source: "default" },
					uid,
					platform: "darwin",
					// No XDG_RUNTIME_DIR: a Mac has none.
					env: { TMPDIR: macTmp },
					projectDir: () => project,
					connectedKey: () => undefined,
					testScope: procScope,
					facts: testProcessFacts(backend),
				},
				sourceHooks({ event: (event) => events.push(event) }),
			);
			await started.start();
			scope.defer(() => started.close());
			return started;
		}

		/** An Emacs with the Mac's TMPDIR and no XDG_RUNTIME_DIR, started after pi; `setup` runs before its server. */
		async function macEmacs(setup?: string): Promise<RealEmacs> {
			const started = await RealEmacs.start({
				cwd: project,
				tmpDir: macTmp,
				scope: procScope,
				files: [file],
				...(setup !== undefined && { setup }),
			});
			scope.defer(() => started.close());
			return started;
		}

		/** Found with no look by hand (the watch of `$TMPDIR/emacs<uid>` alone), read, its socket as Emacs bound it. */
		async function foundThroughTheWatch(emacsen: EmacsSource, started: RealEmacs): Promise<void> {
			const socket = `${macTmp}emacs${uid}/server`;
			const [editor] = await waitFor(
				"the Emacs listed",
				() => emacsen.editors()[0]?.pid === started.pid && emacsen.editors(),
				10_000,
			);
			expect(editor).toMatchObject({ key: `pid:${started.pid}`, origin: "emacs", alive: true });
			expect(editor?.state.active_buffer?.file).toBe(file);
			expect(emacsen.report().emacsen).toEqual([expect.objectContaining({ pid: started.pid, socket })]);
			expect(events).toContainEqual({ kind: "app-found", label: `emacs ${started.pid}`, detail: socket });
			expect(emacsen.report().watchProblems).toEqual([]);
			// Made by Emacs's own server-ensure-safe-dir: a 0700 dir of the user.
			expect(statSync(`${macTmp}emacs${uid}`).mode & 0o777).toBe(0o700);
		}

		test("an Emacs started after pi makes $TMPDIR/emacs<uid>/server: found through the watch, read", async () => {
			const emacsen = await macSource();
			expect(emacsen.editors()).toEqual([]);
			const started = await macEmacs();
			// Emacs 28 joins TMPDIR and emacs<uid> with expand-file-name: one slash, though TMPDIR ends in one.
			expect(await started.eval("server-socket-dir")).toMatchObject({
				ok: true,
				value: JSON.stringify(`${macTmp}emacs${uid}`),
			});
			await foundThroughTheWatch(emacsen, started);
		});

		test("an older Emacs's …/T//emacs<uid> (TMPDIR and a slash of its own) is the same dir to pi", async () => {
			const emacsen = await macSource();
			expect(emacsen.editors()).toEqual([]);
			// server.el before Emacs 28: (format "%s/emacs%d" (or (getenv "TMPDIR") "/tmp") (user-uid)).
			const started = await macEmacs('(setq server-socket-dir (format "%s/emacs%d" (getenv "TMPDIR") (user-uid)))');
			expect(await started.eval("server-socket-dir")).toMatchObject({
				ok: true,
				value: JSON.stringify(`${macTmp}/emacs${uid}`),
			});
			await foundThroughTheWatch(emacsen, started);
		});
	});
});
