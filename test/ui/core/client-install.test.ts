import { describe, expect, test } from "vitest";
import { bundledToolPaths, installReport, VSCODE_TOOLS, type VscodeTool } from "../../../src/ui/core/client-install.ts";

describe("where a Mac keeps each editor's command-line tool, when it is not on the PATH", () => {
	test.each<[VscodeTool, string[]]>([
		[
			"code",
			[
				"/Applications/Visual Studio Code.app/Contents/Resources/app/bin/code",
				"/Users/andy/Applications/Visual Studio Code.app/Contents/Resources/app/bin/code",
			],
		],
		[
			"code-insiders",
			[
				"/Applications/Visual Studio Code - Insiders.app/Contents/Resources/app/bin/code-insiders",
				"/Users/andy/Applications/Visual Studio Code - Insiders.app/Contents/Resources/app/bin/code-insiders",
			],
		],
		[
			// `bin/cursor`, else `bin/code` (Homebrew's cask links that one as `cursor`).
			"cursor",
			[
				"/Applications/Cursor.app/Contents/Resources/app/bin/cursor",
				"/Applications/Cursor.app/Contents/Resources/app/bin/code",
				"/Users/andy/Applications/Cursor.app/Contents/Resources/app/bin/cursor",
				"/Users/andy/Applications/Cursor.app/Contents/Resources/app/bin/code",
			],
		],
		[
			"windsurf",
			[
				"/Applications/Windsurf.app/Contents/Resources/app/bin/windsurf",
				"/Users/andy/Applications/Windsurf.app/Contents/Resources/app/bin/windsurf",
			],
		],
		[
			"codium",
			[
				"/Applications/VSCodium.app/Contents/Resources/app/bin/codium",
				"/Users/andy/Applications/VSCodium.app/Contents/Resources/app/bin/codium",
			],
		],
		["code-server", []],
	])("%s", (tool, paths) => expect(bundledToolPaths(tool, "darwin", "/Users/andy/")).toEqual(paths));

	test("elsewhere: the PATH only", () => {
		for (const tool of VSCODE_TOOLS) expect(bundledToolPaths(tool, "linux", "/home/andy")).toEqual([]);
	});
});

describe("what /ide install vscode says when it found no tool", () => {
	test.each([
		["linux", "No VS Code command-line tool on the PATH (code, code-insiders, cursor, windsurf, codium, code-server)."],
		[
			"darwin",
			"No VS Code command-line tool on the PATH (code, code-insiders, cursor, windsurf, codium, code-server) or in the .app bundles of /Applications and ~/Applications.",
		],
	])("%s", (platform, first) => {
		expect(installReport("/p/client.vsix", [], platform).split("\n")[0]).toBe(first);
	});
});
