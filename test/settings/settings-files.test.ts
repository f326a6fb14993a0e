import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { formatStatus } from "../../src/connection/core/status-report.ts";
import { readSettings, type SettingsFiles, settingsWarnings } from "../../src/settings/settings-files.ts";
import { tempDir } from "../support/temp-dir.ts";

/** `/ide status` with nothing but these settings. */
const statusWith = (settings: ReturnType<typeof readSettings>, files: SettingsFiles & { root: string }) =>
	formatStatus({
		environment: { uid: 0 },
		dirs: [],
		projectDir: join(files.root, "project"),
		autoconnect: settings.autoconnect,
		suppressed: false,
		nowSeconds: 0,
		settings,
		settingsFiles: files,
	});

/** Both settings files in a real temp dir, as pi lays them out: the agent dir's and the project's `.pi/`. */
describe("the settings files read from disk", () => {
	const cleanups: (() => void)[] = [];
	afterEach(() => {
		for (const cleanup of cleanups.splice(0)) cleanup();
	});
	const layout = (): SettingsFiles & { root: string } => {
		const dir = tempDir("settings");
		cleanups.push(dir.cleanup);
		mkdirSync(join(dir.path, "agent"));
		mkdirSync(join(dir.path, "project", ".pi"), { recursive: true });
		return {
			root: dir.path,
			global: join(dir.path, "agent", "settings.json"),
			project: join(dir.path, "project", ".pi", "settings.json"),
		};
	};

	test("a global file with comments and trailing commas is the user's word, not a problem", () => {
		const files = layout();
		writeFileSync(files.global, '{\n  // mine\n  "pi-ide": { "secretFiles": ["*.pem",], "zed": false },\n}\n');
		const settings = readSettings(files);
		expect(settings.problems).toEqual([]);
		expect(settings.secretFiles.global).toEqual(["*.pem"]);
		expect(settings.zed).toEqual({ on: false, source: "global" });
	});

	test("a broken global file is named; the project's file still counts", () => {
		const files = layout();
		writeFileSync(files.global, '{ "pi-ide": { "secretFiles": ["*.pem"] "context": "explicit" } }');
		writeFileSync(files.project, '{ "pi-ide": { "secretFiles": ["prod/*.yaml"] } }');
		const settings = readSettings(files);
		expect(settings.problems).toMatchObject([{ scope: "global", file: files.global, line: 1, column: 40 }]);
		expect(settings.secretFiles).toEqual({ global: [], project: ["prod/*.yaml"] });
		expect(settings.context).toEqual({ mode: "auto", source: "default" });
		const status = statusWith(settings, files);
		expect(status).toContain(`Settings file ${files.global}: not used: not valid JSON: `);
		expect(status).toContain("at line 1, column 40; none of its pi-ide settings apply");
	});

	test("no file and no .pi dir are no settings; a directory where the file should be is named", () => {
		const files = layout();
		expect(readSettings({ ...files, project: join(files.root, "none", ".pi", "settings.json") }).problems).toEqual([]);
		writeFileSync(join(files.root, "pi-file"), "");
		expect(readSettings({ ...files, project: join(files.root, "pi-file", "settings.json") }).problems).toEqual([]);
		mkdirSync(files.project);
		expect(readSettings(files).problems).toMatchObject([
			{ scope: "project", reason: "cannot be read (EISDIR)", piSaysIt: true },
		]);
	});

	test("each problem is warned about once per pi process; a new problem in the same file is warned about again", () => {
		const files = layout();
		writeFileSync(files.project, '{"pi-ide": "explicit"}');
		const first = settingsWarnings(readSettings(files));
		expect(first).toHaveLength(1);
		expect(first[0]).toContain(`${files.project} apply ("pi-ide" is not an object)`);
		expect(settingsWarnings(readSettings(files))).toEqual([]);
		writeFileSync(files.project, "{");
		expect(settingsWarnings(readSettings(files))).toEqual([
			`pi-ide: none of its settings in ${files.project} apply (pi names the error); in effect: context auto, auto-connect on, Zed read, Neovim read, Emacs read, credential redaction on, unsaved-buffer guard on, only the default secret-file patterns`,
		]);
		writeFileSync(files.project, "{}");
		expect(settingsWarnings(readSettings(files))).toEqual([]);
	});

	test("a project's suggestions on: warned once, named in /ide status, its other settings still apply", () => {
		const files = layout();
		writeFileSync(files.project, '{"pi-ide": {"suggestions": "openai/gpt-5", "suggestionsPerMinute": 4}}');
		const settings = readSettings(files);
		expect(settings.suggestions).toEqual({ mode: "asked-only", source: "default" });
		expect(settings.suggestionsPerMinute).toEqual({ project: 4 });
		expect(settingsWarnings(settings)).toEqual([
			`pi-ide: "suggestions" in ${files.project} does not apply: a project's settings may turn suggestions off, never on or choose their model; only the global settings do`,
		]);
		expect(settingsWarnings(readSettings(files))).toEqual([]);
		const status = statusWith(settings, files);
		expect(status).toContain(`Settings file ${files.project}: "suggestions" not used: `);
	});
});
