import { defineConfig } from "vitest/config";
import { END_TO_END_LAYER } from "./test/support/layers.ts";
import { baseTestOptions } from "./vitest.config.ts";

/**
 * `npm run test:unit`, the fast loop: every test but the end-to-end layer, found by path so that no list of
 * files is kept by hand. The end-to-end layer is what starts pi (`test/e2e`, `test/extension`) and every file
 * named `*.e2e.test.ts` (kept in the folder that mirrors `src/`): a test that starts a real editor (Neovim,
 * Emacs, VS Code, the Zed source in a child Node), builds a bundle or a package, or spends seconds waiting on
 * real time is named so (test/support/layers.ts; test/support/layers.test.ts fails a unit test that imports a
 * real editor's harness). What stays: the cores' tables, each feature's shell on real temp dirs with fake
 * editors and servers, the hostile corpus and the property tests. `npm test` runs both layers.
 *
 * The `core/` tables run in one module graph per worker (`isolate: false`): they test pure modules (no state, no
 * I/O: test/architecture.test.ts holds src/ to that), and a fresh process per file cost more than their tests,
 * each one loading typebox and pi-tui again (74 files: 41 s of CPU isolated, 9 s shared). Every other file
 * keeps a process of its own, as `npm test` gives every file.
 */
export default defineConfig({
	test: {
		...baseTestOptions,
		projects: [
			{
				extends: true,
				test: {
					name: "core",
					include: ["test/**/core/**/*.test.ts"],
					exclude: [...END_TO_END_LAYER, "**/node_modules/**"],
					isolate: false,
				},
			},
			{
				extends: true,
				test: {
					name: "shell",
					include: ["test/**/*.test.ts"],
					exclude: [...END_TO_END_LAYER, "test/**/core/**", "**/node_modules/**"],
				},
			},
		],
	},
});
