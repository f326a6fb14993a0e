import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { MAX_UNSAVED_TEXT_BYTES } from "../../../src/editors/zed/database.ts";
import { FakeZed } from "../../support/fake-zed.ts";
import { pi1Toolchain } from "../../support/pi1-toolchain.ts";
import { tempDir } from "../../support/temp-dir.ts";

/**
 * One read of a real database written as Zed writes it, and the editors it makes (database.ts and
 * workspaces.ts without the source's timers): which texts are copied out, and whole-line selections from the
 * text Zed holds. node:sqlite needs Node 22.13+: the read runs in a child on the pi 1.x toolchain's Node.
 */
const { node, skipReason } = pi1Toolchain();
if (!node && process.env.CI === "true") throw new Error(`CI=true and the Zed read tests cannot run: ${skipReason}`);
if (!node) process.stderr.write(`Zed read tests skipped: ${skipReason}\n`);

const RUNNER = join(import.meta.dirname, "fixtures", "read-workspaces.ts");
const REPO = join(import.meta.dirname, "..", "..", "..");

interface Read {
	editors: { itemId: number; unsaved: boolean; contentsBytes: number | null }[];
	readings: {
		key: string;
		buffer: { file: string; modified: boolean; selection: { text: string } | null; lines_total: number } | null;
		wholeLineSelection?: boolean;
		unsavedFiles?: string[];
	}[];
}

describe.skipIf(!node)("a Zed read: what it copies and what it makes", () => {
	let root: string;
	let cleanup: () => void;
	let zed: FakeZed;

	beforeEach(async () => {
		({ path: root, cleanup } = tempDir("zed-reads"));
		zed = await FakeZed.create(join(root, "zed"), node as string);
		await zed.workspace({ id: 1, roots: [root] });
	});
	afterEach(async () => {
		await zed.close();
		cleanup();
	});

	const read = (reads = 1): Read[] =>
		JSON.parse(
			execFileSync(node as string, ["--import", "jiti/register", RUNNER, zed.dbPath, String(reads)], {
				cwd: REPO,
				encoding: "utf8",
				maxBuffer: 64 * 1024 * 1024,
			}),
		) as Read[];

	test("only the shown tab's unsaved text is copied out; the tabs behind it count as unsaved without theirs", async () => {
		const shown = join(root, "shown.ts");
		await zed.show({ workspaceId: 1, itemId: 10, path: shown, contents: "let a = 1;\n", selections: [[4, 5]] });
		await zed.backgroundTab({ workspaceId: 1, itemId: 11, path: join(root, "behind.ts"), contents: "x".repeat(5000) });
		await zed.backgroundTab({ workspaceId: 1, itemId: 12, path: join(root, "saved.ts") });
		const too = "y".repeat(MAX_UNSAVED_TEXT_BYTES + 1);
		await zed.backgroundTab({ workspaceId: 1, itemId: 13, path: join(root, "huge.ts"), contents: too });
		const [result] = read();
		expect(result?.editors.sort((a, b) => a.itemId - b.itemId)).toEqual([
			{ itemId: 10, unsaved: true, contentsBytes: 11 },
			{ itemId: 11, unsaved: true, contentsBytes: null },
			{ itemId: 12, unsaved: false, contentsBytes: null },
			{ itemId: 13, unsaved: true, contentsBytes: null },
		]);
		expect(result?.readings[0]?.unsavedFiles).toEqual([join(root, "behind.ts"), join(root, "huge.ts")]);
		expect(result?.readings[0]?.buffer).toMatchObject({ modified: true, selection: { text: "a" }, lines_total: 1 });
	});

	test("a shown unsaved text over the cap is unsaved with no cursor", async () => {
		const path = join(root, "big.ts");
		const contents = "z".repeat(MAX_UNSAVED_TEXT_BYTES + 1);
		await zed.show({ workspaceId: 1, itemId: 10, path, contents, selections: [[0, 3]] });
		const [result] = read();
		expect(result?.editors).toEqual([{ itemId: 10, unsaved: true, contentsBytes: null }]);
		expect(result?.readings[0]?.buffer).toMatchObject({ modified: true, selection: null, lines_total: 0 });
		expect(result?.readings[0]?.wholeLineSelection).toBeUndefined();
	});

	test.each([
		["whole lines of a saved CRLF file, as Zed's offsets count it (LF)", "saved", [4, 8], true, "two\n"],
		["a word of a saved file", "saved", [4, 6], false, "tw"],
		["whole lines of unsaved text, the last with no newline", "unsaved", [8, 18], true, "three\nfour"],
		["a word of unsaved text", "unsaved", [9, 12], false, "hre"],
	] as const)("%s: whole lines %s", async (_name, kind, selection, whole, text) => {
		const path = join(root, "lines.ts");
		writeFileSync(path, "one\r\ntwo\r\nthree\r\nfour");
		await zed.show({
			workspaceId: 1,
			itemId: 10,
			path,
			...(kind === "unsaved" && { contents: "one\ntwo\nthree\nfour" }),
			selections: [[selection[0], selection[1]]],
		});
		const [result] = read();
		expect(result?.readings[0]?.buffer?.selection?.text).toBe(text);
		expect(result?.readings[0]?.wholeLineSelection).toBe(whole);
	});

	test("the same unsaved text read twice makes the same editor", async () => {
		const path = join(root, "edit.ts");
		await zed.show({ workspaceId: 1, itemId: 10, path, contents: "a\nb\n", selections: [[0, 2]] });
		const [first, second] = read(2);
		expect(second?.readings).toEqual(first?.readings);
		expect(first?.readings[0]?.wholeLineSelection).toBe(true);
	});
});
