/**
 * Everything shown to the user or the model that came from a state file passes through here: the file is
 * written by another process and may carry terminal escape sequences or Trojan-Source bidi controls.
 */

// CSI (ESC [ … final), OSC/DCS/SOS/PM/APC strings (terminated by BEL or ST), and two-byte ESC sequences.
const ESCAPE_SEQUENCE =
	/\u001b\[[0-?]*[ -/]*[@-~]|\u009b[0-?]*[ -/]*[@-~]|[\u001b][\]PX^_][\s\S]*?(?:\u0007|\u001b\\|$)|[\u009d\u0090\u0098\u009e\u009f][\s\S]*?(?:\u0007|\u001b\\|\u009c|$)|\u001b[\s\S]?/g;
// C0, DEL, C1, bidi embeddings/overrides/isolates and marks, line/paragraph separators.
const UNSAFE_CHAR = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
const UNSAFE_CHAR_EXCEPT_NEWLINE_TAB =
	/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** One line of terminal-safe text: escape sequences dropped, other unsafe characters become spaces. */
export function sanitizeForDisplay(text: string): string {
	return text.replace(ESCAPE_SEQUENCE, "").replace(UNSAFE_CHAR, " ");
}

/** Terminal-safe text with the unsafe characters dropped, not replaced: a diagnostic's message read as one line. */
export function withoutControlCharacters(text: string): string {
	return text.replace(ESCAPE_SEQUENCE, "").replace(UNSAFE_CHAR, "");
}

/** The same, keeping newlines and tabs: several lines a user typed (an editor's ask). */
export function withoutControlCharactersKeepingLines(text: string): string {
	return text.replace(ESCAPE_SEQUENCE, "").replace(UNSAFE_CHAR_EXCEPT_NEWLINE_TAB, "");
}

const escapeChar = (char: string) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`;

/**
 * Text for the model keeps its information but loses raw control bytes: each unsafe character is written
 * as a visible `\uXXXX` escape. `multiline` keeps newlines and tabs (selection text); single-line fields
 * (paths, names) escape them too so they cannot forge extra lines of the block.
 */
export function escapeForPrompt(text: string, multiline: boolean): string {
	const unsafe = multiline ? UNSAFE_CHAR_EXCEPT_NEWLINE_TAB : UNSAFE_CHAR;
	return text.replace(unsafe, escapeChar);
}

/** Cut to at most `maxChars` code points, marking the cut with "...". */
export function clip(text: string, maxChars: number): string {
	if (text.length <= maxChars) return text;
	const chars = Array.from(text);
	if (chars.length <= maxChars) return text;
	return `${chars.slice(0, Math.max(0, maxChars - 3)).join("")}...`;
}

/** A text from outside (a path, an editor's words) as a status line shows it: safe for the terminal, cut. */
export const show = (text: string, max = 120): string => clip(sanitizeForDisplay(text), max);

/** `just now`, `12s ago`, `3m ago`, `2h ago`, `4d ago`. */
export function formatAgo(ageSeconds: number): string {
	const age = Math.max(0, Math.floor(ageSeconds));
	if (age < 3) return "just now";
	if (age < 60) return `${age}s ago`;
	if (age < 3600) return `${Math.floor(age / 60)}m ago`;
	if (age < 86_400) return `${Math.floor(age / 3600)}h ago`;
	return `${Math.floor(age / 86_400)}d ago`;
}

/**
 * `nvim 1234`, `IntelliJ IDEA 4242`: how notices, the picker and `/ide status` name an editor; by the name it
 * gives itself where it gives one (an IDE server's `ideName`), else by its `app`.
 */
export function editorLabel(editor: { pid: number; state: { app: string }; name?: string }): string {
	return `${editorName(editor)} ${editor.pid}`;
}

/** The editor as a sentence names it ("rejected in IntelliJ IDEA"): its own name, else its app; no pid. */
export function editorName(editor: { state: { app: string }; name?: string }): string {
	const name = editor.name === undefined ? "" : clip(sanitizeForDisplay(editor.name).trim(), 32);
	return name || clip(sanitizeForDisplay(editor.state.app), 16) || "editor";
}
