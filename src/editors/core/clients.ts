/**
 * The editor clients this package ships (`clients/`): what they write in the protocol's optional `client`
 * field, and the version the package holds now (a test keeps it equal to the client's own manifest).
 */
export const VSCODE_CLIENT_NAME = "pi-ide-context-vscode";
export const VSCODE_CLIENT_VERSION = "0.7.0";

/** The apps a VS Code client writes (`vscode.env.appName` mapped). */
export const VSCODE_APPS: ReadonlySet<string> = new Set(["vscode", "cursor", "windsurf", "vscodium"]);

/** True when `client` is this package's VS Code client at an older version than the one shipped now. */
export function vscodeClientOutdated(client: string | undefined): boolean {
	const version = vscodeClientVersion(client);
	return (
		version !== undefined && versionParts(version) !== undefined && !versionAtLeast(version, VSCODE_CLIENT_VERSION)
	);
}

/** The version in a `client` field of this package's VS Code client; undefined for any other client. */
export function vscodeClientVersion(client: string | undefined): string | undefined {
	const prefix = `${VSCODE_CLIENT_NAME}/`;
	return client?.startsWith(prefix) ? client.slice(prefix.length) : undefined;
}

/** `version` (major.minor.patch, anything after ignored) is `since` or later; an unreadable one never is. */
export function versionAtLeast(version: string, since: string): boolean {
	const installed = versionParts(version);
	const wanted = versionParts(since) ?? [];
	if (!installed) return false;
	for (let index = 0; index < 3; index++) {
		const a = installed[index] ?? 0;
		const b = wanted[index] ?? 0;
		if (a !== b) return a > b;
	}
	return true;
}

function versionParts(version: string): number[] | undefined {
	const match = /^(\d+)\.(\d+)\.(\d+)/.exec(version);
	return match ? [Number(match[1]), Number(match[2]), Number(match[3])] : undefined;
}
