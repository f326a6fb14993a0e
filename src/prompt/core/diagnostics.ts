import type { Diagnostic, Position } from "../../editors/core/protocol-state.ts";
import { withoutControlCharacters } from "../../shared/core/display-text.ts";

/** At most this many diagnostics are listed; the rest are counted. */
export const MAX_LISTED_DIAGNOSTICS = 20;
/** A message longer than this many UTF-8 bytes is cut, with `…`. */
export const MAX_DIAGNOSTIC_MESSAGE_BYTES = 300;
/** The whole section stays under this many UTF-8 bytes; what does not fit is counted. */
export const MAX_DIAGNOSTICS_SECTION_BYTES = 4096;

export const DIAGNOSTICS_NONE_NOW = "Diagnostics: none now";
export const DIAGNOSTICS_WITHHELD = "Diagnostics: withheld (secret file)";

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? "" : "s"}`;

/** Control characters (and any line break) would forge lines of the block: whitespace runs become one space, the rest goes. */
function oneLine(text: string): string {
	return withoutControlCharacters(text.replace(/[\s\u0085\u2028\u2029]+/g, " ")).trim();
}

/** Cut at a byte cap on a character boundary, marked with `…`. */
export function cutBytes(text: string, maxBytes: number): string {
	if (Buffer.byteLength(text, "utf8") <= maxBytes) return text;
	let kept = "";
	let bytes = Buffer.byteLength("…", "utf8");
	for (const char of text) {
		bytes += Buffer.byteLength(char, "utf8");
		if (bytes > maxBytes) break;
		kept += char;
	}
	return `${kept}…`;
}

const SEVERITY_ORDER = { error: 0, warning: 1 } as const;

/**
 * The order the model reads them in: errors before warnings; within a severity those inside the selection
 * first, then by distance from the cursor, then by line.
 */
function compareFor(where: { selection?: { start: Position; end: Position }; cursorLine?: number }) {
	const inside = (line: number) =>
		where.selection !== undefined && line >= where.selection.start.line && line <= where.selection.end.line ? 0 : 1;
	const distance = (line: number) => (where.cursorLine === undefined ? 0 : Math.abs(line - where.cursorLine));
	return (a: Diagnostic, b: Diagnostic) =>
		SEVERITY_ORDER[a.severity as "error" | "warning"] - SEVERITY_ORDER[b.severity as "error" | "warning"] ||
		inside(a.line) - inside(b.line) ||
		distance(a.line) - distance(b.line) ||
		a.line - b.line;
}

function itemLine(diagnostic: Diagnostic): string {
	const message = cutBytes(oneLine(diagnostic.message), MAX_DIAGNOSTIC_MESSAGE_BYTES);
	const source = diagnostic.source ? oneLine(diagnostic.source) : "";
	return `- line ${diagnostic.line}: ${diagnostic.severity}: ${message}${source ? ` [${cutBytes(source, 60)}]` : ""}`;
}

/**
 * The active file's errors and warnings as the block's Diagnostics section, or undefined when it has none
 * (info and hints alone say nothing worth a prompt's tokens; they are counted beside errors and warnings).
 */
export function diagnosticsSection(
	diagnostics: readonly Diagnostic[] | undefined,
	where: { selection?: { start: Position; end: Position }; cursorLine?: number },
): string | undefined {
	const serious = (diagnostics ?? []).filter((item) => item.severity === "error" || item.severity === "warning");
	if (serious.length === 0) return undefined;
	const errors = serious.filter((item) => item.severity === "error").length;
	const others = (diagnostics?.length ?? 0) - serious.length;
	const lines = [
		`Diagnostics: ${plural(errors, "error")}, ${plural(serious.length - errors, "warning")}${
			others > 0 ? ` (${others} info/hints not shown)` : ""
		}`,
	];
	const sorted = [...serious].sort(compareFor(where));
	const reserve = Buffer.byteLength(`\n- and ${serious.length} more`, "utf8");
	let bytes = Buffer.byteLength(lines[0] as string, "utf8");
	let listed = 0;
	for (const diagnostic of sorted) {
		const line = itemLine(diagnostic);
		const size = Buffer.byteLength(line, "utf8") + 1;
		if (listed >= MAX_LISTED_DIAGNOSTICS || bytes + size + reserve > MAX_DIAGNOSTICS_SECTION_BYTES) break;
		lines.push(line);
		bytes += size;
		listed++;
	}
	if (listed < sorted.length) lines.push(`- and ${sorted.length - listed} more`);
	return lines.join("\n");
}
