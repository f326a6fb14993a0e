/**
 * pi-bridge.nvim sends a prompt with its placeholders already expanded into the text: `@this`, `@selection` and
 * `@content` as fenced blocks of the current buffer (its filetype as the fence's tag, no file named), `@marks` /
 * `@mX` as one line each naming the mark's file (older plugins: a header line naming it, then a fenced block),
 * `@diagnostics` as `L3:C5 [ERROR] message` lines of the current buffer. These rules take the text apart so the
 * safety rules apply to what was inlined, and the user's own words stay as typed.
 */

/** Where an inlined part's text came from: the buffer the prompt was sent from, a mark's file, or unknown. */
export type PartOrigin = { from: "buffer" } | { from: "mark"; file?: string } | { from: "unknown" };

/** A piece of the text as sent: the pieces in order, concatenated, are the text. */
export type PromptPart =
	| { kind: "words"; text: string }
	/**
	 * A fenced block: its fence lines as sent (no closing one when the text ends first), the lines between;
	 * `mentions`: the files mark lines inside it name (a fence typed around `@mA`): each is checked too.
	 */
	| {
			kind: "block";
			text: string;
			open: string;
			body: string;
			close?: string;
			origin: PartOrigin;
			mentions: string[];
	  }
	/** A mark's line: its head as sent (`Vim mark A - [a.lua:4](/p/a.lua):`), then its code. */
	| { kind: "mark"; text: string; head: string; code: string; origin: PartOrigin }
	/** Diagnostics of the current buffer, from the first `L1:C1 [ERROR]` of a line to the line's end. */
	| { kind: "diagnostics"; text: string; origin: PartOrigin };

const FENCE_OPEN = /^(`{3,})([^`\s]*)[ \t]*$/;
// The plugin escapes neither the label (`[id].tsx:3`) nor the path (`app/(shop)/`): both are read lazily, up to the
// `):` the code span (or the line's end) follows. `[^\n]`, not `.`: a line may hold a CR or U+2028.
const MARK_LINE = /^(Vim mark \S{1,4} - (?:\[[^\n]*?:\d+\]\((\/[^\n]*?)\)|\[No Name\]:\d+):)((?: [^\n]*)?)$/;
// Older plugins: a header naming the file, its fenced block after it.
const MARK_HEADER = /^Vim mark \S{1,4} - (\/.*):\d+:[ \t]*$/;
const DIAGNOSTIC = /L\d+:C\d+ \[(?:ERROR|WARN|INFO|HINT|UNKNOWN)\] /;

/** The text in parts, in order. */
export function promptParts(text: string, context: { filetype?: string }): PromptPart[] {
	const lines = text.split("\n");
	const starts: number[] = [];
	let offset = 0;
	for (const line of lines) {
		starts.push(offset);
		offset += line.length + 1;
	}
	const lineEnd = (index: number) => (starts[index] ?? 0) + (lines[index]?.length ?? 0);
	const parts: PromptPart[] = [];
	let cursor = 0;
	const take = (from: number, part: PromptPart) => {
		if (from > cursor) parts.push({ kind: "words", text: text.slice(cursor, from) });
		parts.push(part);
		cursor = from + part.text.length;
	};
	const ownTag = context.filetype ? context.filetype : "text";
	for (let index = 0; index < lines.length; index++) {
		const line = lines[index] ?? "";
		const from = starts[index] ?? 0;
		const fence = FENCE_OPEN.exec(line);
		if (fence) {
			const length = fence[1]?.length ?? 3;
			let end = index + 1;
			while (end < lines.length && !isClosing(lines[end] ?? "", length)) end++;
			const closed = end < lines.length;
			const header = lastNonBlank(lines, index);
			const markFile = header === undefined ? undefined : MARK_HEADER.exec(header)?.[1];
			const origin: PartOrigin =
				markFile !== undefined
					? { from: "mark", file: markFile }
					: fence[2] === ownTag
						? { from: "buffer" }
						: { from: "unknown" };
			const last = closed ? end : lines.length - 1;
			const inside = lines.slice(index + 1, closed ? end : lines.length);
			take(from, {
				kind: "block",
				text: text.slice(from, lineEnd(last)),
				open: line,
				body: inside.join("\n"),
				...(closed && { close: lines[end] ?? "" }),
				origin,
				mentions: inside.flatMap((inner) => MARK_LINE.exec(inner)?.[2] ?? MARK_HEADER.exec(inner)?.[1] ?? []),
			});
			index = last;
			continue;
		}
		const mark = MARK_LINE.exec(line);
		if (mark) {
			const file = mark[2];
			const origin: PartOrigin = { from: "mark", ...(file !== undefined && { file }) };
			take(from, { kind: "mark", text: line, head: mark[1] ?? "", code: mark[3] ?? "", origin });
			continue;
		}
		const diagnostic = DIAGNOSTIC.exec(line);
		if (diagnostic)
			take(from + diagnostic.index, {
				kind: "diagnostics",
				text: line.slice(diagnostic.index),
				origin: { from: "buffer" },
			});
	}
	if (cursor < text.length) parts.push({ kind: "words", text: text.slice(cursor) });
	return parts;
}

const isClosing = (line: string, length: number) => /^`{3,}[ \t]*$/.test(line) && line.trim().length >= length;

function lastNonBlank(lines: readonly string[], before: number): string | undefined {
	for (let index = before - 1; index >= 0; index--) if ((lines[index] ?? "").trim() !== "") return lines[index];
	return undefined;
}
