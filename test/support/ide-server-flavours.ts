/**
 * What each editor's Claude Code IDE server does, as /work/shared/reference/ide-server-protocol.md read it from
 * the editors' own sources (§ numbers below are that document's): the one table the fake IDE servers are built
 * from, so a test names a flavour and gets every quirk of that editor at once.
 */

export type IdeFlavour = "jetbrains" | "vscode" | "claudecode-nvim" | "claude-code-ide-el" | "pi-ide-nvim";

export interface FlavourCapabilities {
	/** `serverInfo.name` in the `initialize` result. */
	serverName: string;
	/** The lockfile's `ideName`. */
	ideName: string;
	/** `claude`: `~/.claude/ide`; `pi`: `~/.pi/ide` (pi-ide.nvim, §6). */
	lockDir: "claude" | "pi";
	/** `initialize`'s protocolVersion: fixed, or `negotiated` as the MCP SDK does (echoes a version it knows, §2). */
	protocolVersion: "2024-11-05" | "negotiated";
	/** The names `tools/list` answers with, in the editor's order. */
	tools: readonly string[];
	/** Tools answered although `tools/list` leaves them out. */
	unlistedTools: readonly string[];
	/** The notifications the editor sends to its clients. */
	notifications: readonly string[];
	/** `one`: a new client closes the previous one with a close frame without a code (the peer sees 1005). */
	clients: "one" | "many";
	/** How lines and characters count in `selection_changed` and `at_mentioned`. */
	positions: "0-based" | "1-based";
	/**
	 * A missing or wrong token: `checked-close-1008` upgrades, then closes 1008 "Unauthorized";
	 * `checked-http-400` refuses the upgrade; `checked-close` closes the socket; `none` never checks.
	 */
	token: "checked-close-1008" | "checked-http-400" | "checked-close" | "none";
	/** The `mcp` subprotocol: `required` refuses an upgrade without it (HTTP 400); `echoed` echoes it when offered; `ignored` never echoes. */
	subprotocol: "required" | "echoed" | "ignored";
	/** What the server sends to keep a client alive. */
	keepAlive: "jsonrpc-ping" | "ws-ping" | "none";
	/** The upgrade headers that may carry the token (lower-case). */
	authHeader: string[];
	/** `full`: `{text, filePath, fileUrl, selection}`; `no-fileUrl`: without `fileUrl`; `jetbrains`: `{selection, text, filePath}`. */
	selectionShape: "full" | "no-fileUrl" | "jetbrains";
	/** Pushes the last known selection `replayDelayMs` after `initialize`, when a selection happened before. */
	replaysSelectionOnConnect: boolean;
	/** Sends `selection_changed` when only the active file changed (no cursor move). */
	pushesOnFileSwitch: boolean;
	/** getDiagnostics: `array` `[{uri, diagnostics}]`; `object` keyed by URI. */
	diagnosticsShape: "array" | "object";
	/** getDiagnostics for a uri the editor has not open: `error-32001` (nvim, §3), or `empty` diagnostics. */
	unopenedDiagnostics: "error-32001" | "empty";
	/** `vscode`: Error/Warning/Information/Hint; `nvim`: Error/Warning/Info/Hint. */
	severityNames: "vscode" | "nvim";
	/** openDiff's result: `claude` `[FILE_SAVED, text]`/`[DIFF_REJECTED, tab_name]`; `jetbrains` LF-normalises the text, leaves out tab_name (§3). */
	diffResult: "claude" | "jetbrains";
	/** Has getOpenEditors (with `isDirty`) and checkDocumentDirty. */
	dirtyTools: boolean;
	/** Writes `runningInWindows` into its lockfile. */
	writesRunningInWindows: boolean;
}

const CLAUDE_HEADER = "x-claude-code-ide-authorization";

export const FLAVOURS: Record<IdeFlavour, FlavourCapabilities> = {
	// §2, §3 "JetBrains tools", §4 from [JBDOC]: no selection tools, but it sends selection_changed.
	jetbrains: {
		serverName: "Claude Code JetBrains Plugin",
		ideName: "IntelliJ IDEA",
		lockDir: "claude",
		protocolVersion: "2024-11-05",
		tools: [
			"openDiff",
			"openFile",
			"open_files",
			"close_tab",
			"get_all_opened_file_paths",
			"reformat_file",
			"getDiagnostics",
		],
		unlistedTools: [],
		// §4: diagnostics_changed "also exists in the JetBrains plugin"; at_mentioned is not said to.
		notifications: ["selection_changed", "diagnostics_changed"],
		clients: "many",
		positions: "0-based",
		// §2: "closes unauthorised sockets"; the close code is not documented.
		token: "checked-close",
		subprotocol: "required",
		keepAlive: "jsonrpc-ping",
		authHeader: [CLAUDE_HEADER],
		selectionShape: "jetbrains",
		replaysSelectionOnConnect: false,
		pushesOnFileSwitch: true,
		diagnosticsShape: "array",
		unopenedDiagnostics: "empty",
		severityNames: "vscode",
		diffResult: "jetbrains",
		dirtyTools: false,
		// §1 runningInWindows: "JetBrains writes it too".
		writesRunningInWindows: true,
	},
	// §8 measured 1.0.100 in a real VS Code; §2-§4 from [VSIX].
	vscode: {
		serverName: "Claude Code VSCode MCP",
		ideName: "Visual Studio Code",
		lockDir: "claude",
		// §8: 2024-11-05 answered with 2024-11-05; the SDK McpServer negotiates (§2).
		protocolVersion: "negotiated",
		tools: [
			"getCurrentSelection",
			"getLatestSelection",
			"getOpenEditors",
			"getWorkspaceFolders",
			"checkDocumentDirty",
			"saveDocument",
			"getDiagnostics",
			"openDiff",
			"close_tab",
			"closeAllDiffTabs",
			"openFile",
			"executeCode",
		],
		unlistedTools: [],
		notifications: ["selection_changed", "at_mentioned", "diagnostics_changed"],
		clients: "one",
		positions: "0-based",
		token: "checked-close-1008",
		// §2 says 1.0.100 "ignores" the subprotocol (it never requires it), but §8 measured that it echoes `mcp`
		// when offered (the SDK's `ws` server echoes the first offer by default); the measurement wins.
		subprotocol: "echoed",
		keepAlive: "none",
		authHeader: [CLAUDE_HEADER],
		selectionShape: "full",
		replaysSelectionOnConnect: true,
		// §8: opening a file sends nothing until the cursor moves.
		pushesOnFileSwitch: false,
		diagnosticsShape: "array",
		unopenedDiagnostics: "empty",
		severityNames: "vscode",
		diffResult: "claude",
		dirtyTools: true,
		writesRunningInWindows: true,
	},
	// §5: 10 listed tools plus close_tab (§3 close_tab), no executeCode.
	"claudecode-nvim": {
		serverName: "claudecode-neovim",
		ideName: "Neovim",
		lockDir: "claude",
		protocolVersion: "2024-11-05",
		tools: [
			"openFile",
			"openDiff",
			"getCurrentSelection",
			"getLatestSelection",
			"getOpenEditors",
			"getWorkspaceFolders",
			"getDiagnostics",
			"checkDocumentDirty",
			"saveDocument",
			"closeAllDiffTabs",
		],
		unlistedTools: ["close_tab"],
		notifications: ["selection_changed", "at_mentioned"],
		clients: "many",
		positions: "0-based",
		token: "checked-http-400",
		subprotocol: "echoed",
		keepAlive: "ws-ping",
		authHeader: [CLAUDE_HEADER],
		selectionShape: "full",
		replaysSelectionOnConnect: false,
		pushesOnFileSwitch: true,
		diagnosticsShape: "array",
		unopenedDiagnostics: "error-32001",
		severityNames: "nvim",
		diffResult: "claude",
		dirtyTools: true,
		writesRunningInWindows: false,
	},
	// §5 [CCIDE]: executeCode is opt-in (Elisp), so left out; §4: 1-based selections; §2: never checks a token.
	"claude-code-ide-el": {
		serverName: "claude-code-ide-mcp",
		ideName: "Emacs",
		lockDir: "claude",
		protocolVersion: "2024-11-05",
		tools: ["openFile", "getDiagnostics", "close_tab", "openDiff", "closeAllDiffTabs"],
		unlistedTools: [],
		notifications: ["selection_changed", "at_mentioned"],
		clients: "many",
		positions: "1-based",
		token: "none",
		// §2: "the Emacs servers declare it".
		subprotocol: "echoed",
		// §2: its ping timer is disabled.
		keepAlive: "none",
		authHeader: [CLAUDE_HEADER],
		// §4: `{text, filePath, selection}`.
		selectionShape: "no-fileUrl",
		replaysSelectionOnConnect: false,
		pushesOnFileSwitch: true,
		diagnosticsShape: "array",
		unopenedDiagnostics: "empty",
		severityNames: "vscode",
		diffResult: "claude",
		dirtyTools: false,
		writesRunningInWindows: false,
	},
	// §6 [PINV]: its own lock dir and header, four tools, diagnostics keyed by URI with "Information".
	"pi-ide-nvim": {
		serverName: "pi-ide.nvim",
		ideName: "Neovim",
		lockDir: "pi",
		protocolVersion: "2024-11-05",
		tools: ["openDiff", "close_tab", "getDiagnostics", "getOpenEditorTabs"],
		unlistedTools: [],
		notifications: ["selection_changed"],
		clients: "many",
		positions: "0-based",
		token: "checked-http-400",
		subprotocol: "echoed",
		keepAlive: "ws-ping",
		authHeader: [CLAUDE_HEADER, "x-pi-ide-authorization"],
		selectionShape: "no-fileUrl",
		replaysSelectionOnConnect: false,
		pushesOnFileSwitch: true,
		diagnosticsShape: "object",
		unopenedDiagnostics: "empty",
		severityNames: "vscode",
		diffResult: "claude",
		dirtyTools: false,
		writesRunningInWindows: false,
	},
};
