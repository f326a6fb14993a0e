import { execFileSync } from "node:child_process";
import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import type { ConnectedView } from "../../src/connection/core/rules.ts";
import type { CodeReference } from "../../src/references/core/parse.ts";
import { type ReferenceContext, resolveReferences } from "../../src/references/reader.ts";
import { DEFAULT_SECRET_FILE_PATTERNS, secretFileMatcher } from "../../src/safety/core/secret-files.ts";
import { MAX_SENT_TEXT_BYTES } from "../../src/shared/core/text-cuts.ts";
import { editorState } from "../support/fixtures.ts";
import { PACKAGE_ROOT } from "../support/pi-cli.ts";
import { tempDir } from "../support/temp-dir.ts";

const isRoot = process.getuid?.() === 0;

/** A child drops root to `nobody` for the one case root cannot test; where it cannot, that case skips (fails on CI). */
const asNobody = isRoot && canDropToNobody();
function canDropToNobody(): boolean {
	try {
		execFileSync(process.execPath, ["-e", 'process.setgid("nogroup"); process.setuid("nobody")'], { stdio: "ignore" });
		return true;
	} catch (error) {
		const reason = `root cannot be dropped to nobody (${String(error).split("\n")[0]})`;
		if (process.env.CI === "true") throw new Error(`CI=true and the unreadable-file case cannot run: ${reason}`);
		process.stderr.write(`reader "not readable" case skipped: ${reason}\n`);
		return false;
	}
}

/** The reader in a child as `nobody`: what it resolved `@<path>#L1` to for each path under `root`. */
function readAsNobody(root: string, paths: string[]): unknown {
	chmodSync(root, 0o755);
	const printed = execFileSync(
		process.execPath,
		[
			"--import",
			"jiti/register",
			join(PACKAGE_ROOT, "test", "support", "reference-reader-child.ts"),
			"nobody",
			root,
			...paths,
		],
		{ cwd: PACKAGE_ROOT, encoding: "utf8", env: { ...process.env, HOME: "/nonexistent" } },
	);
	return JSON.parse(printed);
}
const cleanups: (() => void)[] = [];
afterEach(() => {
	for (const cleanup of cleanups.splice(0)) cleanup();
});

function project() {
	const tmp = tempDir("refs");
	cleanups.push(tmp.cleanup);
	const root = tmp.path;
	mkdirSync(join(root, "src"));
	writeFileSync(join(root, "src", "util.ts"), "line1\r\nline2\r\nline3\r\nline4\r\n");
	const context = (view?: ConnectedView, overrides: Partial<ReferenceContext> = {}): ReferenceContext => ({
		cwd: root,
		home: "/nonexistent-home",
		projectDir: root,
		...(view && { view }),
		secretFile: secretFileMatcher(DEFAULT_SECRET_FILE_PATTERNS),
		redactSecrets: true,
		...overrides,
	});
	return { root, context };
}

const ref = (path: string, startLine: number, endLine = startLine): CodeReference => ({
	typed: `@${path}#L${startLine}-${endLine}`,
	path,
	startLine,
	endLine,
});

function editorView(
	file: string,
	options: {
		selection?: [number, number, string];
		modified?: boolean;
		/** As the source tells it; unset: a state file's one-line selection from column 1. */
		wholeLines?: boolean;
		startColumn?: number;
	} = {},
): ConnectedView {
	const [start, end, text] = options.selection ?? [];
	return {
		...(options.wholeLines !== undefined && { wholeLineSelection: options.wholeLines }),
		kind: "editor",
		state: editorState({
			cwd: "/anywhere",
			buffer: {
				file,
				modified: options.modified ?? false,
				...(start !== undefined && {
					selection: {
						start: { line: start, column: options.startColumn ?? 1 },
						end: { line: end ?? start, column: 1 },
						text: text ?? "",
						selected_at: 1,
					},
				}),
			},
		}),
		selectionFirstSeenSeconds: 0,
		nowSeconds: 1_000_000,
	};
}

describe("resolveReferences on real files", () => {
	test("from disk: the lines asked for, CRLF normalised, the file named absolutely", async () => {
		const { root, context } = project();
		const [out] = await resolveReferences([ref("src/util.ts", 2, 3)], context());
		expect(out).toMatchObject({
			kind: "text",
			file: join(root, "src/util.ts"),
			shown: "src/util.ts",
			text: "line2\nline3",
			from: "disk",
			unsavedInEditor: false,
			language: "ts",
		});
	});

	test("the editor's selection (even a stale one) when it spans exactly those lines: its text, unsaved edits and all", async () => {
		const { root, context } = project();
		const view = editorView(join(root, "src/util.ts"), {
			selection: [2, 3, "EDITED2\nEDITED3"],
			modified: true,
			wholeLines: true,
		});
		const [exact] = await resolveReferences([ref("src/util.ts", 2, 3)], context(view));
		expect(exact).toMatchObject({ kind: "text", text: "EDITED2\nEDITED3", from: "selection" });
		const [other] = await resolveReferences([ref("src/util.ts", 1, 3)], context(view));
		expect(other).toMatchObject({ kind: "text", text: "line1\nline2\nline3", from: "disk", unsavedInEditor: true });
	});

	test("the editor shows the file through a symlink: still the same file", async () => {
		const { root, context } = project();
		symlinkSync(join(root, "src"), join(root, "linked"));
		const view = editorView(join(root, "linked/util.ts"), { selection: [4, 4, "FROM EDITOR"], wholeLines: true });
		const [out] = await resolveReferences(
			[ref("src/util.ts", 4)],
			context({ ...view, realFile: join(root, "src/util.ts") } as ConnectedView),
		);
		expect(out).toMatchObject({ kind: "text", text: "FROM EDITOR", from: "selection" });
	});

	test.each<[string, { wholeLines?: boolean; startColumn?: number; text: string }, string, "selection" | "disk"]>([
		[
			"one word of line 4 (a charwise selection): line 4 from disk",
			{ wholeLines: false, text: "ne4" },
			"line4",
			"disk",
		],
		["Neovim's V of line 4, edited: the selection", { wholeLines: true, text: "EDITED4" }, "EDITED4", "selection"],
		["a state file's one line from column 1 that is the line: the selection", { text: "line4" }, "line4", "selection"],
		["a state file's one line from column 1 that is only a part: disk", { text: "line" }, "line4", "disk"],
		[
			"a state file's one line from column 3: disk",
			{ startColumn: 3, text: "ne4", wholeLines: false },
			"line4",
			"disk",
		],
	])("a line reference is never served from a partial selection: %s", async (_case, selection, text, from) => {
		const { root, context } = project();
		const view = editorView(join(root, "src/util.ts"), {
			selection: [4, 4, selection.text],
			...(selection.wholeLines !== undefined && { wholeLines: selection.wholeLines }),
			...(selection.startColumn !== undefined && { startColumn: selection.startColumn }),
		});
		const [out] = await resolveReferences([ref("src/util.ts", 4)], context(view));
		expect(out).toMatchObject({ kind: "text", text, from });
	});

	test("a range past the end is clipped and says so; a start past the end is one line", async () => {
		const { context } = project();
		const [clipped, past] = await resolveReferences([ref("src/util.ts", 3, 20), ref("src/util.ts", 9, 12)], context());
		expect(clipped).toMatchObject({
			kind: "text",
			endLine: 4,
			text: "line3\nline4",
			clippedFrom: { endLine: 20, lines: 4 },
		});
		expect(past).toEqual({ kind: "problem", shown: "src/util.ts", problem: "line 9 is past the end (4 lines)" });
	});

	test("over 64 KiB: cut at a line boundary with the note", async () => {
		const { root, context } = project();
		const lines = Array.from({ length: 2000 }, (_, i) => `${String(i + 1).padStart(5, "0")} ${"y".repeat(94)}`);
		writeFileSync(join(root, "big.txt"), lines.join("\n"));
		const [out] = await resolveReferences([ref("big.txt", 1, 2000)], context());
		if (out?.kind !== "text") throw new Error("not a text");
		expect(Buffer.byteLength(out.text)).toBeLessThanOrEqual(MAX_SENT_TEXT_BYTES);
		expect(out.cutNote).toMatch(/^\[reference cut at 64 KiB: lines \d+-2000 left out\]$/);
	});

	test.each([
		["missing", (_root: string) => "src/nope.ts", "file not found"],
		["a directory", (_root: string) => "src", "not a regular file"],
		[
			"a FIFO (never blocks)",
			(root: string) => {
				execFileSync("mkfifo", [join(root, "pipe")]);
				return "pipe";
			},
			"not a regular file",
		],
		[
			"binary",
			(root: string) => {
				writeFileSync(join(root, "img.png"), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01, 0x0a]));
				return "img.png";
			},
			"binary",
		],
	])("%s: one line naming it", async (_name, make, problem) => {
		const { root, context } = project();
		const path = make(root);
		expect(await resolveReferences([ref(path, 1)], context())).toEqual([{ kind: "problem", shown: path, problem }]);
	});

	// Root reads every file: as root (CI), the reader runs in a child as `nobody`, on the same real files.
	test.skipIf(isRoot && !asNobody)("not readable: a problem for that reference, the next one still read", async () => {
		const { root, context } = project();
		writeFileSync(join(root, "locked.ts"), "x\n");
		chmodSync(join(root, "locked.ts"), 0);
		writeFileSync(join(root, "open.ts"), "y\n");
		const resolved = isRoot
			? readAsNobody(root, ["locked.ts", "open.ts"])
			: await resolveReferences([ref("locked.ts", 1), ref("open.ts", 1)], context());
		expect(resolved).toMatchObject([
			{ kind: "problem", shown: "locked.ts", problem: "not readable" },
			{ kind: "text", shown: "open.ts", text: "y" },
		]);
	});

	test("a secret file, by the path typed or by its real path: withheld, never read", async () => {
		const { root, context } = project();
		writeFileSync(join(root, ".env"), "API_KEY=hunter2\n");
		symlinkSync(join(root, ".env"), join(root, "config.txt"));
		const out = await resolveReferences([ref(".env", 1), ref("config.txt", 1)], context());
		expect(out.map((r) => r.kind)).toEqual(["withheld", "withheld"]);
		expect(JSON.stringify(out)).not.toContain("hunter2");
	});

	test("credentials in a referenced file are redacted; a failing scan withholds the text", async () => {
		const { root, context } = project();
		const token = `ghp_${"A1b2C3d4E5".repeat(3)}123456`;
		writeFileSync(join(root, "conf.ts"), `const a = 1;\nconst token = "${token}";\n`);
		const [redacted] = await resolveReferences([ref("conf.ts", 1, 2)], context());
		expect(redacted).toMatchObject({ kind: "text", redactions: 1 });
		expect(JSON.stringify(redacted)).not.toContain(token);
		const failing = async () => {
			throw new Error("scanner broke");
		};
		const [withheld] = await resolveReferences([ref("conf.ts", 1, 2)], context(undefined, { scan: failing }));
		expect(withheld).toMatchObject({ kind: "withheld", label: "scan failed" });
		const [open] = await resolveReferences([ref("conf.ts", 1, 2)], context(undefined, { redactSecrets: false }));
		expect(JSON.stringify(open)).toContain(token);
	});

	test.runIf(process.platform === "linux")(
		"a file longer than its fstat size said (it grew, or /proc's size 0): read to its end",
		async () => {
			const { context } = project();
			const [out] = await resolveReferences([ref(`/proc/${process.pid}/status`, 1, 400)], context());
			if (out?.kind !== "text") throw new Error(`not a text: ${JSON.stringify(out)}`);
			expect(out.text.split("\n")[0]).toMatch(/^Name:\s/);
			expect(out.text).toContain(`\nPid:\t${process.pid}`);
			expect(out.clippedFrom?.lines).toBeGreaterThan(10);
		},
	);

	test("~/ paths resolve against home", async () => {
		const { root, context } = project();
		const [out] = await resolveReferences([ref("~/src/util.ts", 1)], context(undefined, { home: root }));
		expect(out).toMatchObject({ kind: "text", text: "line1" });
	});
});
