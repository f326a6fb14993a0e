import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { unifiedDiff } from "../../../src/review/core/unified-diff.ts";

const names = { from: "a", to: "b" };
const lines = (count: number, change: (index: number) => string = (index) => `line ${index}`) =>
	Array.from({ length: count }, (_, index) => `${change(index)}\n`).join("");

/** diff(1)'s hunks for the same texts: the headers aside, ours must read the same. */
function gnuHunks(before: string, after: string): string {
	const dir = mkdtempSync(join(tmpdir(), "udiff-"));
	try {
		writeFileSync(join(dir, "a"), before);
		writeFileSync(join(dir, "b"), after);
		try {
			execFileSync("diff", ["-u", join(dir, "a"), join(dir, "b")], { encoding: "utf8" });
			return "";
		} catch (error) {
			const out = (error as { stdout: string }).stdout;
			return out.split("\n").slice(2).join("\n");
		}
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}

describe("unifiedDiff reads as diff -u does", () => {
	test.each([
		["one line changed", lines(10), lines(10, (index) => (index === 4 ? "changed" : `line ${index}`))],
		["a line added at the end", lines(5), `${lines(5)}new\n`],
		["a line removed at the start", lines(5), lines(5).slice("line 0\n".length)],
		[
			"two distant changes: two hunks",
			lines(30),
			lines(30, (index) => (index === 2 || index === 25 ? "x" : `line ${index}`)),
		],
		[
			"two near changes: one hunk",
			lines(30),
			lines(30, (index) => (index === 10 || index === 15 ? "x" : `line ${index}`)),
		],
		["everything new", "", lines(3)],
		["everything gone", lines(3), ""],
		["repeated lines", "a\nb\na\nb\na\n", "a\na\nb\nb\na\n"],
	])("%s", (_name, before, after) => {
		const ours = unifiedDiff(before, after, names);
		expect(ours.split("\n").slice(0, 2)).toEqual(["--- a", "+++ b"]);
		expect(ours.split("\n").slice(2).join("\n")).toBe(gnuHunks(before, after));
	});

	test("equal texts: no diff", () => {
		expect(unifiedDiff("a\n", "a\n", names)).toBe("");
	});

	test("a final newline added is said, not shown as a changed line", () => {
		expect(unifiedDiff("a\nb", "a\nb\n", names)).toBe("--- a\n+++ b\n\\ the user added a newline at end of file\n");
	});

	test("a rewrite beyond the search bound is one hunk of everything, quickly", () => {
		const before = lines(3000, (index) => `old ${index}`);
		const after = lines(3000, (index) => `new ${index}`);
		const started = performance.now();
		const diff = unifiedDiff(before, after, names);
		expect(performance.now() - started).toBeLessThan(2000);
		expect(diff.split("\n")[2]).toBe("@@ -1,3000 +1,3000 @@");
	});
});
