import type { SourceEvent } from "../../editors/core/editor.ts";
import { clip, sanitizeForDisplay } from "../../shared/core/display-text.ts";
import { CONNECTION_END_TEXT, type ConnectionEnd } from "./rules.ts";

/** `/ide status` keeps this many of this pi process's recent events, newest last. */
export const MAX_RECENT_EVENTS = 20;

/** What happened, as `/ide status` tells it: enough to answer "why did it (dis)connect?". */
export type IdeEvent =
	| { kind: "connected"; label: string; why: string }
	| { kind: "disconnected"; label: string; why: ConnectionEnd | "ide-off" }
	| { kind: "rejected"; label: string; reason: string }
	| SourceEvent;

const show = (text: string, max = 160) => clip(sanitizeForDisplay(text), max);

export function eventText(event: IdeEvent): string {
	switch (event.kind) {
		case "connected":
			return `connected to ${show(event.label)}: ${show(event.why)}`;
		case "disconnected":
			return `disconnected from ${show(event.label)}: ${event.why === "ide-off" ? "/ide off" : CONNECTION_END_TEXT[event.why]}`;
		case "rejected":
			return `${show(event.label)} wrote a state pi cannot use: ${show(event.reason)}`;
		case "dir-appeared":
			return `${show(event.dir)} appeared; reading it`;
		case "dir-gone":
			return `${show(event.dir)} disappeared; looking for it again`;
		case "dir-untrusted":
			return `${show(event.dir)} is not read: ${show(event.reason)}`;
		case "app-found":
			return `${show(event.label)} is running; reading ${show(event.detail)}`;
		case "app-gone":
			return `${show(event.label)} quit`;
	}
}

/** `12:03:04 disconnected from nvim 1234: process gone, its file left behind`. */
export function eventLine(clockText: string, event: IdeEvent): string {
	return `${clockText} ${eventText(event)}`;
}

/** The log after one more line: at most `MAX_RECENT_EVENTS`, oldest dropped first. */
export function appendEvent(lines: readonly string[], line: string): string[] {
	return [...lines, line].slice(-MAX_RECENT_EVENTS);
}
