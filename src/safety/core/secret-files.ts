import { posix } from "node:path";
import picomatch from "picomatch";

/**
 * Files whose selected text never leaves the machine, matched case-insensitively on the basename of the
 * path the editor reports and of its real path. Users add globs in settings (`pi-ide.secretFiles`); a glob
 * with a `/` is matched against the whole path instead.
 */
export const DEFAULT_SECRET_FILE_PATTERNS: readonly string[] = [
	".env",
	".env.*",
	"id_rsa",
	"id_dsa",
	"id_ecdsa",
	"id_ed25519",
	"*.pem",
	"*.key",
	"*.p12",
	"*.pfx",
	"*.jks",
	"*.keystore",
	".npmrc",
	".pypirc",
	".netrc",
	".git-credentials",
	".pgpass",
	"credentials",
	"*.tfvars",
	"*.kdbx",
];

/** Templates committed on purpose: they hold placeholders, not secrets. */
export const NOT_SECRET_PATTERNS: readonly string[] = [".env.example", ".env.sample", ".env.template"];

/** Every glob that makes a secret file: the defaults, then the global list, then the project's (all count). */
export function secretFilePatterns(lists: { global: readonly string[]; project: readonly string[] }): string[] {
	return [...new Set([...DEFAULT_SECRET_FILE_PATTERNS, ...lists.global, ...lists.project])];
}

export interface SecretFileMatch {
	/** The glob that matched. */
	pattern: string;
	/** The path it matched (the reported one, or the real one behind a symlink). */
	path: string;
}

type Matcher = { pattern: string; test: (path: string) => boolean };

function compile(pattern: string): Matcher {
	const whole = pattern.includes("/");
	const isMatch = picomatch(pattern, { nocase: true, dot: true, basename: !whole });
	return { pattern, test: (path) => isMatch(whole ? path : posix.basename(path)) };
}

/** Compiled once per settings read; matching is then a few regex tests per path. */
export function secretFileMatcher(
	patterns: readonly string[],
): (paths: readonly (string | undefined)[]) => SecretFileMatch | undefined {
	const secret = patterns.filter((pattern) => typeof pattern === "string" && pattern.trim() !== "").map(compile);
	const templates = NOT_SECRET_PATTERNS.map(compile);
	return (paths) => {
		for (const path of paths) {
			if (path === undefined) continue;
			if (templates.some((template) => template.test(path))) continue;
			const hit = secret.find((matcher) => matcher.test(path));
			if (hit) return { pattern: hit.pattern, path };
		}
		return undefined;
	};
}

/** `.env matches the secret-file pattern ".env.*"`: what the block, the widget and /ide status say. */
export function withheldReason(match: SecretFileMatch): { reason: string; label: string } {
	const label = posix.basename(match.path);
	return { reason: `${label} matches the secret-file pattern "${match.pattern}"`, label };
}
