/**
 * The tests' two layers, told apart by path alone. `npm test` runs both; `npm run test:unit` (the fast loop)
 * runs every `*.test.ts` but the end-to-end layer: the folders that start pi (`test/e2e`, `test/extension`) and
 * any file named `*.e2e.test.ts`, kept in the folder that mirrors `src/`. A test file is named so when it starts
 * a real editor (Neovim, Emacs, VS Code, the Zed source in a child Node), builds a bundle or a package, or spends
 * seconds waiting on real time (bursts spaced by real milliseconds, polls it must outlast).
 */
export const END_TO_END_LAYER = ["test/e2e/**", "test/extension/**", "**/*.e2e.test.ts"];

/**
 * What a test file of the unit layer never imports (`test/support/layers.test.ts` checks it): each starts a real
 * editor, pi, or a child on the pi 1.x toolchain's Node.
 */
export const REAL_COMPONENT_MODULES = [
	"real-emacs.ts",
	"real-neovim.ts",
	"emacs-e2e.ts",
	"emacs-review.ts",
	"fake-zed.ts",
	"zed-source-process.ts",
	"tmux-pi.ts",
	"rpc-pi.ts",
	"e2e-workspace.ts",
	"ide-server-e2e.ts",
	"sdk-session.ts",
	"sdk-workspace.ts",
	"vscode-host.ts",
	"vscode-session.ts",
	"vscode-client-session.ts",
	"vscode-review-page.ts",
	"vscode-question-page.ts",
	"anthropic-vscode.ts",
];

/** What a test file of the unit layer never names: the VS Code client's build (esbuild, then vsce). */
export const BUILD_SCRIPTS = ["build.mjs", "check-packed.mjs"];
