/** JetBrains' products by the names their plugin writes as `ideName` (the IDE's own product name). */
const JETBRAINS_PRODUCTS = [
	"intellij",
	"pycharm",
	"webstorm",
	"goland",
	"rider",
	"clion",
	"phpstorm",
	"rubymine",
	"datagrip",
	"dataspell",
	"rustrover",
	"android studio",
	"aqua",
	"jetbrains",
];

/**
 * The protocol's `app` for an IDE server's editor, from a fixed table of its `ideName`: the names the shipped
 * VS Code client writes for VS Code's family (code-server is VS Code), `nvim` and `emacs` as their own sources
 * name them, else `ide`. Nothing the lockfile says becomes an `app` of its own.
 */
export function appOfIdeName(ideName: string | undefined): string {
	const name = (ideName ?? "").toLowerCase();
	if (JETBRAINS_PRODUCTS.some((product) => name.includes(product))) return "jetbrains";
	if (name.includes("cursor")) return "cursor";
	if (name.includes("windsurf")) return "windsurf";
	if (name.includes("vscodium")) return "vscodium";
	if (name.includes("visual studio code") || name.includes("code-server") || name === "code") return "vscode";
	if (name.includes("neovim") || name === "nvim") return "nvim";
	if (name.includes("emacs")) return "emacs";
	return "ide";
}

/** What pi must know of a server beyond what it lists: how its editors number positions and what they push. */
export interface ServerQuirks {
	/** claude-code-ide.el sends 1-based lines and characters (§4); every other server 0-based. */
	oneBasedPositions: boolean;
	/**
	 * Anthropic's VS Code extension pushes nothing when the user opens another file, only when the cursor moves
	 * (§8): pi asks it before a prompt, within the prompt's flush cap.
	 */
	silentOnFileSwitch: boolean;
}

/** The quirks of a server by the name it gives in `initialize` (§2 "Server names"). */
export function quirksOfServer(serverName: string): ServerQuirks {
	return {
		oneBasedPositions: serverName === "claude-code-ide-mcp",
		silentOnFileSwitch: /^Claude Code .+ MCP$/.test(serverName),
	};
}
