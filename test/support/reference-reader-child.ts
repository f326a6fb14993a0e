/**
 * `node --import jiti/register reference-reader-child.ts <user> <root> <path>...`: the reference reader in a
 * process of its own that drops root to `<user>` once its modules are loaded (root reads every file, so "not
 * readable" needs another user; loading first, the checkout need not be readable by that user). Prints what it
 * resolved each `@<path>#L1` to, as JSON.
 */
import { resolveReferences } from "../../src/references/reader.ts";
import { DEFAULT_SECRET_FILE_PATTERNS, secretFileMatcher } from "../../src/safety/core/secret-files.ts";
import { redactedText } from "../../src/safety/secret-scanner.ts";

const [user, root, ...paths] = process.argv.slice(2);
if (!user || !root) throw new Error("usage: reference-reader-child.ts <user> <root> <path>...");
// secretlint loads its rules on first use: loaded while still root, as every module.
await redactedText("warm up");
process.setgroups?.([]);
process.setgid?.(user === "nobody" ? "nogroup" : user);
process.setuid?.(user);
if (process.getuid?.() === 0) throw new Error(`still root after dropping to ${user}`);
const resolved = await resolveReferences(
	paths.map((path) => ({ typed: `@${path}#L1`, path, startLine: 1, endLine: 1 })),
	{
		cwd: root,
		home: "/nonexistent-home",
		projectDir: root,
		secretFile: secretFileMatcher(DEFAULT_SECRET_FILE_PATTERNS),
		redactSecrets: true,
	},
);
process.stdout.write(`${JSON.stringify(resolved)}\n`);
