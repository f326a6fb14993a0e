/**
 * `node --import jiti/register reference-reader-child.ts <root> <path>...`: the reference reader in a process of
 * its own, so a test can run it as another user (root reads every file, so "not readable" needs one). Prints
 * what it resolved each `@<path>#L1` to, as JSON.
 */
import { resolveReferences } from "../../src/references/reader.ts";
import { DEFAULT_SECRET_FILE_PATTERNS, secretFileMatcher } from "../../src/safety/core/secret-files.ts";

const [root, ...paths] = process.argv.slice(2);
if (!root) throw new Error("usage: reference-reader-child.ts <root> <path>...");
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
