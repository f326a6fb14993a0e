import { readFileSync, rmSync } from "node:fs";
import { relative } from "node:path";
import type { Reporter, TestModule, Vitest } from "vitest/node";
import { type SkipNote, skipLogPath } from "./skip-log.ts";

/**
 * The run's closing lines, after vitest's own summary: how many tests were skipped, in which files, and why (the
 * `<what> skipped: <reason>` lines the files printed, each reason once and whole). A fresh clone without a real
 * component (Neovim, Emacs, tmux, the VS Code host, pi 1.x) skips its tests; this is where that is seen. Under
 * `CI=true` those tests fail instead, so there it says nothing. Quiet when nothing was skipped, and when a name
 * filter (`-t`) skipped the rest on purpose.
 */
export default class SkipSummary implements Reporter {
	private vitest?: Vitest;

	onInit(vitest: Vitest): void {
		this.vitest = vitest;
		rmSync(skipLogPath(), { force: true });
	}

	onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
		const notes = readNotes();
		rmSync(skipLogPath(), { force: true });
		if (!this.vitest || this.vitest.config.testNamePattern) return;
		const root = this.vitest.config.root;
		const skippedIn = new Map<string, number>();
		for (const module of testModules) {
			let skipped = 0;
			for (const test of module.children.allTests()) if (test.result().state === "skipped") skipped++;
			if (skipped > 0) skippedIn.set(module.moduleId, skipped);
		}
		const total = [...skippedIn.values()].reduce((sum, count) => sum + count, 0);
		if (total === 0) return;
		this.vitest.logger.log(summaryLines(total, skippedIn, notes, root).join("\n"));
	}
}

/** `Skipped  N tests in M files`, then each reason once: what said it, the files and their counts, the reason. */
export function summaryLines(
	total: number,
	skippedIn: ReadonlyMap<string, number>,
	notes: readonly SkipNote[],
	root: string,
): string[] {
	const byReason = new Map<string, { whats: Set<string>; files: Set<string> }>();
	const explained = new Set<string>();
	for (const note of notes) {
		// A note with no file is the global setup's, for the whole run (pi 1.x, the VS Code host).
		if (note.file !== "" && !skippedIn.has(note.file)) continue;
		const group = byReason.get(note.reason) ?? { whats: new Set(), files: new Set() };
		group.whats.add(note.what);
		if (note.file !== "") group.files.add(note.file);
		byReason.set(note.reason, group);
		explained.add(note.file);
	}
	const filesWithCounts = (files: Iterable<string>) =>
		[...files]
			.sort()
			.map((file) => `${relative(root, file)} ${skippedIn.get(file)}`)
			.join(", ");
	const lines = [
		"",
		` Skipped  ${total} test${total === 1 ? "" : "s"} in ${skippedIn.size} file${skippedIn.size === 1 ? "" : "s"}, not run on this machine (under CI=true they fail instead):`,
	];
	for (const [reason, { whats, files }] of byReason) {
		const [first, ...rest] = reason.split("\n");
		lines.push(`   ${[...whats].join(", ")} skipped: ${first}`);
		for (const line of rest) lines.push(`     ${line}`);
		lines.push(
			files.size > 0 ? `     (${filesWithCounts(files)})` : "     (said by the global setup, for the whole run)",
		);
	}
	const unexplained = [...skippedIn.keys()].filter((file) => !explained.has(file));
	if (unexplained.length > 0) lines.push(`   no reason printed: ${filesWithCounts(unexplained)}`);
	return lines;
}

function readNotes(): SkipNote[] {
	let text: string;
	try {
		text = readFileSync(skipLogPath(), "utf8");
	} catch {
		return [];
	}
	return text
		.split("\n")
		.filter((line) => line.trim() !== "")
		.flatMap((line) => {
			try {
				return [JSON.parse(line) as SkipNote];
			} catch {
				return [];
			}
		});
}
