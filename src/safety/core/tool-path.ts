import { posix } from "node:path";
import { fileURLToPath } from "node:url";

const UNICODE_SPACES = /[\u00A0\u2000-\u200A\u202F\u205F\u3000]/g;

/**
 * The absolute path pi's own `write` and `edit` tools act on for the model's raw `path`: odd spaces become
 * plain ones, a leading `@` goes, `~` is the home dir, a `file://` URL is a path (pi 1.x), and the rest is
 * resolved against the session's cwd. Mirrors `resolveToCwd` of both pi lines (a test compares them).
 */
export function resolveToolPath(raw: string, cwd: string, home: string): string {
	let path = raw.replace(UNICODE_SPACES, " ");
	if (path.startsWith("@")) path = path.slice(1);
	if (path === "~") path = home;
	else if (path.startsWith("~/")) path = posix.join(home, path.slice(2));
	else if (/^file:\/\//.test(path)) {
		try {
			path = fileURLToPath(path);
		} catch {
			// Not a usable file URL: pi would fail on it too; compare it as a plain relative path.
		}
	}
	return posix.resolve(cwd, path);
}
