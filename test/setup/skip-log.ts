import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * Where this run's workers note every `<what> skipped: <reason>` line a test printed, for the closing summary
 * (`skip-summary.ts`). Named once in the main process, when the config loads; the workers inherit it.
 */
export function skipLogPath(): string {
	process.env.PI_IDE_TEST_SKIP_LOG ??= join(tmpdir(), `pi-ide-tests-skips-${process.pid}.jsonl`);
	return process.env.PI_IDE_TEST_SKIP_LOG;
}

/** One noted line: the test file that printed it, and what it printed (the reason may span lines). */
export interface SkipNote {
	file: string;
	what: string;
	reason: string;
}

/** A skip line as the tests print it, in one write: `<what> skipped: <reason>`. */
export function parseSkipLine(text: string): { what: string; reason: string } | undefined {
	const match = /^([^\n]+?) skipped: ([\s\S]*)$/.exec(text.trimEnd());
	return match ? { what: match[1] as string, reason: match[2] as string } : undefined;
}
