import { defineConfig } from "vitest/config";
import { baseTestOptions } from "./vitest.config.ts";

/** `npm run test:unit`: the pure core and the shell on real temp dirs; no pi process, no toolchain install. */
export default defineConfig({
	test: {
		...baseTestOptions,
		include: ["test/core/**/*.test.ts", "test/shell/**/*.test.ts"],
	},
});
