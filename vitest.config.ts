import { defineConfig } from "vitest/config";

/** Shared by both configs: what every test run needs. */
export const baseTestOptions = {
	testTimeout: 60_000,
	hookTimeout: 60_000,
	// The e2e suites start real pi processes; two cores cannot run many of them side by side.
	maxWorkers: 2,
	// The churn cases assert that memory stays flat, which needs a forced GC to be meaningful.
	execArgv: ["--expose-gc"],
};

export default defineConfig({
	test: {
		...baseTestOptions,
		include: ["test/**/*.test.ts"],
		// pi 1.x and a Node that runs it, pinned by test/toolchain/package-lock.json and cached outside the repo.
		globalSetup: ["test/setup/global-setup.ts"],
	},
});
