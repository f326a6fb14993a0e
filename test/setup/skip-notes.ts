import { appendFileSync } from "node:fs";
import { expect } from "vitest";
import { parseSkipLine, skipLogPath } from "./skip-log.ts";

/**
 * Runs in every worker before each test file: a `<what> skipped: <reason>` line the file prints (the real
 * editors' and the VS Code host's helpers, the pi 1.x toolchain's users) is still printed as it was, and also
 * noted with the file's path for the run's closing summary of what was skipped and why.
 */
const WRAPPED = Symbol.for("pi-ide-context.tests.skip-notes");
const stderr = process.stderr as NodeJS.WriteStream & { [WRAPPED]?: true };
if (!stderr[WRAPPED]) {
	const write = stderr.write.bind(stderr) as (...args: unknown[]) => boolean;
	stderr.write = ((chunk: unknown, ...rest: unknown[]) => {
		const skip = typeof chunk === "string" ? parseSkipLine(chunk) : undefined;
		if (skip) {
			try {
				const file = expect.getState().testPath ?? "";
				appendFileSync(skipLogPath(), `${JSON.stringify({ file, ...skip })}\n`);
			} catch {
				// The summary is a courtesy: a note that cannot be written never fails a test.
			}
		}
		return write(chunk, ...rest);
	}) as typeof stderr.write;
	stderr[WRAPPED] = true;
}
