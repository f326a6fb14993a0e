import { describe, expect, test } from "vitest";
import { type EditorPaths, isInside, isSameOrInside, normalizePath, scoreTier } from "../../src/core/path-match.ts";

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
