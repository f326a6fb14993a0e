import { show } from "../../../shared/core/display-text.ts";
import {
	ASKS_SINCE_VERSION,
	type ClientSince,
	QUESTIONS_SINCE_VERSION,
	SUGGESTIONS_SINCE_VERSION,
} from "./client-channel.ts";

/**
 * The standing links to the VS Code clients (pure): what pi offers one window, how `/ide status` says it, and how
 * an ask names the window. A link is kept while pi offers the window something: inline completions (suggestions
 * on, a 0.5.0 client on) or asks (asks on, a 0.6.0 client on; pi's questions shown there from 0.7.0).
 */

/** Which of the two a link offers. */
export interface LinkOffers {
	suggestions: boolean;
	asks: boolean;
}

/** What pi offers a window now, or undefined: nothing, so no link. */
export function linkOffers(on: LinkOffers, client: { asks: boolean }): LinkOffers | undefined {
	const offers = { suggestions: on.suggestions, asks: on.asks && client.asks };
	return offers.suggestions || offers.asks ? offers : undefined;
}

/** `inline completions`, `asks`, or both: what a link is for, as `/ide status` names it. */
export function offersText(offers: LinkOffers): string {
	if (offers.suggestions && offers.asks) return "inline completions and asks";
	return offers.suggestions ? "inline completions" : "asks";
}

/** A link as `/ide status` sees it. */
export type LinkStanding =
	| { state: "connecting"; offers: LinkOffers }
	| { state: "offered"; offers: LinkOffers }
	| { state: "failed"; offers: LinkOffers; reason: string };

/** The note on the state file's line: what the window was offered, or why not yet. */
export function linkStatusText(link: LinkStanding): string {
	if (link.state === "connecting") return `${offersText(link.offers)}: connecting`;
	if (link.state === "failed") return `${offersText(link.offers)}: not offered: ${link.reason}`;
	return [
		link.offers.suggestions && "inline completions: offered (VS Code asks pi as you type)",
		link.offers.asks && 'asks: offered ("pi: Ask…" in the palette)',
	]
		.filter((part) => typeof part === "string")
		.join("; ");
}

/**
 * What an older client cannot do of what pi has on (`/ide status`, the state file's line); none when nothing. A
 * client that asks but is older than 0.7.0 shows none of pi's questions: they stay in pi's terminal.
 */
export function olderClientNotes(
	on: LinkOffers,
	client: { suggesting: ClientSince; asking: ClientSince; questioning: ClientSince },
): string[] {
	const notes: string[] = [];
	if (on.suggestions && client.suggesting.kind === "older")
		notes.push(
			`inline completions: client ${client.suggesting.version} does not ask pi (${SUGGESTIONS_SINCE_VERSION} on does)`,
		);
	if (on.asks && client.asking.kind === "older")
		notes.push(`asks: client ${client.asking.version} cannot ask pi (${ASKS_SINCE_VERSION} on can)`);
	else if (on.asks && client.asking.kind === "does" && client.questioning.kind === "older")
		notes.push(
			`questions: client ${client.questioning.version} cannot show pi's questions, they stay in pi (${QUESTIONS_SINCE_VERSION} on can)`,
		);
	return notes;
}

/** The VS Code client's window by its `app`, as the user reads it: `VS Code`, `Cursor`. */
const APP_LABELS: ReadonlyMap<string, string> = new Map([
	["vscode", "VS Code"],
	["cursor", "Cursor"],
	["windsurf", "Windsurf"],
	["vscodium", "VSCodium"],
]);

/** How an ask names the window it came from (the transcript, `/ide status`): `VS Code 4242`. */
export function clientLabel(app: string, pid: number): string {
	return `${APP_LABELS.get(app) ?? (show(app, 24) || "VS Code")} ${pid}`;
}
