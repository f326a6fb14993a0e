import { describe, expect, test } from "vitest";
import { factsThatCount, listedCopyWins, withSelectionTimed } from "../../../src/editors/core/copies.ts";
import type { EditorFacts, EditorReading, ListedEditor } from "../../../src/editors/core/editor.ts";
import type { Selection } from "../../../src/editors/core/protocol-state.ts";
import { editorReading } from "../../support/fixtures.ts";

const reading = editorReading;

describe("one editor in two state dirs: a valid copy first, then what was written last", () => {
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
		[
			"the newer file is rejected: unknown (the other dir's state is older, stale)",
			[valid(5), rejected(9)],
			"rejected",
		],
		["both rejected: one of them, its reason", [rejected(5), rejected(9)], "rejected"],
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
	const copy = (
		origin: "neovim" | "emacs" | "state-file" | "ide-server",
		writtenAtSeconds: number,
		blocked = false,
	): ListedEditor => ({
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
		[
			"an Emacs over its server beats its IDE server (claude-code-ide.el)",
			copy("emacs", 5),
			copy("ide-server", 9),
			true,
		],
		["an Emacs over its server beats a newer file", copy("emacs", 5), copy("state-file", 9), true],
		["a busy Emacs's copy loses to the file", copy("emacs", 9, true), copy("state-file", 5), false],
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
		[
			"a rejected server snapshot: the plugin's valid file",
			[{ origin: "neovim", listed: true, alive: true, rejection: "too long" }, facts("state-file", 5)],
			"state-file",
		],
	])("%s", (_name, copies, origin) => {
		expect(factsThatCount(copies)?.origin).toBe(origin);
	});

	test("two state dirs and the server: each channel's newest first, whatever order the sources answer in", () => {
		const server = { origin: "neovim" as const, listed: true, alive: true, rejection: "too long" };
		const staleDir = facts("state-file", 5);
		const newestDir = { ...facts("state-file", 9), reading: undefined, rejection: "not valid JSON" };
		const orders = [
			[server, newestDir, staleDir],
			[staleDir, server, newestDir],
			[newestDir, staleDir, server],
		];
		// The plugin's newest write is rejected: the editor's state is unknown, never the older dir's stale one.
		for (const order of orders) expect(factsThatCount(order)?.reading).toBeUndefined();
	});
});

describe("one editor over two channels: the selection's time from the copy that timed it", () => {
	const lines = { start: { line: 2, column: 1 }, end: { line: 4, column: 5 }, text: "line2\nline3\nline4" };
	const copy = (
		origin: EditorReading["origin"],
		selection: Partial<Selection> | null,
		firstSeen = 100,
		file = "/p/a.ts",
	): EditorReading => {
		const base = reading(file);
		const buffer = base.state.active_buffer;
		return {
			...base,
			origin,
			selectionFirstSeenSeconds: firstSeen,
			state: {
				...base.state,
				active_buffer: buffer && {
					...buffer,
					selection: selection && { ...lines, selected_at: null, ...selection },
				},
			},
		};
	};
	const server = (selection: Partial<Selection> | null = {}) => copy("neovim", selection, 100);
	const timed = (selection: Partial<Selection> = {}, firstSeen = 90, file?: string) =>
		copy("state-file", { selected_at: 90, ...selection }, firstSeen, file);
	test.each<[string, EditorReading, EditorReading[], { selectedAt: number | null | undefined; firstSeen: number }]>([
		[
			"the server could not time marks made before pi: the plugin's time",
			server(),
			[timed()],
			{ selectedAt: 90, firstSeen: 90 },
		],
		["both timed it: the later time", server({ selected_at: 95 }), [timed()], { selectedAt: 95, firstSeen: 100 }],
		["both timed it, the other later", server({ selected_at: 80 }), [timed()], { selectedAt: 90, firstSeen: 90 }],
		[
			"the latest of several copies",
			server(),
			[timed(), timed({ selected_at: 97 }, 97)],
			{ selectedAt: 97, firstSeen: 97 },
		],
		[
			"another end: not the same selection",
			server(),
			[timed({ end: { line: 4, column: 4 } })],
			{ selectedAt: null, firstSeen: 100 },
		],
		["another start", server(), [timed({ start: { line: 1, column: 1 } })], { selectedAt: null, firstSeen: 100 }],
		["other text", server(), [timed({ text: "line2\nline3\nline5" })], { selectedAt: null, firstSeen: 100 }],
		["another file", server(), [timed({}, 90, "/p/b.ts")], { selectedAt: null, firstSeen: 100 }],
		["the other copy did not time it either", server(), [copy("state-file", {})], { selectedAt: null, firstSeen: 100 }],
		["no other copy", server(), [], { selectedAt: null, firstSeen: 100 }],
		["no selection here: nothing taken", server(null), [timed()], { selectedAt: undefined, firstSeen: 100 }],
	])("%s", (_name, counted, others, expected) => {
		const result = withSelectionTimed(counted, [counted, ...others]);
		expect(result.state.active_buffer?.selection?.selected_at).toBe(expected.selectedAt);
		expect(result.selectionFirstSeenSeconds).toBe(expected.firstSeen);
		// Nothing else is copied: the counted copy's origin, cursor and write time stay.
		expect(result.origin).toBe("neovim");
		expect(result.writtenAtSeconds).toBe(counted.writtenAtSeconds);
		expect(result.state.active_buffer?.cursor).toEqual(counted.state.active_buffer?.cursor);
	});
});
