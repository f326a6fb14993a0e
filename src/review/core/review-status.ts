import type { ReviewStanding } from "../../settings/core/settings.ts";
import { clip, sanitizeForDisplay } from "../../shared/core/display-text.ts";

/** Who decided a review, for `/ide status` and the model: pi's select, or the editor it was shown in. */
export type Decider = "pi" | "editor";

/** One review's end, as `/ide status` lists it. */
export interface ReviewRecord {
	atSeconds: number;
	tool: string;
	displayName: string;
	outcome:
		| "accepted"
		| "accepted, changed by you"
		| "rejected"
		| "not written, the file moved"
		| "cancelled"
		| "blocked";
	/** Where it was decided: "pi", "Neovim", "VS Code" ... */
	where: string;
	by?: Decider;
}

/** `/ide status` keeps this many; older decisions are in the session's own history. */
export const MAX_REVIEW_RECORDS = 5;

const SOURCE_WORDS: Record<ReviewStanding["source"], string> = {
	default: 'the default; turn it on with /ide review on or "review": true',
	global: "global settings",
	project: "the project's settings",
	process: "/ide review, for this pi process",
	"print-mode": 'a project\'s "review": true, which print mode does not obey',
};

/**
 * The review's section of `/ide status`: on or off and why, where a diff would show (or why it would not),
 * "accept all" when chosen, the last decisions.
 */
export function reviewStatusLines(input: {
	standing: ReviewStanding;
	/** "Neovim (pid 12), its own server", or why no editor can show it. */
	shows: string;
	acceptingAll: boolean;
	records: readonly ReviewRecord[];
	nowSeconds: number;
}): string[] {
	const { standing } = input;
	const lines = [`Review of the model's edits: ${standing.on ? "on" : "off"} (${SOURCE_WORDS[standing.source]})`];
	if (standing.on) lines.push(`  shows in: ${input.shows}`);
	if (standing.on && input.acceptingAll)
		lines.push("  accepting every change for this session (/ide review on asks again)");
	for (const record of input.records.slice(-MAX_REVIEW_RECORDS).reverse()) {
		const age = Math.max(0, Math.round(input.nowSeconds - record.atSeconds));
		const name = clip(sanitizeForDisplay(record.displayName), 80);
		lines.push(
			`  ${age}s ago: ${record.tool} ${name}: ${record.outcome} (${record.by === "pi" ? "in pi" : `in ${record.where}`})`,
		);
	}
	return lines;
}

/** What `/ide review on|off` says it did. */
export function reviewToggledText(on: boolean): string {
	return on
		? "pi-ide: review on for this pi process: the model's write and edit open as a diff in the connected editor and ask here; first answer wins"
		: "pi-ide: review off for this pi process: the model's edits land without review";
}
