/** The protocol's `app` for the editor this client runs in, from `vscode.env.appName`. */
export type AppId = "vscode" | "cursor" | "windsurf" | "vscodium";

export function appFromName(appName: string): AppId {
	const name = appName.toLowerCase();
	if (name.includes("cursor")) return "cursor";
	if (name.includes("windsurf")) return "windsurf";
	if (name.includes("vscodium")) return "vscodium";
	// Visual Studio Code, its Insiders, code-server and other builds of VS Code itself.
	return "vscode";
}
