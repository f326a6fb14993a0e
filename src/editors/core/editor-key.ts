import { MAX_PID } from "./protocol-state.ts";

/**
 * The key of an editor known by its pid: a state file's writer, a Neovim, an IDE server's holder. One editor
 * read by two sources (a Neovim's server and its plugin's state file) is one editor only because both build
 * the key here; the copies rule (copies.ts) then decides which copy counts.
 */
export function pidKey(pid: number): string {
	return `pid:${pid}`;
}

/** The pid a key names, or undefined for a key of another kind (a Zed workspace) or a pid out of range. */
export function pidOfKey(key: string): number | undefined {
	const match = /^pid:([1-9][0-9]*)$/.exec(key);
	const pid = Number(match?.[1]);
	return match && pid <= MAX_PID ? pid : undefined;
}
