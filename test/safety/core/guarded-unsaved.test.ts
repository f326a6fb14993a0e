import { describe, expect, test } from "vitest";
import type { EditorFacts, EditorReading } from "../../../src/editors/core/editor.ts";
import { unsavedToGuard } from "../../../src/safety/core/guarded-unsaved.ts";
import { editorState } from "../../support/fixtures.ts";

const MAIN = "/home/dev/proj/src/main.ts";
const OTHER = "/home/dev/proj/src/other.ts";

const reading = (modified: boolean, unsavedFiles?: string[]): EditorReading => ({
	origin: "state-file",
	pid: 7,
	state: editorState({ pid: 7, buffer: { modified } }),
	paths: { cwd: "/home/dev/proj", argvDirs: [], activeFile: MAIN },
	selectionFirstSeenSeconds: 0,
	writtenAtSeconds: 0,
	...(unsavedFiles && { unsavedFiles }),
});

const facts = (overrides: Partial<EditorFacts>): EditorFacts => ({
	origin: "state-file",
	listed: true,
	alive: true,
	...overrides,
});

describe("what the guard covers for one editor", () => {
	test.each<[string, EditorFacts | undefined, string[] | undefined, string[]]>([
		["the latest state says the active file is modified", facts({ reading: reading(true) }), undefined, [MAIN]],
		["and another file is unsaved", facts({ reading: reading(true, [OTHER]) }), undefined, [MAIN, OTHER]],
		["nothing unsaved", facts({ reading: reading(false) }), undefined, []],
		[
			"the latest state is rejected: the last valid one still counts (fails closed)",
			facts({ rejection: "not valid JSON", lastValid: reading(true, [OTHER]) }),
			undefined,
			[MAIN, OTHER],
		],
		["rejected with nothing valid before: nothing known to guard", facts({ rejection: "bad" }), undefined, []],
		[
			"a valid state replaces the kept one",
			facts({ reading: reading(false), lastValid: reading(true) }),
			undefined,
			[],
		],
		[
			"the editor was asked just now: its whole list decides, also for the active file",
			facts({ reading: reading(true, [OTHER]) }),
			[OTHER],
			[OTHER],
		],
		["asked while its latest state is rejected", facts({ rejection: "bad" }), [OTHER], [OTHER]],
		[
			"the editor is gone (its file removed): nothing of it is guarded",
			facts({ listed: false, lastValid: reading(true) }),
			undefined,
			[],
		],
		["its process is gone", facts({ alive: false, reading: reading(true) }), undefined, []],
		["nothing known under the key", undefined, undefined, []],
	])("%s", (_case, editorFacts, askedNow, expected) => {
		expect(unsavedToGuard(editorFacts, askedNow).map((buffer) => buffer.file)).toEqual(expected);
	});
});
