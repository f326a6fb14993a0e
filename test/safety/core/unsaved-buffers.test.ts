import { describe, expect, test } from "vitest";
import { type UnsavedBuffer, unsavedBuffers } from "../../../src/safety/core/unsaved-buffers.ts";
import { FILE_WRITING_TOOLS, unsavedBlockNotice, unsavedBlockReason } from "../../../src/safety/core/unsaved-texts.ts";
import { editorState } from "../../support/fixtures.ts";

describe("the files the guard covers", () => {
	test.each<[string, Parameters<typeof unsavedBuffers>, UnsavedBuffer[]]>([
		["a saved active file, nothing else", [editorState({ buffer: { modified: false } }), undefined, undefined], []],
		[
			"the active file with unsaved changes, named as the editor names it, its real path known",
			[editorState({ buffer: { modified: true, name: "main.ts" } }), "/real/main.ts", undefined],
			[{ file: "/home/dev/proj/src/main.ts", name: "main.ts", realFile: "/real/main.ts" }],
		],
		[
			"other unsaved tabs (Zed tells them) beside a saved active file",
			[editorState({ buffer: { modified: false } }), undefined, ["/p/a.ts", "/p/b.ts"]],
			[
				{ file: "/p/a.ts", name: "/p/a.ts" },
				{ file: "/p/b.ts", name: "/p/b.ts" },
			],
		],
		[
			"an unnamed modified buffer is nothing to guard",
			[editorState({ buffer: { modified: true, file: null } }), undefined, undefined],
			[],
		],
		[
			"a buffer with no name is named by its path",
			[editorState({ buffer: { modified: true, name: "" } }), undefined, undefined],
			[{ file: "/home/dev/proj/src/main.ts", name: "/home/dev/proj/src/main.ts" }],
		],
	])("%s", (_name, args, expected) => {
		expect(unsavedBuffers(...args)).toEqual(expected);
	});
});

describe("what the model and the user read", () => {
	test("only write and edit are guarded (bash is not: the README says so)", () => {
		expect([...FILE_WRITING_TOOLS].sort()).toEqual(["edit", "write"]);
	});

	test("the reason names the file and what to do; the notice names the tool", () => {
		expect(unsavedBlockReason("/p/a.ts")).toBe(
			"Blocked: the user's editor has unsaved changes to /p/a.ts. Writing the file now would overwrite or conflict with them. Ask the user to save or discard the changes in the editor, then try again.",
		);
		expect(unsavedBlockNotice("a.ts", "edit")).toBe(
			"pi-ide: blocked the model's edit of a.ts: your editor has unsaved changes to it (save or discard them, then let it retry)",
		);
	});
});
