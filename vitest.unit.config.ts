import { defineConfig } from "vitest/config";
import { baseTestOptions } from "./vitest.config.ts";

/**
 * `npm run test:unit`: every test but the ones that start pi (end to end, the extension in a real
 * AgentSession, the hostile suites): the cores' tables and each feature's shell on real temp dirs.
 * Found by folder, so a new feature's tests are in without touching this list.
 */
export default defineConfig({
	test: {
		...baseTestOptions,
		include: ["test/**/*.test.ts"],
		exclude: ["test/e2e/**", "test/extension/**", "test/hostile/**", "**/node_modules/**"],
	},
});
