const SETTINGS_KEY = "pi-ide";

/** `"pi-ide": { "autoconnect": false }` turns auto-connect off; anything else (or nothing) leaves it on. */
function autoconnectSetting(settings: unknown): boolean | undefined {
	if (typeof settings !== "object" || settings === null) return undefined;
	const section = (settings as Record<string, unknown>)[SETTINGS_KEY];
	if (typeof section !== "object" || section === null) return undefined;
	const value = (section as Record<string, unknown>).autoconnect;
	return typeof value === "boolean" ? value : undefined;
}

/** Project settings win over global ones; a missing setting means enabled. */
export function resolveAutoconnect(globalSettings: unknown, projectSettings: unknown): boolean {
	return autoconnectSetting(projectSettings) ?? autoconnectSetting(globalSettings) ?? true;
}
