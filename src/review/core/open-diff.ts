import { type DiffRequest, type EditorAnswer, MAX_ACCEPTED_TEXT_CHARS } from "./diff-host.ts";

/**
 * `openDiff` and `close_tab` in the IDE servers' shapes (ide-server-protocol.md §3), which the shipped VS Code
 * client's socket speaks too: one review code for both.
 */

/** The Claude CLI's format with pi's mark: the known servers clean `✻ … ⧉` tabs up, and a Claude CLI's
 * `closeAllDiffTabs` closes only `[Claude Code]` ones, never pi's. */
export function tabNameOf(request: Pick<DiffRequest, "displayName" | "id">): string {
	const base = request.displayName.slice(request.displayName.lastIndexOf("/") + 1) || request.displayName;
	return `✻ [pi] ${base} (${request.id}) ⧉`;
}

/**
 * `withBefore`: the left side's text too (`old_file_contents`, this package's VS Code client only): the file as pi
 * read it or as an earlier accepted change of the message leaves it, never the editor's unsaved document. The
 * IDE servers show the file itself on the left.
 */
export function openDiffArguments(request: DiffRequest, withBefore: boolean): Record<string, string> {
	return {
		old_file_path: request.file,
		new_file_path: request.file,
		new_file_contents: request.proposed,
		tab_name: tabNameOf(request),
		...(withBefore && request.onDisk !== undefined && { old_file_contents: request.onDisk }),
	};
}

function texts(result: unknown): string[] | undefined {
	if (typeof result !== "object" || result === null) return undefined;
	const content = (result as { content?: unknown }).content;
	if (!Array.isArray(content)) return undefined;
	const out: string[] = [];
	for (const item of content) {
		const text = typeof item === "object" && item !== null ? (item as { text?: unknown }).text : undefined;
		if (typeof text !== "string") return undefined;
		out.push(text);
	}
	return out;
}

/**
 * The server's answer. `FILE_SAVED` carries the proposal as the user left it (JetBrains LF-normalised); without
 * that text it is the proposal unchanged. `DIFF_REJECTED` is the server's reject, a tab closed on its side
 * included. `TAB_CLOSED` (the CLI accepts on it) decides nothing here: pi's select does.
 */
export function openDiffAnswerOf(result: unknown, proposed: string): EditorAnswer {
	const parts = texts(result);
	if (!parts || parts.length === 0) return { kind: "failed", reason: "its openDiff answer is not MCP text" };
	const [word, text] = parts;
	if (word === "FILE_SAVED") {
		// A text this long is no proposal anyone edited by hand: the answer fails, never cut into another text.
		if (text !== undefined && text.length > MAX_ACCEPTED_TEXT_CHARS)
			return { kind: "failed", reason: "its accepted text is too large" };
		return { kind: "accepted", text: text ?? proposed };
	}
	if (word === "DIFF_REJECTED") return { kind: "rejected" };
	if (word === "TAB_CLOSED") return { kind: "closed" };
	return { kind: "failed", reason: `it answered openDiff with ${JSON.stringify((word ?? "").slice(0, 40))}` };
}

/** The VS Code client's notification naming a tab of this review: `pi/diffShown` or `pi/diffClosed`. */
export function diffNotificationOf(method: string, params: unknown, tabName: string): "shown" | "closed" | undefined {
	if (method !== "pi/diffShown" && method !== "pi/diffClosed") return undefined;
	const named = typeof params === "object" && params !== null ? (params as { tab_name?: unknown }).tab_name : undefined;
	if (named !== tabName) return undefined;
	return method === "pi/diffShown" ? "shown" : "closed";
}
