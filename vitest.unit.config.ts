import { defineConfig } from "vitest/config";
import { baseTestOptions } from "./vitest.config.ts";

/**
 * `npm run test:unit`: every test but the ones that start pi (end to end, the extension in a real
 * AgentSession, the hostile corpus's end-to-end twins): the cores' tables, each feature's shell on real temp
 * dirs, the hostile corpus and the property tests. Found by folder, so a new feature's tests are in without
 * touching this list.
 */
export default defineConfig({
	test: {
		...baseTestOptions,
		include: ["test/**/*.test.ts"],
		exclude: ["test/e2e/**", "test/extension/**", "test/hostile/corpus-e2e.test.ts", "**/node_modules/**"],
	},
});
