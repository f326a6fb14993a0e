import { isFields } from "../../../shared/core/fields.ts";
import type { Diagnostic } from "../../core/protocol-state.ts";
import { MAX_DIAGNOSTICS } from "../../core/protocol-state.ts";
import { pathOfUri } from "./editor-view.ts";

const MAX_MESSAGE_CHARS = 1024;
const MAX_SOURCE_CHARS = 200;

/** VS Code's names, Neovim's `Info`, LSP's numbers (1 error … 4 hint). */
function severityOf(value: unknown): Diagnostic["severity"] | undefined {
	const name = typeof value === "string" ? value.toLowerCase() : value;
	if (name === "error" || name === 1) return "error";
	if (name === "warning" || name === "warn" || name === 2) return "warning";
	if (name === "information" || name === "info" || name === 3) return "info";
	if (name === "hint" || name === 4) return "hint";
	return undefined;
}

const count = (value: unknown) =>
	typeof value === "number" && Number.isInteger(value) && value >= 0 && value < 2_147_483_647 ? value : undefined;

/**
 * One server diagnostic in the protocol's shape (1-based line and column), or undefined when it is not one.
 * A message or source is cut to the protocol's bounds rather than dropped.
 */
function diagnosticOf(raw: unknown, oneBased: boolean): Diagnostic | undefined {
	if (!isFields(raw) || typeof raw.message !== "string") return undefined;
	const severity = severityOf(raw.severity);
	const start = isFields(raw.range) && isFields(raw.range.start) ? raw.range.start : undefined;
	const line = count(start?.line);
	const character = count(start?.character);
	if (severity === undefined || line === undefined || character === undefined) return undefined;
	const shift = oneBased ? 0 : 1;
	return {
		line: Math.max(1, line + shift),
		column: Math.max(1, character + shift),
		severity,
		message: raw.message.slice(0, MAX_MESSAGE_CHARS),
		...(typeof raw.source === "string" && raw.source !== "" && { source: raw.source.slice(0, MAX_SOURCE_CHARS) }),
	};
}

/**
 * The diagnostics of `file` in a `getDiagnostics` answer: Claude Code's array `[{uri, diagnostics}]`, or
 * pi-ide.nvim's object keyed by URI (§6). Entries that are not diagnostics are skipped; undefined when the answer
 * is neither shape.
 */
export function diagnosticsOfFile(raw: unknown, file: string, oneBased: boolean): Diagnostic[] | undefined {
	let entries: { uri: unknown; diagnostics: unknown }[];
	if (Array.isArray(raw))
		entries = raw.filter(isFields).map((entry) => ({ uri: entry.uri, diagnostics: entry.diagnostics }));
	else if (isFields(raw)) entries = Object.entries(raw).map(([uri, diagnostics]) => ({ uri, diagnostics }));
	else return undefined;
	const found: Diagnostic[] = [];
	for (const entry of entries) {
		if (typeof entry.uri !== "string" || pathOfUri(entry.uri) !== file || !Array.isArray(entry.diagnostics)) continue;
		for (const item of entry.diagnostics) {
			const diagnostic = diagnosticOf(item, oneBased);
			if (diagnostic) found.push(diagnostic);
			if (found.length === MAX_DIAGNOSTICS) return found;
		}
	}
	return found;
}
