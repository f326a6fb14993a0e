import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import picomatch from "picomatch";
import { describe, expect, test } from "vitest";
import { BUILD_SCRIPTS, END_TO_END_LAYER, REAL_COMPONENT_MODULES } from "./layers.ts";

const PACKAGE_ROOT = join(import.meta.dirname, "..", "..");
const inEndToEndLayer = picomatch(END_TO_END_LAYER);
const testFiles = readdirSync(join(PACKAGE_ROOT, "test"), { recursive: true, encoding: "utf8" })
	.map((file) => `test/${file}`)
	.filter((file) => file.endsWith(".test.ts"))
	.sort();

/** What in this file's text puts it in the end-to-end layer: a real component's module, a build script. */
function realComponents(text: string): string[] {
	const imported = [...text.matchAll(/^(?:import|export)\b[^;]*?\bfrom\s+["']([^"']+)["']/gm)].map(
		(match) => match[1] as string,
	);
	return [
		...REAL_COMPONENT_MODULES.filter((module) => imported.some((path) => path.endsWith(`/support/${module}`))),
		...BUILD_SCRIPTS.filter((script) => text.includes(`"${script}"`)),
	];
}

describe("the tests' layers (test/support/layers.ts)", () => {
	test("a unit test starts no real editor, pi or build: such a file is named *.e2e.test.ts", () => {
		// This file names what it looks for in its own examples.
		const unit = testFiles.filter((file) => !inEndToEndLayer(file) && file !== "test/support/layers.test.ts");
		const misplaced = unit
			.map((file) => ({ file, starts: realComponents(readFileSync(join(PACKAGE_ROOT, file), "utf8")) }))
			.filter(({ starts }) => starts.length > 0)
			.map(({ file, starts }) => `${file} (${starts.join(", ")})`);
		expect(misplaced).toEqual([]);
		expect(unit.length).toBeGreaterThan(50);
	});

	test("the end-to-end layer: pi's folders and *.e2e.test.ts anywhere, the mirrored folder kept", () => {
		expect(inEndToEndLayer("test/e2e/tui.test.ts")).toBe(true);
		expect(inEndToEndLayer("test/extension/lifecycle.test.ts")).toBe(true);
		expect(inEndToEndLayer("test/editors/emacs/session.e2e.test.ts")).toBe(true);
		expect(inEndToEndLayer("test/editors/emacs/session-order.test.ts")).toBe(false);
		expect(inEndToEndLayer("test/hostile/corpus.test.ts")).toBe(false);
	});

	test("a file is caught by what it imports or runs, not by a word in a comment", () => {
		expect(realComponents('import { RealEmacs } from "../../support/real-emacs.ts";')).toEqual(["real-emacs.ts"]);
		expect(realComponents('import {\n\tFakeZed,\n} from "../../support/fake-zed.ts";')).toEqual(["fake-zed.ts"]);
		expect(realComponents('execFileSync(process.execPath, [join(client, "build.mjs")]);')).toEqual(["build.mjs"]);
		expect(realComponents("// the real Emacs: see real-emacs.ts and build.mjs")).toEqual([]);
	});
});
