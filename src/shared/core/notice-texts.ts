import { sanitizeForDisplay } from "./display-text.ts";

/** What pi tells the user in a notice: every one starts with `pi-ide:`. */
export const noticeText = {
	notReading: (reason: string) => `pi-ide: not reading editor state: ${sanitizeForDisplay(reason)}`,
	stoppedReading: (reason: string) => `pi-ide: stopped reading editor state: ${sanitizeForDisplay(reason)}`,
	watcherProblem: (message: string) => `pi-ide: ${sanitizeForDisplay(message)}`,
	gone: (label: string) => `pi-ide: ${label} is gone; disconnected`,
	ended: (label: string, why: string) => `pi-ide: disconnected from ${label}: ${why}`,
	rejectedWrite: (label: string, reason: string) =>
		`pi-ide: ${label} wrote a state pi cannot use (${sanitizeForDisplay(reason)}); no editor context until its next valid write`,
	paused: "pi-ide: disconnected; auto-connect paused until you pick an editor with /ide",
	connected: (label: string) => `pi-ide: connected to ${label}`,
	editorGone: "pi-ide: that editor is gone",
	unknownArgument: (argument: string) =>
		`pi-ide: unknown argument "${sanitizeForDisplay(argument.slice(0, 40))}"; use /ide, /ide all, /ide off or /ide status`,
} as const;
