import { describe, expect, test } from "vitest";
import { appOfIdeName, quirksOfServer, type ServerQuirks } from "../../../../src/editors/ide-servers/core/ide-apps.ts";

describe("appOfIdeName: a fixed table of the names editors write as ideName", () => {
	test.each<[string | undefined, string]>([
		["IntelliJ IDEA", "jetbrains"],
		["IntelliJ IDEA Ultimate", "jetbrains"],
		["PyCharm Community Edition", "jetbrains"],
		["WebStorm", "jetbrains"],
		["GoLand", "jetbrains"],
		["Rider", "jetbrains"],
		["CLion", "jetbrains"],
		["RustRover", "jetbrains"],
		["Android Studio", "jetbrains"],
		["Visual Studio Code", "vscode"],
		["Visual Studio Code - Insiders", "vscode"],
		["code-server", "vscode"],
		["Code", "vscode"],
		["Cursor", "cursor"],
		["Windsurf", "windsurf"],
		["VSCodium", "vscodium"],
		["Neovim", "nvim"],
		["nvim", "nvim"],
		["Emacs", "emacs"],
		["Emacs (session)", "emacs"],
		["Emacs (my-project)", "emacs"],
		[undefined, "ide"],
		["", "ide"],
		["Obsidian", "ide"],
		["Zed", "ide"],
		["Eclipse", "ide"],
		["Visual Studio", "ide"],
		["\u001b[31mevil", "ide"],
	])("%s → %s", (ideName, app) => {
		expect(appOfIdeName(ideName)).toBe(app);
	});
});

describe("quirksOfServer: by the name a server gives in initialize (reference §2)", () => {
	const plain: ServerQuirks = { oneBasedPositions: false, silentOnFileSwitch: false };
	test.each<[string, ServerQuirks]>([
		["Claude Code VSCode MCP", { oneBasedPositions: false, silentOnFileSwitch: true }],
		["Claude Code Cursor MCP", { oneBasedPositions: false, silentOnFileSwitch: true }],
		["Claude Code code-server MCP", { oneBasedPositions: false, silentOnFileSwitch: true }],
		["Claude Code Visual Studio Code - Insiders MCP", { oneBasedPositions: false, silentOnFileSwitch: true }],
		["claudecode-neovim", plain],
		["claude-code-ide-mcp", { oneBasedPositions: true, silentOnFileSwitch: false }],
		["monet.el", plain],
		["Claude Code JetBrains Plugin", plain],
		["pi-ide.nvim", plain],
		["unnamed", plain],
		["", plain],
		["Claude Code MCP", plain],
		["claude-code-ide-mcp2", plain],
	])("%s", (name, quirks) => {
		expect(quirksOfServer(name)).toEqual(quirks);
	});
});
