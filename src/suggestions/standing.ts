import { type SuggestionStanding, type SuggestionsSetting, suggestionStanding } from "../settings/core/settings.ts";
import { show } from "../shared/core/display-text.ts";
import { suggestionsMemory } from "../shared/process-memory.ts";

/**
 * Whether pi answers editors' `getSuggestions` right now: the settings, and `/ide suggestions on|off` for this pi
 * process (kept on globalThis, as `/ide review`'s, so `/new` and `/reload` keep it), and the words for it.
 */

export function suggestionStandingNow(setting: SuggestionsSetting): SuggestionStanding {
	return suggestionStanding(setting, suggestionsMemory().override);
}

/** `/ide suggestions on|off`: for this pi process, over the settings; what is now true, as one notice. */
export function setSuggestionsForProcess(on: boolean): string {
	suggestionsMemory().override = on;
	return on
		? "pi-ide: inline suggestions on for this pi process: every editor that asks gets an answer from the model"
		: "pi-ide: inline suggestions off for this pi process: no editor's request reaches a model";
}

const STANDING_WHY: Record<SuggestionStanding["source"], string> = {
	default: 'the default; /ide suggestions on|off, or "suggestions" in pi\'s global settings',
	global: "global settings",
	project: "the project's settings",
	process: "/ide suggestions, for this pi process",
};

export const standingWhy = (standing: SuggestionStanding): string => STANDING_WHY[standing.source];

/** The one notice of a pi process whose suggestions nobody turned on: an editor asked, and what it costs. */
export function firstAnswerNotice(modelRef: string, perMinute: number): string {
	return (
		`pi-ide: an editor asked pi for inline suggestions; pi answers with ${show(modelRef, 80)} ` +
		`(a model call per request, at most ${perMinute} a minute per editor). ` +
		'/ide suggestions off stops it for this pi process, "suggestions": false in pi\'s settings for good'
	);
}
