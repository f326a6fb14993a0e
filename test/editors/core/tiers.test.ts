import { describe, expect, test } from "vitest";
import { type EditorPaths, scoreTier } from "../../../src/editors/core/tiers.ts";
import { isInside, isSameOrInside, normalizePath } from "../../../src/shared/core/paths.ts";

const paths = (cwd: string, extra: Partial<EditorPaths> = {}): EditorPaths => ({ cwd, argvDirs: [], ...extra });

describe("segment-wise containment", () => {
	test.each([
		["/a/b/c", "/a/b", true],
		["/a/bc", "/a/b", false],
		["/a/b", "/a/b", false],
		["/a/b/", "/a/b", false],
		["/a/b/c/", "/a/b/", true],
		["/a/b/../c", "/a/b", false],
		["/anything", "/", true],
	])("isInside(%s, %s) = %s", (child, parent, expected) => {
		expect(isInside(child, parent)).toBe(expected);
	});

	test.each([
		["/a/b", "/a/b/", true],
		["/a/b/c", "/a/b", true],
		["/a/bc", "/a/b", false],
	])("isSameOrInside(%s, %s) = %s", (child, parent, expected) => {
		expect(isSameOrInside(child, parent)).toBe(expected);
	});

	test.each([
		["/a/b/", "/a/b"],
		["/a//b", "/a/b"],
		["/", "/"],
		["/a/./b/../c", "/a/c"],
	])("normalizePath(%s) = %s", (input, expected) => {
		expect(normalizePath(input)).toBe(expected);
	});
});

describe("scoreTier", () => {
	const project = "/home/u/Projects/my-project";
	test.each([
		["cwd equals the project", paths(project), 0, "cwd equals the project"],
		["cwd equals with a trailing slash", paths(`${project}/`), 0, "cwd equals the project"],
		["cwd inside the project", paths(`${project}/src`), 1, "cwd is inside the project"],
		[
			"cd ~/Projects && nvim my-project/ (argv dir is the project)",
			paths("/home/u/Projects", { argvDirs: [{ arg: "my-project/", dir: project }] }),
			1,
			'launch arg "my-project/" is the project or inside it',
		],
		[
			"argv dir inside the project",
			paths("/home/u", { argvDirs: [{ arg: "Projects/my-project/src", dir: `${project}/src` }] }),
			1,
			'launch arg "Projects/my-project/src" is the project or inside it',
		],
		[
			"ancestor cwd with a file of this project",
			paths("/home/u/Projects", { file: `${project}/src/main.ts` }),
			1,
			"active file is inside the project",
		],
		[
			"nvim ~/Projects on another project's file does not match",
			paths("/home/u/Projects", { file: "/home/u/Projects/other/main.ts" }),
			undefined,
			"no cwd, file or launch arg in the project",
		],
		["/a/bc is not inside /a/b", paths(`${project}-old`), undefined, "no cwd, file or launch arg in the project"],
		[
			"a sibling whose name extends the project's",
			paths("/home/u", { file: `${project}2/x.ts`, argvDirs: [{ arg: "x", dir: `${project}2` }] }),
			undefined,
			"no cwd, file or launch arg in the project",
		],
		["an ancestor cwd alone", paths("/home/u"), undefined, "no cwd, file or launch arg in the project"],
	])("%s", (_name, editor, tier, evidence) => {
		expect(scoreTier(editor, project)).toEqual({ tier, evidence });
	});
});

describe("scoreTier with the active file's project root (Emacs's project-root)", () => {
	const project = "/home/u/p";
	test.each([
		[
			"the root is the project: tier 1, never 0",
			"/home/u",
			["/home/u/p"],
			1,
			"the active file's project root is the project or inside it",
		],
		[
			"a root inside the project (a sub-repository)",
			"/home/u",
			["/home/u/p/vendor/x"],
			1,
			"the active file's project root is the project or inside it",
		],
		[
			"an ancestor root is no evidence",
			"/home/u",
			["/home/u"],
			undefined,
			"no cwd, file, launch arg or project root in the project",
		],
		[
			"a look-alike root is not the project",
			"/home/u",
			["/home/u/p-old"],
			undefined,
			"no cwd, file, launch arg or project root in the project",
		],
		["cwd equal to the project still wins", "/home/u/p", ["/elsewhere"], 0, "cwd equals the project"],
		[
			"no root known: the words of every other editor",
			"/home/u",
			[],
			undefined,
			"no cwd, file, launch arg or project root in the project",
		],
	])("%s", (_name, cwd, projectRoots, tier, evidence) => {
		expect(scoreTier(paths(cwd, { projectRoots }), project)).toEqual({ tier, evidence });
	});
});

describe("scoreTier for a workspace's roots (Zed)", () => {
	const project = "/home/u/p";
	test.each([
		["a root is the project", ["/home/u/other", "/home/u/p/"], undefined, 0, "a workspace root is the project"],
		["a root inside the project", ["/home/u/p/packages/a"], undefined, 1, "a workspace root is inside the project"],
		[
			"the active file inside the project",
			["/elsewhere"],
			"/home/u/p/src/a.ts",
			1,
			"active file is inside the project",
		],
		["an ancestor root is no evidence", ["/home/u"], undefined, undefined, "no workspace root or file in the project"],
		["no folder and a file elsewhere", [], "/tmp/x.ts", undefined, "no workspace root or file in the project"],
	])("%s", (_name, roots, file, tier, evidence) => {
		const verdict = scoreTier(paths(roots[0] ?? "/", { roots, ...(file && { file }) }), project);
		expect(verdict).toEqual({ tier, evidence });
	});

	test.each([
		[
			"opened on a file inside the project: tier 1, never 0 (its directory is only the cwd)",
			"/home/u/p/notes.md",
			1,
			"the file the workspace was opened on is inside the project",
		],
		["opened on a file elsewhere", "/tmp/notes.md", undefined, "no workspace root or file in the project"],
	])("a workspace opened on a single file: %s", (_name, rootFile, tier, evidence) => {
		const verdict = scoreTier(paths("/home/u/p", { roots: [], rootFiles: [rootFile] }), project);
		expect(verdict).toEqual({ tier, evidence });
	});
});
