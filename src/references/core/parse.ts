import { posix } from "node:path";
import { shownPath } from "../../shared/core/paths.ts";

/**
 * Code the user points at on purpose in a prompt: `@src/a.ts#L10`, `@src/a.ts#L10-20`, `@src/a.ts#L10-L20`,
 * with a path relative to pi's cwd, absolute or `~/…`, quoted when it holds spaces (`@"src/my a.ts"#L2`).
 * A bare `@name` (pi's own completion inserts those: the model reads them with its tools), an e-mail address
 * or an `@` inside a word is no reference.
 */
export interface CodeReference {
	/** As typed, for notes: `@src/a.ts#L5-2`. */
	typed: string;
	/** The path as typed, without quotes. */
	path: string;
	/** 1-based and inclusive; a reversed range is put in order. */
	startLine: number;
	endLine: number;
}

export interface ParsedReferences {
	references: CodeReference[];
	/** One line per reference that could not be one (`#L0`). */
	notes: string[];
}

/** How many references one prompt may carry; more are named in a note, not attached. */
export const MAX_REFERENCES_PER_PROMPT = 32;

// Start of text or whitespace before the `@`; the path quoted or up to `#L`; the range; then no word character.
const REFERENCE = /(?<=^|\s)@(?:"([^"\n]+)"|([^\s"#@][^\s#]*))#L(\d{1,9})(?:-L?(\d{1,9}))?(?![\w-])/g;

export function parseReferences(prompt: string): ParsedReferences {
	const references: CodeReference[] = [];
	const notes: string[] = [];
	const seen = new Set<string>();
	for (const match of prompt.matchAll(REFERENCE)) {
		const typed = match[0];
		const path = match[1] ?? match[2] ?? "";
		const first = Number(match[3]);
		const second = match[4] === undefined ? first : Number(match[4]);
		if (first === 0 || second === 0) {
			notes.push(`${typed}: line 0 is not a line (lines start at 1)`);
			continue;
		}
		const startLine = Math.min(first, second);
		const endLine = Math.max(first, second);
		const key = `${path}\u0000${startLine}\u0000${endLine}`;
		if (seen.has(key)) continue;
		seen.add(key);
		if (references.length === MAX_REFERENCES_PER_PROMPT) {
			notes.push(`${typed}: not attached (at most ${MAX_REFERENCES_PER_PROMPT} references per prompt)`);
			continue;
		}
		references.push({ typed, path, startLine, endLine });
	}
	return { references, notes };
}

/** The absolute path a reference names: `~/` against home, relative against pi's cwd. */
export function referencePath(path: string, cwd: string, home: string): string {
	if (path === "~" || path.startsWith("~/")) return posix.normalize(posix.join(home, path.slice(1)));
	return posix.isAbsolute(path) ? posix.normalize(path) : posix.normalize(posix.join(cwd, path));
}

/** `#L4`, `#L2-4`: a range as a reference writes it. */
export const lineAnchor = (startLine: number, endLine: number) =>
	startLine === endLine ? `#L${startLine}` : `#L${startLine}-${endLine}`;

/**
 * The reference ctrl+alt+k inserts for what the editor shows: the selection's lines (fresh or stale), else the
 * cursor line; relative to pi's cwd when inside it, quoted when the path has a space; a space before it unless
 * the input is empty or already ends in whitespace, and one after it.
 */
export function insertedReference(options: {
	file: string;
	cwd: string;
	startLine?: number;
	endLine?: number;
	inputBefore: string;
}): string {
	const { file, cwd, startLine, endLine, inputBefore } = options;
	const shown = shownPath(file, cwd);
	const path = /\s/.test(shown) ? `"${shown}"` : shown;
	const before = inputBefore === "" || /\s$/.test(inputBefore) ? "" : " ";
	const anchor = startLine === undefined ? "" : lineAnchor(startLine, endLine ?? startLine);
	return `${before}@${path}${anchor} `;
}
