import { absoluteFile } from "../editors/core/active-buffer.ts";
import type { EditorReading } from "../editors/core/editor.ts";
import type { EditorPaths } from "../editors/core/tiers.ts";
import { type SecretFileMatch, secretFileMatcher } from "./core/secret-files.ts";

/**
 * The secret-file pattern an editor's active file matches, by its reported path or its real path. The
 * watcher keeps the same paths object while file and cwd are unchanged (most writes are cursor moves), so
 * the verdict is worked out once per file, not per write or prompt.
 */
export class SecretVerdicts {
	private readonly matcher: (paths: readonly (string | undefined)[]) => SecretFileMatch | undefined;
	private readonly verdicts = new WeakMap<EditorPaths, SecretFileMatch | null>();

	constructor(patterns: readonly string[]) {
		this.matcher = secretFileMatcher(patterns);
	}

	secretMatchOf(editor: Pick<EditorReading, "state" | "paths">): SecretFileMatch | undefined {
		const known = this.verdicts.get(editor.paths);
		if (known !== undefined) return known ?? undefined;
		const verdict = this.matcher([absoluteFile(editor.state), editor.paths.activeFile]);
		this.verdicts.set(editor.paths, verdict ?? null);
		return verdict;
	}
}
