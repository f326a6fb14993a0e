import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../../support/temp-dir.ts";

/**
 * Stand-ins for `ps` and `lsof`: executable shell scripts in a dir of their own, put first on the PATH for a
 * test (the PATH is set on `process.env`, which `runTool` hands its children, and put back after). Each set of
 * scripts gets a dir; a set without a tool leaves it missing from the PATH entirely.
 */
export function fakeToolDirs() {
	const root = tempDir("fake-tools");
	const savedPath = process.env.PATH;
	let count = 0;
	return {
		root: root.path,
		/** A dir holding these scripts (`#!/bin/sh` added), made the whole PATH but for `/bin` and `/usr/bin`. */
		use(scripts: Partial<Record<"ps" | "lsof", string>>, keepSystemPath = true): string {
			const dir = join(root.path, `set-${++count}`);
			mkdirSync(dir);
			for (const [tool, body] of Object.entries(scripts)) {
				writeFileSync(join(dir, tool), `#!/bin/sh\n${body}\n`);
				chmodSync(join(dir, tool), 0o755);
			}
			// Without the system's dirs the scripts could not run `sleep` or `cat`; with them a real ps would be
			// found: a test of a missing tool names the few commands its scripts need by full path instead.
			process.env.PATH = keepSystemPath ? `${dir}:${savedPath}` : dir;
			return dir;
		},
		/** A file beside the scripts (a listing a script prints). */
		file(name: string, text: string): string {
			const path = join(root.path, name);
			writeFileSync(path, text);
			return path;
		},
		restore() {
			process.env.PATH = savedPath;
		},
		cleanup() {
			process.env.PATH = savedPath;
			root.cleanup();
		},
	};
}
