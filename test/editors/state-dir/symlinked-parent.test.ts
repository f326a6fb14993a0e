/**
 * A Mac names the state dir and the lock dirs through symlinks: `/tmp` is `/private/tmp`, `$TMPDIR` is under
 * `/var` → `/private/var`, and a home may sit behind one. The trust rules judge the last component only
 * (`lstat` of the dir itself: the kernel follows the parents), so a symlinked parent is accepted while the
 * dir itself must still be a real dir of the user: a symlink there, or a mode open to others, is refused. Real
 * dirs: a test root holding `private/tmp` and a `tmp` symlink to it, read as pi reads them.
 */
import { chmodSync, mkdirSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { checkDirTrust } from "../../../src/editors/core/path-trust.ts";
import { lstatFacts } from "../../../src/editors/fs-facts.ts";
import { lockDirPlan } from "../../../src/editors/ide-servers/core/lock-dirs.ts";
import { checkLockDirTrust } from "../../../src/editors/ide-servers/core/lockfile-trust.ts";
import { plannedStateDirs } from "../../../src/editors/state-dir/state-dir.ts";
import { StateWatcher } from "../../../src/editors/state-dir/watcher.ts";
import { systemClock } from "../../../src/shared/clock.ts";
import { editorState } from "../../support/fixtures.ts";
import { tempDir } from "../../support/temp-dir.ts";

const uid = process.getuid?.() ?? 0;
const cleanups: (() => unknown)[] = [];
afterEach(async () => {
	for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A root laid out as a Mac's: `private/tmp` (sticky, open to all) and `tmp` → `private/tmp`. */
function macRoot(): string {
	const root = tempDir("symlinked-parent");
	cleanups.push(root.cleanup);
	mkdirSync(join(root.path, "private", "tmp"), { recursive: true });
	chmodSync(join(root.path, "private", "tmp"), 0o1777);
	symlinkSync(join(root.path, "private", "tmp"), join(root.path, "tmp"));
	return root.path;
}

/** The state dir's verdict as StateDir judges it: `lstat` of the planned path, then the trust rule. */
async function stateDirVerdict(path: string) {
	return checkDirTrust(path, (await lstatFacts(path)).facts, uid);
}

describe("the state dir behind a symlinked parent (/tmp → /private/tmp)", () => {
	test("planned as written, made by pi through the symlink: trusted, and its state files read", async () => {
		const root = macRoot();
		const [plan] = plannedStateDirs({ PI_IDE_TEST_FS_ROOT: root }, uid);
		const dir = join(root, "tmp", "pi-ide");
		// The path keeps its symlinked parent: clients write `/tmp/pi-ide`, never `/private/tmp/pi-ide`.
		expect(plan).toEqual({ path: dir, role: "protocol" });
		expect(realpathSync(join(root, "tmp"))).toBe(join(root, "private", "tmp"));
		// What StateDir does for the protocol's dir: made 0700 when missing, then judged.
		await mkdir(dir, { recursive: true, mode: 0o700 });
		expect(await stateDirVerdict(dir)).toEqual({ ok: true });
		writeFileSync(join(dir, `${process.pid}.json`), JSON.stringify(editorState({ pid: process.pid })), {
			mode: 0o600,
		});
		const watcher = new StateWatcher({ dir, uid, isAlive: () => true, clock: systemClock, onChange: () => {} });
		cleanups.push(() => watcher.close());
		await watcher.start();
		expect(watcher.entries.get(`${process.pid}.json`)?.reading?.pid).toBe(process.pid);
	});

	test("$TMPDIR's form (/var → /private/var, a trailing slash): trusted as well", async () => {
		const root = macRoot();
		mkdirSync(join(root, "private", "var", "folders", "40", "x", "T"), { recursive: true });
		symlinkSync(join(root, "private", "var"), join(root, "var"));
		const dir = `${join(root, "var", "folders", "40", "x", "T")}/pi-ide`;
		mkdirSync(dir, { mode: 0o700 });
		expect(await stateDirVerdict(dir)).toEqual({ ok: true });
		expect(await stateDirVerdict(`${dir}/`)).toEqual({ ok: true });
	});

	test.each([
		[
			"the dir itself a symlink to a good 0700 dir",
			(root: string, dir: string) => {
				mkdirSync(join(root, "private", "tmp", "elsewhere"), { mode: 0o700 });
				symlinkSync(join(root, "private", "tmp", "elsewhere"), dir);
			},
			"is a symlink; remove it and let an editor or pi create a real directory",
		],
		[
			"the dir open to others",
			(_root: string, dir: string) => {
				mkdirSync(dir);
				chmodSync(dir, 0o755);
			},
			"has mode 0755; run: chmod 700",
		],
		[
			"a file where the dir should be",
			(_root: string, dir: string) => writeFileSync(dir, ""),
			"is a file, not a directory; remove it",
		],
	])("%s: refused, the parent's symlink changing nothing", async (_name, make, reason) => {
		const root = macRoot();
		const dir = join(root, "tmp", "pi-ide");
		make(root, dir);
		const verdict = await stateDirVerdict(dir);
		expect(verdict.ok).toBe(false);
		expect(!verdict.ok && verdict.reason).toContain(reason);
	});
});

describe("the lock dirs with a home behind a symlink", () => {
	/** `Users/andy` real, `home` → it: `~/.claude/ide` planned through the link, as `HOME` names it. */
	function linkedHome(): { home: string; real: string } {
		const root = macRoot();
		const real = join(root, "Users", "andy");
		mkdirSync(real, { recursive: true });
		symlinkSync(real, join(root, "home"));
		return { home: join(root, "home"), real };
	}

	const lockDirVerdict = async (path: string) => checkLockDirTrust(path, (await lstatFacts(path)).facts, uid);

	test("~/.claude/ide and ~/.pi/ide, made by their writers (0755 is fine there): trusted", async () => {
		const { home, real } = linkedHome();
		const plans = lockDirPlan({}, home);
		expect(plans.map((plan) => plan.path)).toEqual([join(home, ".claude", "ide"), join(home, ".pi", "ide")]);
		mkdirSync(join(real, ".claude", "ide"), { recursive: true, mode: 0o755 });
		mkdirSync(join(real, ".pi", "ide"), { recursive: true, mode: 0o700 });
		for (const plan of plans) expect(await lockDirVerdict(plan.path)).toEqual({ ok: true });
	});

	test("~/.claude a symlink (a dotfiles checkout): a parent, so still trusted", async () => {
		const { home, real } = linkedHome();
		mkdirSync(join(real, "dotfiles", "claude", "ide"), { recursive: true, mode: 0o755 });
		symlinkSync(join(real, "dotfiles", "claude"), join(real, ".claude"));
		expect(await lockDirVerdict(join(home, ".claude", "ide"))).toEqual({ ok: true });
	});

	test.each([
		[
			"the lock dir itself a symlink",
			(real: string) => {
				mkdirSync(join(real, "elsewhere"), { mode: 0o755 });
				mkdirSync(join(real, ".claude"));
				symlinkSync(join(real, "elsewhere"), join(real, ".claude", "ide"));
			},
			"is a symlink: not read",
		],
		[
			"the lock dir writable by others",
			(real: string) => {
				mkdirSync(join(real, ".claude", "ide"), { recursive: true });
				chmodSync(join(real, ".claude", "ide"), 0o777);
			},
			"writable by group or others (mode 0777)",
		],
	])("%s: refused", async (_name, make, reason) => {
		const { home, real } = linkedHome();
		make(real);
		const verdict = await lockDirVerdict(join(home, ".claude", "ide"));
		expect(verdict.ok).toBe(false);
		expect(!verdict.ok && verdict.reason).toContain(reason);
	});
});
