import { describe, expect, test } from "vitest";
import { MAX_ACCEPTED_TEXT_CHARS } from "../../../src/review/core/diff-host.ts";
import {
	diffNotificationOf,
	openDiffAnswerOf,
	openDiffArguments,
	tabNameOf,
} from "../../../src/review/core/open-diff.ts";

const text = (...texts: string[]) => ({ content: texts.map((value) => ({ type: "text", text: value })) });

describe("openDiff in the IDE servers' shapes", () => {
	test("tab names carry pi's mark in the CLI's format, by the file's base name", () => {
		expect(tabNameOf({ displayName: "src/app/main.ts", id: "a1b2c3" })).toBe("✻ [pi] main.ts (a1b2c3) ⧉");
		expect(tabNameOf({ displayName: "main.ts", id: "a1b2c3" })).toBe("✻ [pi] main.ts (a1b2c3) ⧉");
	});

	test("the arguments name the file on both sides and carry the whole proposal", () => {
		const request = { id: "abcdef", file: "/p/src/a.ts", displayName: "src/a.ts", onDisk: "x\n", proposed: "y\n" };
		const ideServers = {
			old_file_path: "/p/src/a.ts",
			new_file_path: "/p/src/a.ts",
			new_file_contents: "y\n",
			tab_name: "✻ [pi] a.ts (abcdef) ⧉",
		};
		expect(openDiffArguments(request, false)).toEqual(ideServers);
		// The package's own client shows pi's text on the left, never the editor's unsaved document.
		expect(openDiffArguments(request, true)).toEqual({ ...ideServers, old_file_contents: "x\n" });
		expect(openDiffArguments({ ...request, onDisk: undefined }, true)).toEqual(ideServers);
	});

	test.each([
		["FILE_SAVED with the user's text", text("FILE_SAVED", "mine\n"), { kind: "accepted", text: "mine\n" }],
		["FILE_SAVED alone: the proposal as it was", text("FILE_SAVED"), { kind: "accepted", text: "proposed\n" }],
		["DIFF_REJECTED with the tab's name", text("DIFF_REJECTED", "✻ [pi] a.ts (abcdef) ⧉"), { kind: "rejected" }],
		["DIFF_REJECTED alone (JetBrains)", text("DIFF_REJECTED"), { kind: "rejected" }],
		["TAB_CLOSED decides nothing", text("TAB_CLOSED"), { kind: "closed" }],
		["another word", text("MAYBE"), { kind: "failed", reason: 'it answered openDiff with "MAYBE"' }],
		["no content", {}, { kind: "failed", reason: "its openDiff answer is not MCP text" }],
		[
			"content not text",
			{ content: [{ type: "image" }] },
			{ kind: "failed", reason: "its openDiff answer is not MCP text" },
		],
		["null", null, { kind: "failed", reason: "its openDiff answer is not MCP text" }],
	])("%s", (_name, result, expected) => {
		expect(openDiffAnswerOf(result, "proposed\n")).toEqual(expected);
	});

	test("an accepted text over the cap every editor's answer has fails: pi's select decides", () => {
		const atCap = "x".repeat(MAX_ACCEPTED_TEXT_CHARS);
		expect(openDiffAnswerOf(text("FILE_SAVED", atCap), "p")).toEqual({ kind: "accepted", text: atCap });
		expect(openDiffAnswerOf(text("FILE_SAVED", `${atCap}x`), "p")).toEqual({
			kind: "failed",
			reason: "its accepted text is too large",
		});
	});

	test.each([
		["shown, this tab", "pi/diffShown", { tab_name: "t" }, "shown"],
		["closed, this tab", "pi/diffClosed", { tab_name: "t" }, "closed"],
		["another tab", "pi/diffShown", { tab_name: "u" }, undefined],
		["another method", "selection_changed", { tab_name: "t" }, undefined],
		["no params", "pi/diffClosed", undefined, undefined],
	])("the VS Code client's notification: %s", (_name, method, params, expected) => {
		expect(diffNotificationOf(method, params, "t")).toBe(expected);
	});
});
