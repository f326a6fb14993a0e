import { recentEvents } from "../shared/process-memory.ts";
import { appendEvent, eventLine, type IdeEvent } from "./core/event-log.ts";

/** One event into this pi process's recent events (`/ide status`), stamped with its time of day. */
export function recordEvent(nowSeconds: number, event: IdeEvent): void {
	const log = recentEvents();
	const clockText = new Date(nowSeconds * 1000).toTimeString().slice(0, 8);
	log.splice(0, log.length, ...appendEvent(log, eventLine(clockText, event)));
}
