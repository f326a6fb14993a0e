import { describe, expect, test } from "vitest";
import { factsThatCount, listedCopyWins } from "../../../src/editors/core/copies.ts";
import type { EditorFacts, ListedEditor } from "../../../src/editors/core/editor.ts";
import { editorReading } from "../../support/fixtures.ts";

const reading = editorReading;

describe("one editor in two state dirs: what was written last counts", () => {
	const valid = (writtenAtSeconds?: number): EditorFacts => ({
		origin: "state-file",
		listed: true,
		alive: true,
		reading: reading("/p/a.ts"),
		...(writtenAtSeconds !== undefined && { writtenAtSeconds }),
	});
	const rejected = (writtenAtSeconds?: number): EditorFacts => ({
		origin: "state-file",
		listed: true,
		alive: true,
		rejection: "torn",
		...(writtenAtSeconds !== undefined && { writtenAtSeconds }),
	});
	test.each<[string, EditorFacts[], "valid" | "rejected" | undefined]>([
		["nobody holds it", [], undefined],
		["one dir", [valid(5)], "valid"],
		["the newer file is valid", [rejected(5), valid(9)], "valid"],
		["the newer file is rejected", [valid(5), rejected(9)], "rejected"],
		["a rejection of unknown age loses to a dated write", [rejected(), valid(1)], "valid"],
	])("%s", (_name, facts, expected) => {
		const newest = factsThatCount(facts);
		expect(newest === undefined ? undefined : newest.reading ? "valid" : "rejected").toBe(expected);
	});
});

describe("one key listed by two sources: the copy written last is the editor", () => {
	const listed = (writtenAtSeconds: number): ListedEditor => ({
		...reading("/p/a.ts"),
		writtenAtSeconds,
		key: "pid:7",
		alive: true,
	});
	test.each<[string, ListedEditor, ListedEditor | undefined, boolean]>([
		["the first copy seen", listed(5), undefined, true],
		["a newer copy", listed(9), listed(5), true],
		["an older copy", listed(5), listed(9), false],
		["a copy of the same age: the first seen stays", listed(5), listed(5), false],
	])("%s", (_name, candidate, known, wins) => {
		expect(listedCopyWins(candidate, known)).toBe(wins);
	});
});

describe("a Neovim read over its server and through its plugin's state file: one editor", () => {
	const copy = (origin: "neovim" | "state-file", writtenAtSeconds: number, blocked = false): ListedEditor => ({
		...reading("/p/a.ts"),
		origin,
		writtenAtSeconds,
		key: "pid:7",
		alive: true,
		...(blocked && { blocked }),
	});
	test.each<[string, ListedEditor, ListedEditor, boolean]>([
		["the server's copy beats a newer file", copy("neovim", 5), copy("state-file", 9), true],
		["a file does not replace the server's copy", copy("state-file", 9), copy("neovim", 5), false],
		["a blocking Neovim's copy loses to the file", copy("neovim", 9, true), copy("state-file", 5), false],
		["the file beats a blocking Neovim's copy", copy("state-file", 5), copy("neovim", 9, true), true],
	])("%s", (_name, candidate, known, wins) => {
		expect(listedCopyWins(candidate, known)).toBe(wins);
	});

	const facts = (origin: "neovim" | "state-file", writtenAtSeconds: number, extra: Partial<EditorFacts> = {}) => ({
		origin,
		listed: true,
		alive: true,
		reading: { ...reading("/p/a.ts"), origin },
		writtenAtSeconds,
		...extra,
	});
	test.each<[string, EditorFacts[], string]>([
		["open server over a newer file", [facts("state-file", 9), facts("neovim", 5)], "neovim"],
		[
			"a blocking Neovim: the file",
			[
				facts("neovim", 9, { reading: { ...reading("/p/a.ts"), origin: "neovim", blocked: true } }),
				facts("state-file", 5),
			],
			"state-file",
		],
		[
			"a closed server: the file",
			[facts("neovim", 9, { listed: false, alive: false }), facts("state-file", 5)],
			"state-file",
		],
	])("%s", (_name, copies, origin) => {
		expect(factsThatCount(copies)?.origin).toBe(origin);
	});
});
