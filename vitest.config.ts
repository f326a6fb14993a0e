import { mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defineConfig } from "vitest/config";
import { skipLogPath } from "./test/setup/skip-log.ts";

/**
 * The home every pi of a test finds IDE servers' lock dirs under (`.claude/ide`, `.pi/ide`): never the
 * developer's own. A test with lockfiles of its own sets another. Made here so that it exists (a missing home
 * would be watched through its parent, /tmp).
 */
const LOCK_ROOT = join(tmpdir(), `pi-ide-tests-lock-root-${process.getuid?.() ?? 0}`);
mkdirSync(LOCK_ROOT, { recursive: true, mode: 0o700 });

/** Shared by both configs: what every test run needs. */
export const baseTestOptions = {
	testTimeout: 60_000,
	hookTimeout: 60_000,
	// The e2e suites start real pi processes; two cores cannot run many of them side by side.
	maxWorkers: 2,
	// The churn cases assert that memory stays flat, which needs a forced GC to be meaningful.
	execArgv: ["--expose-gc"],
	env: {
		PI_IDE_TEST_LOCK_ROOT: LOCK_ROOT,
		PI_IDE_TEST_SKIP_LOG: skipLogPath(),
		CLAUDE_CONFIG_DIR: "",
		PI_IDE_LOCK_DIR: "",
		CLAUDE_CODE_SSE_PORT: "",
	},
	// Every `... skipped: <reason>` a test prints is noted, and the run ends saying how many tests were skipped
	// and why (test/setup/skip-summary.ts): a fresh clone without a real component sees it last.
	setupFiles: ["test/setup/skip-notes.ts"],
	reporters: ["default", "./test/setup/skip-summary.ts"],
};

export default defineConfig({
	test: {
		...baseTestOptions,
		include: ["test/**/*.test.ts"],
		// pi 1.x and a Node that runs it, pinned by test/toolchain/package-lock.json and cached outside the repo.
		globalSetup: ["test/setup/global-setup.ts"],
	},
});
