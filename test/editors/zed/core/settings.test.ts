import { describe, expect, test } from "vitest";
import {
	recordsCursor,
	workspaceRestoresUnsaved,
	ZED_DEFAULT_SETTINGS,
	zedSettingsLines,
	zedUserSettings,
} from "../../../../src/editors/zed/core/settings.ts";

describe("Zed's settings as pi needs them", () => {
	test.each([
		["no file: Zed's defaults", undefined, { restoreOnStartup: "last_session", restoreUnsavedBuffers: true }],
		[
			"empty_tab",
			'{"restore_on_startup": "empty_tab"}',
			{ restoreOnStartup: "empty_tab", restoreUnsavedBuffers: true },
		],
		[
			"none is empty_tab's alias",
			'{"restore_on_startup": "none"}',
			{ restoreOnStartup: "empty_tab", restoreUnsavedBuffers: true },
		],
		[
			"no unsaved text, written with comments and a trailing comma",
			'{\n  // keep it light\n  "session": { "restore_unsaved_buffers": false, },\n}',
			{ restoreOnStartup: "last_session", restoreUnsavedBuffers: false },
		],
		[
			"values of the wrong type are Zed's defaults",
			'{"restore_on_startup": 3, "session": {"restore_unsaved_buffers": "no"}}',
			ZED_DEFAULT_SETTINGS,
		],
	])("%s", (_name, text, facts) => {
		expect(zedUserSettings(text)).toEqual(facts);
	});

	test("a broken file: the defaults, and why", () => {
		expect(zedUserSettings("{ nope")).toMatchObject({
			...ZED_DEFAULT_SETTINGS,
			problem: expect.stringContaining("not valid JSON"),
		});
	});

	test.each([
		["no workspace file: the user's", undefined, false, false],
		["the workspace turns it off", '{"session": {"restore_unsaved_buffers": false}}', true, false],
		["the workspace turns it on", '{"session": {"restore_unsaved_buffers": true}}', false, true],
		["the workspace says nothing about it", '{"tab_size": 2}', false, false],
	])("%s", (_name, workspace, user, restores) => {
		expect(workspaceRestoresUnsaved({ ...ZED_DEFAULT_SETTINGS, restoreUnsavedBuffers: user }, workspace)).toBe(
			restores,
		);
	});

	test("what /ide status says: only what limits pi", () => {
		expect(zedSettingsLines(ZED_DEFAULT_SETTINGS, "/c/settings.json")).toEqual([]);
		expect(recordsCursor({ ...ZED_DEFAULT_SETTINGS, restoreOnStartup: "empty_tab" })).toBe(false);
		expect(
			zedSettingsLines(
				{ restoreOnStartup: "empty_tab", restoreUnsavedBuffers: false, problem: "not valid JSON with comments (x)" },
				"/c/settings.json",
			),
		).toEqual([
			"  Zed settings /c/settings.json: not valid JSON with comments (x); Zed's defaults assumed",
			'  Zed settings: "restore_on_startup": "empty_tab": Zed records no cursor or selection, pi sees the file only',
			'  Zed settings: "session": { "restore_unsaved_buffers": false }: Zed stores no unsaved text, so unsaved changes look saved, positions are against the file on disk, and the guard cannot see them',
		]);
	});
});
