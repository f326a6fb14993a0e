import { headChars } from "../../shared/core/text-cuts.ts";

/** A reply shown in an editor is at most this long (UTF-16 units, about as many bytes for code and prose). */
export const MAX_REPLY_CHARS = 256 * 1024;

/** The assistant messages of a run so far: the finished ones and the one streaming. */
export interface ReplyText {
	done: string[];
	current: string;
}

/** The reply as one text, cut at the cap with a note. */
export function replyOf(parts: ReplyText): string {
	const whole = [...parts.done, ...(parts.current === "" ? [] : [parts.current])].join("\n\n");
	if (whole.length <= MAX_REPLY_CHARS) return whole;
	return `${headChars(whole, MAX_REPLY_CHARS)}\n\n[reply cut at ${MAX_REPLY_CHARS / 1024} KiB]`;
}

/** The text of an assistant message, thinking and tool calls left out; not one: undefined. */
export function assistantText(message: unknown): string | undefined {
	const { role, content } = (message ?? {}) as { role?: unknown; content?: unknown };
	if (role !== "assistant") return undefined;
	if (typeof content === "string") return content;
	if (!Array.isArray(content)) return "";
	return content
		.map((part) => (part?.type === "text" && typeof part.text === "string" ? part.text : ""))
		.filter((text) => text !== "")
		.join("\n");
}

/** The text of a user message (its text parts), for matching a queued ask; not one: undefined. */
export function userText(message: unknown): string | undefined {
	const { role, content } = (message ?? {}) as { role?: unknown; content?: unknown };
	if (role !== "user") return undefined;
	if (typeof content === "string") return content;
	if (!Array.isArray(content)) return undefined;
	return content.map((part) => (part?.type === "text" && typeof part.text === "string" ? part.text : "")).join("");
}
