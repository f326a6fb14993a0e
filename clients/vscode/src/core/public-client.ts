/** The public VS Code client of the original pi-ide-context project (`editors/vscode` there). */
export const PUBLIC_CLIENT_ID = "AndyLuo.pi-ide-context-vscode";

/**
 * Both clients write the extension host's `<pid>.json`: with both installed they overwrite each other. Said
 * once, in VS Code, when this one starts.
 */
export const BOTH_CLIENTS_TEXT =
	"pi-ide-context: the public pi-ide-context VS Code extension is installed too. Both write this window's state file for pi and overwrite each other: disable or uninstall one of them.";
