import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { MAX_ARGV_EVIDENCE, scoreTier } from "../../src/editors/core/tiers.ts";
import { realOrNormal, resolveEditorPaths } from "../../src/editors/real-paths.ts";
import { editorState } from "../support/fixtures.ts";
import { tempDir } from "../support/temp-dir.ts";

let cleanups: (() => void)[] = [];
afterEach(() => {
	for (const cleanup of cleanups) cleanup();
	cleanups = [];
});

/** ~/Projects/{my-project,other} with real files, plus a symlink to my-project elsewhere. */
function projects() {
	const tmp = tempDir("paths");
	cleanups.push(tmp.cleanup);
	const home = join(tmp.path, "home");
	const projectsDir = join(home, "Projects");
	const mine = join(projectsDir, "my-project");
	const other = join(projectsDir, "other");
	mkdirSync(join(mine, "src"), { recursive: true });
	mkdirSync(other, { recursive: true });
	writeFileSync(join(mine, "src", "main.ts"), "");
	writeFileSync(join(other, "x.ts"), "");
	const link = join(tmp.path, "link-to-my-project");
	symlinkSync(mine, link);
	return { home, projectsDir, mine, other, link };
}

const tierOf = async (state: Parameters<typeof resolveEditorPaths>[0], projectDir: string) =>
	scoreTier(await resolveEditorPaths(state), await realOrNormal(projectDir));

describe("tiers from real paths", () => {
	test("cd ~/Projects && nvim my-project/: the launch arg resolves against the editor's cwd", async () => {
		const p = projects();
		const verdict = await tierOf(
			editorState({ cwd: p.projectsDir, argv: ["my-project/"], buffer: { file: null } }),
			p.mine,
		);
		expect(verdict).toEqual({ tier: 1, evidence: 'launch arg "my-project/" is the project or inside it' });
	});

	test("nvim ~/Projects on another project's file does not match", async () => {
		const p = projects();
		const verdict = await tierOf(
			editorState({ cwd: p.home, argv: ["Projects"], buffer: { file: join(p.other, "x.ts") } }),
			p.mine,
		);
		expect(verdict.tier).toBeUndefined();
	});

	test("pi started through a symlink matches an editor in the real dir, and the other way round", async () => {
		const p = projects();
		expect((await tierOf(editorState({ cwd: p.mine, argv: [] }), p.link)).tier).toBe(0);
		expect((await tierOf(editorState({ cwd: p.link, argv: [] }), p.mine)).tier).toBe(0);
		const fileThroughLink = editorState({ cwd: "/", argv: [], buffer: { file: join(p.link, "src", "main.ts") } });
		expect(await tierOf(fileThroughLink, p.mine)).toEqual({ tier: 1, evidence: "active file is inside the project" });
	});

	test("a new file that does not exist yet still resolves through its real directory", async () => {
		const p = projects();
		const verdict = await tierOf(
			editorState({ cwd: "/", argv: [], buffer: { file: join(p.link, "src", "new.ts") } }),
			p.mine,
		);
		expect(verdict.tier).toBe(1);
	});

	test("flags, plain file names and missing paths in argv are no evidence", async () => {
		const p = projects();
		const paths = await resolveEditorPaths(
			editorState({ cwd: p.mine, argv: ["-O", "src/main.ts", "missing-dir/", "--", "src"] }),
		);
		expect(paths.argvDirs).toEqual([{ arg: "src", dir: join(p.mine, "src") }]);
	});

	test(`only the first ${MAX_ARGV_EVIDENCE} launch args are looked at`, async () => {
		const p = projects();
		const filler = Array.from({ length: MAX_ARGV_EVIDENCE }, (_, i) => `-flag${i}`);
		const late = editorState({ cwd: p.projectsDir, argv: [...filler, "my-project"], buffer: { file: null } });
		expect((await tierOf(late, p.mine)).tier).toBeUndefined();
		const early = editorState({ cwd: p.projectsDir, argv: [...filler.slice(1), "my-project"], buffer: { file: null } });
		expect((await tierOf(early, p.mine)).tier).toBe(1);
	});
});
