import { mkdirSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { ChangedFiles, changedFileTexts } from "../../../src/editors/zed/file-texts.ts";
import { tempDir } from "../../support/temp-dir.ts";

const cleanups: (() => void)[] = [];
afterEach(() => {
	for (const cleanup of cleanups.splice(0)) cleanup();
});

function root(): string {
	const { path, cleanup } = tempDir("file-texts");
	cleanups.push(cleanup);
	return path;
}

/** A cache that counts its parses: each parse is a read of the file. */
function counted(limits: { maxFileBytes: number; cacheBudgetBytes: number }) {
	const parsed: string[] = [];
	const files = new ChangedFiles({
		...limits,
		parse: (bytes) => {
			parsed.push(bytes.toString());
			return bytes.toString().replace(/\r\n/g, "\n");
		},
		bytesHeld: (text) => text.length,
	});
	return { files, parsed };
}

describe("small files read again only when they change", () => {
	test("the file parsed; the same value while size and mtime stand; parsed again once they move", async () => {
		const file = join(root(), "a.txt");
		writeFileSync(file, "one\r\n");
		const { files, parsed } = counted({ maxFileBytes: 1024, cacheBudgetBytes: 1024 });
		expect(await files.read(file)).toBe("one\n");
		expect(await files.read(file)).toBe("one\n");
		expect(parsed).toHaveLength(1);
		writeFileSync(file, "two!\n");
		utimesSync(file, new Date(), new Date(Date.now() + 5000));
		expect(await files.read(file)).toBe("two!\n");
		expect(parsed).toHaveLength(2);
		expect(files.cachedBytes).toBe(5);
	});

	test("the cache keeps to its byte budget: the least recently read go first, a value over it is not kept", async () => {
		const dir = root();
		const path = (name: string, size: number) => {
			writeFileSync(join(dir, name), name[0]?.repeat(size) ?? "");
			return join(dir, name);
		};
		const [a, b, c, big] = [path("a", 40), path("b", 40), path("c", 40), path("d", 150)];
		const { files, parsed } = counted({ maxFileBytes: 1024, cacheBudgetBytes: 100 });
		await files.read(a);
		await files.read(b);
		await files.read(a);
		// a, b (80 bytes), then c: 120 is over the budget, and b is the one read longest ago.
		await files.read(c);
		expect(files.cachedBytes).toBe(80);
		parsed.length = 0;
		await files.read(a);
		await files.read(c);
		expect(parsed).toEqual([]);
		await files.read(b);
		expect(parsed).toHaveLength(1);
		expect(files.cachedBytes).toBeLessThanOrEqual(100);
		// Larger than the whole budget: read each time, never kept, nothing else dropped for it.
		const before = files.cachedBytes;
		expect(await files.read(big)).toHaveLength(150);
		expect(await files.read(big)).toHaveLength(150);
		expect(parsed.filter((text) => text.startsWith("d"))).toHaveLength(2);
		expect(files.cachedBytes).toBe(before);
	});

	test.each([
		["missing", (dir: string) => join(dir, "nope.txt")],
		[
			"a directory",
			(dir: string) => {
				mkdirSync(join(dir, "dir"));
				return join(dir, "dir");
			},
		],
		[
			"larger than the cap",
			(dir: string) => {
				writeFileSync(join(dir, "big.txt"), "x".repeat(2048));
				return join(dir, "big.txt");
			},
		],
	])("%s: undefined", async (_name, make) => {
		expect(await changedFileTexts(1024, 4096).read(make(root()))).toBeUndefined();
	});
});
