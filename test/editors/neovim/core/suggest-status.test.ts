import { describe, expect, test } from "vitest";
import { type NeovimSuggestionsReport, suggestionLines } from "../../../../src/editors/neovim/core/status.ts";

const KEYS = { accept: "<M-l>", next: "<M-]>", previous: "<M-[>", dismiss: "<C-]>", ask: "<M-\\>" };
const none = { asked: 0, shown: 0, stale: 0, empty: 0, cancelled: 0 };
const report = (over: Partial<NeovimSuggestionsReport>): NeovimSuggestionsReport => ({
	state: "on",
	keys: KEYS,
	unoffered: [],
	counts: none,
	...over,
});

describe("a Neovim's ghost text in /ide status", () => {
	test.each<[string, Partial<NeovimSuggestionsReport>, string[]]>([
		[
			"on, nothing asked yet",
			{},
			[
				"    suggestions: ghost text on (this pi owns them here); keys: <M-l> accept, <M-]> next, <M-[> previous, <C-]> dismiss, <M-\\> ask; 0 asked",
			],
		],
		[
			"what became of the answers; a key the user maps is not offered",
			{ unoffered: ["accept"], counts: { asked: 5, shown: 2, stale: 1, empty: 1, cancelled: 1 } },
			[
				"    suggestions: ghost text on (this pi owns them here); keys: <M-]> next, <M-[> previous, <C-]> dismiss, <M-\\> ask; 5 asked: 2 shown, 1 stale (not drawn), 1 none, 1 cancelled",
				"    not offered (a mapping of yours): <M-l> (accept)",
			],
		],
		["no keys at all", { keys: {} }, ["    suggestions: ghost text on (this pi owns them here); keys: none; 0 asked"]],
		[
			"another pi owns them",
			{ state: "elsewhere", owner: 7 },
			[
				"    suggestions: another pi owns them in this Neovim (its channel 7): that pi asks its model and draws, not this one",
			],
		],
		[
			"too old a Neovim",
			{ state: "unsupported", reason: "Neovim 0.7 or later draws pi's suggestions" },
			["    suggestions: not drawn: Neovim 0.7 or later draws pi's suggestions"],
		],
		[
			"a start that failed, its reason made terminal-safe",
			{ state: "failed", reason: "no answer\u001b[31m within 500 ms" },
			["    suggestions: not drawn: no answer within 500 ms"],
		],
		["starting", { state: "starting" }, ["    suggestions: starting"]],
		[
			"a notification refused",
			{ problem: "a cancel without its id" },
			[
				"    suggestions: ghost text on (this pi owns them here); keys: <M-l> accept, <M-]> next, <M-[> previous, <C-]> dismiss, <M-\\> ask; 0 asked",
				"    suggestions: last refused: a cancel without its id",
			],
		],
	])("%s", (_name, over, lines) => {
		expect(suggestionLines(report(over))).toEqual(lines);
	});
});
