import { resolve } from "node:path";
import { describe, expect, test } from "vitest";
import {
	coreViolations,
	importCycles,
	importSpecifiers,
	missingTargets,
	orderViolations,
	readSources,
	resolveImport,
	siblingViolations,
	singleHomeViolations,
	sizeViolations,
} from "./support/architecture.ts";

const sources = readSources(resolve(import.meta.dirname, ".."));
const fixture = (files: Record<string, string>) => new Map(Object.entries(files));

describe("the house as it is", () => {
	test("every source file is read, and every import names a file that exists", () => {
		expect(sources.size).toBeGreaterThan(60);
		expect(sources.has("src/editors/core/editor.ts")).toBe(true);
		expect(missingTargets(sources)).toEqual([]);
	});

	test("a core/ file imports only core/ files and nothing with side effects", () => {
		expect(coreViolations(sources)).toEqual([]);
	});

	test("a feature imports only from features before it in the written order", () => {
		expect(orderViolations(sources)).toEqual([]);
	});

	test("no two files import each other in a circle", () => {
		expect(importCycles(sources)).toEqual([]);
	});

	test("no editor folder imports another, and what they share imports none of them", () => {
		expect(siblingViolations(sources)).toEqual([]);
	});

	test("no source file over 320 lines, no folder holding more than 12 .ts files directly", () => {
		expect(sizeViolations(sources)).toEqual([]);
	});

	test("one module calls fs.watch, one reads /proc, one builds and parses the pid: key", () => {
		expect(singleHomeViolations(sources)).toEqual([]);
	});
});

describe("each check fails on a fixture that breaks it", () => {
	test.each([
		["node:fs", 'import { readFileSync } from "node:fs";', ['src/a/core/x.ts imports "node:fs"']],
		["chokidar", 'import { watch } from "chokidar";', ['src/a/core/x.ts imports "chokidar"']],
		["a shell file", 'import { y } from "../y.ts";', ['src/a/core/x.ts imports "../y.ts"']],
		["a shell file written .js", 'import { y } from "../y.js";', ['src/a/core/x.ts imports "../y.js"']],
		["a dynamic import", 'const y = await import("../y.ts");', ['src/a/core/x.ts imports "../y.ts"']],
		["a re-export", 'export { y } from "../y.ts";', ['src/a/core/x.ts imports "../y.ts"']],
		["another core file (allowed)", 'import { z } from "../../b/core/z.ts";', []],
		["node:path (pure, allowed)", 'import { posix } from "node:path";', []],
		["an import in a comment (not an import)", '// import { y } from "../y.ts";', []],
	])("core/ importing %s", (_name, line, expected) => {
		const files = fixture({ "src/a/core/x.ts": line, "src/a/y.ts": "", "src/b/core/z.ts": "" });
		expect(coreViolations(files)).toEqual(expected);
	});

	test("a feature importing a later feature, or living outside the order", () => {
		const files = fixture({
			"src/shared/a.ts": 'import { b } from "../editors/b.ts";',
			"src/editors/b.ts": 'import { a } from "../shared/a.ts";',
			"src/editors/zed/c.ts": 'import { u } from "../../ui/u.js";',
			"src/ui/u.ts": 'import { b } from "../editors/b.ts"; import { i } from "../index.ts";',
			"src/index.ts": 'import { u } from "./ui/u.ts"; import type { E } from "pi-ide-context/events";',
			"src/events.ts": "",
			"src/attic/old.ts": "",
		});
		expect(orderViolations(files)).toEqual([
			'src/attic/old.ts is in "attic", which the feature order does not name',
			'src/shared/a.ts imports "../editors/b.ts": editors comes after shared',
			'src/editors/zed/c.ts imports "../../ui/u.js": ui comes after editors',
			'src/ui/u.ts imports "../index.ts": index comes after ui',
		]);
	});

	test("an editor folder importing another, shared code importing a source", () => {
		const files = fixture({
			"src/editors/zed/source.ts":
				'import { t } from "../state-dir/core/trust.ts"; import { k } from "../kit/table.ts";',
			"src/editors/emacs/core/sockets.ts": 'import { t } from "../../state-dir/core/trust.ts";',
			"src/editors/state-dir/core/trust.ts":
				'import { f } from "../../core/path-trust.ts"; import { s } from "../x.ts";',
			"src/editors/state-dir/x.ts": "",
			"src/editors/fs-facts.ts": 'import type { F } from "./neovim/core/facts.ts";',
			"src/editors/kit/table.ts": 'import { e } from "../core/editor.ts";',
			"src/editors/neovim/core/facts.ts": "",
			"src/editors/core/path-trust.ts": "",
			"src/editors/core/editor.ts": "",
		});
		expect(siblingViolations(files)).toEqual([
			'src/editors/zed/source.ts imports "../state-dir/core/trust.ts": no editor folder imports another (what both use lives in editors/ or editors/core/)',
			'src/editors/emacs/core/sockets.ts imports "../../state-dir/core/trust.ts": no editor folder imports another (what both use lives in editors/ or editors/core/)',
			'src/editors/fs-facts.ts imports "./neovim/core/facts.ts": what the sources share imports none of them',
		]);
	});

	test("a circle of imports is named once, from its smallest file", () => {
		const files = fixture({
			"src/shared/a.ts": 'import { b } from "./b.ts";',
			"src/shared/b.ts": 'export { c } from "./c.ts";',
			"src/shared/c.ts": 'const a = () => import("./a.js");',
			"src/shared/d.ts": 'import { a } from "./a.ts";',
		});
		expect(importCycles(files)).toEqual(["src/shared/a.ts → src/shared/b.ts → src/shared/c.ts → src/shared/a.ts"]);
		expect(importCycles(fixture({ "src/shared/a.ts": 'import { b } from "./b.ts";', "src/shared/b.ts": "" }))).toEqual(
			[],
		);
	});

	test("a file too long, a folder too full", () => {
		const files = fixture({
			"src/shared/long.ts": "x\n".repeat(321),
			"src/shared/fits.ts": "x\n".repeat(320),
			...Object.fromEntries(Array.from({ length: 13 }, (_, index) => [`src/ui/f${index}.ts`, ""])),
		});
		expect(sizeViolations(files)).toEqual([
			"src/shared/long.ts has 321 lines (at most 320)",
			"src/ui holds 13 .ts files (at most 12)",
		]);
	});

	test("a raw watch, a /proc read, a ps or lsof run or a pid: key outside its one module", () => {
		// Source text as the files would hold it: `${` here is that text, not this test's template.
		const interpolated = (name: string) => `\${${name}}`;
		const files = fixture({
			"src/editors/neovim/x.ts": 'import { type FSWatcher, watch } from "node:fs";',
			"src/editors/zed/y.ts": `const stat = readFileSync(\`/proc/${interpolated("pid")}/stat\`);`,
			"src/editors/zed/v.ts": 'const pids = readdirSync("/proc");',
			"src/editors/state-dir/z.ts": `const key = \`pid:${interpolated("pid")}\`;`,
			"src/editors/neovim/w.ts": "const pid = /^pid:(\\d+)$/.exec(key);",
			"src/editors/dir-watch.ts": 'import { watch } from "node:fs";',
			"src/editors/processes/proc-files.ts": 'readFileSync("/proc/stat");',
			"src/editors/zed/u.ts": 'const out = execFileSync("lsof", ["-nP"]);',
			"src/editors/processes/process-tools.ts": "execFile(tool, args, options, done);",
			"src/ui/install.ts": 'execFile("code", ["--install-extension", vsix]);',
			"src/editors/core/editor-key.ts": `\`pid:${interpolated("pid")}\``,
			"src/ui/fine.ts": '// fs.watch("/proc/1") in a comment; "pid 7" and watchers are fine\nconst w = watchers();',
		});
		expect(singleHomeViolations(files)).toEqual([
			"src/editors/neovim/x.ts calls fs.watch: only src/editors/dir-watch.ts may",
			"src/editors/zed/y.ts reads /proc: only src/editors/processes/proc-files.ts may",
			"src/editors/zed/v.ts reads /proc: only src/editors/processes/proc-files.ts may",
			"src/editors/state-dir/z.ts builds or parses the pid: key: only src/editors/core/editor-key.ts may",
			"src/editors/neovim/w.ts builds or parses the pid: key: only src/editors/core/editor-key.ts may",
			"src/editors/zed/u.ts runs ps or lsof: only src/editors/processes/process-tools.ts may",
		]);
	});

	test("an import of a file that is not there is reported, not silently passed", () => {
		expect(missingTargets(fixture({ "src/shared/a.ts": 'import { b } from "./gone.ts";' }))).toEqual([
			'src/shared/a.ts imports "./gone.ts": no such source file',
		]);
	});

	test("imports are read in every form, over several lines, and not from strings or comments", () => {
		const text = [
			"import {",
			"\ta,",
			"\tb,",
			'} from "./multi.ts";',
			'import type { T } from "./types.ts";',
			'import "./side-effect.ts";',
			'export * from "./all.ts";',
			'const lazy = () => import("./lazy.ts");',
			'/* import { x } from "./in-comment.ts"; */',
			'const url = "https://example.com/path"; // import { y } from "./after-string.ts";',
		].join("\n");
		expect(importSpecifiers(text).sort()).toEqual(
			["./all.ts", "./lazy.ts", "./multi.ts", "./side-effect.ts", "./types.ts"].sort(),
		);
		expect(resolveImport("src/a/core/x.ts", "../y.js")).toBe("src/a/y.ts");
		expect(resolveImport("src/a/x.ts", "typebox")).toBeUndefined();
	});
});
