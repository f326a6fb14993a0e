import { mkdirSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { ChangedFileTexts } from "../../../src/editors/zed/file-texts.ts";
import { tempDir } from "../../support/temp-dir.ts";

const cleanups: (() => void)[] = [];
afterEach(() => {
	for (const cleanup of cleanups.splice(0)) cleanup();
});

describe("small files read again only when they change", () => {
	test("the text, transformed; the same text while size and mtime stand; the new text once they move", async () => {
		const { path: root, cleanup } = tempDir("file-texts");
		cleanups.push(cleanup);
		const file = join(root, "a.txt");
		writeFileSync(file, "one\r\n");
		let reads = 0;
		const texts = new ChangedFileTexts(1024, (text) => {
			reads++;
			return text.replace(/\r\n/g, "\n");
		});
		expect(await texts.text(file)).toBe("one\n");
		expect(await texts.text(file)).toBe("one\n");
		expect(reads).toBe(1);
		writeFileSync(file, "two!\n");
		utimesSync(file, new Date(), new Date(Date.now() + 5000));
		expect(await texts.text(file)).toBe("two!\n");
		expect(reads).toBe(2);
	});

	test.each([
		["missing", (root: string) => join(root, "nope.txt")],
		[
			"a directory",
			(root: string) => {
				mkdirSync(join(root, "dir"));
				return join(root, "dir");
			},
		],
		[
			"larger than the cap",
			(root: string) => {
				writeFileSync(join(root, "big.txt"), "x".repeat(2048));
				return join(root, "big.txt");
			},
		],
	])("%s: undefined", async (_name, make) => {
		const { path: root, cleanup } = tempDir("file-texts");
		cleanups.push(cleanup);
		expect(await new ChangedFileTexts(1024).text(make(root))).toBeUndefined();
	});
});
