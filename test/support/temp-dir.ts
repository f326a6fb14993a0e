import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A fresh real directory; `cleanup` removes it. Real path, so tier comparisons see what pi sees. */
export function tempDir(prefix: string): { path: string; cleanup: () => void } {
	const path = realpathSync(mkdtempSync(join(tmpdir(), `${prefix}-`)));
	return { path, cleanup: () => rmSync(path, { recursive: true, force: true }) };
}
