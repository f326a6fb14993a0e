import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { notSentReason } from "../../src/asks/core/ask-texts.ts";
import { ASK_START_WAIT_MS } from "../../src/shared/core/timing.ts";
import { tempDir } from "../support/temp-dir.ts";
import { waitFor } from "../support/wait-for.ts";
import { askRig, fakeEditor, userMessage } from "./ask-rig.ts";

const GITHUB_TOKEN = "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";
const AWS_SECRET = "Xk9vR2mQ7pL4sT8wY1zB3nC6dF0gH5jK2lM9qW4e";

const cleanups: (() => void)[] = [];
afterEach(() => {
	for (const cleanup of cleanups.splice(0)) cleanup();
});

/** A project on a real temp dir: `src/a.ts`, a `.env` and a link to it. */
function project() {
	const dir = tempDir("asks");
	cleanups.push(dir.cleanup);
	mkdirSync(join(dir.path, "src"));
	const file = join(dir.path, "src", "a.ts");
	writeFileSync(file, "one\ntwo\nthree\nfour\n");
	writeFileSync(join(dir.path, ".env"), `GITHUB_TOKEN=${GITHUB_TOKEN}\n`);
	symlinkSync(join(dir.path, ".env"), join(dir.path, "notes.txt"));
	const rig = askRig(dir.path);
	cleanups.push(() => rig.service.close());
	return { root: dir.path, file, ...rig };
}

const count = (text: string, part: string) => text.split(part).length - 1;

describe("an ask is one message: the words, then the attached lines once", () => {
	test("idle: sent with its token, the placeholder a reference, its lines once; pi connected to the editor", async () => {
		const { ask, input, sent, file, state, service } = project();
		const neovim = fakeEditor(11);
		const this_ = { file, startLine: 2, endLine: 4, text: "two\nthree\nfour" };
		const out = await ask(neovim, { prompt: "explain @this, then @this again", placeholders: { this: this_ } });
		expect(sent).toHaveLength(1);
		expect(out).toMatch(/^\[pi-ide-ask \d+\] explain/);
		const message = input(out ?? "");
		expect(message).toBe(
			[
				`explain @${file}#L2-4, then @${file}#L2-4 again`,
				"",
				"<editor-reference>",
				`The user referenced ${file} lines 2-4 (from the editor's selection, which may hold unsaved edits):`,
				"```ts",
				"two\nthree\nfour",
				"```",
				"</editor-reference>",
			].join("\n"),
		);
		expect(count(message, "two\nthree\nfour")).toBe(1);
		expect(state.connected).toEqual(["pid:11 Neovim 11"]);
		expect(service.promptFrom(message)).toBe("asked from Neovim 11, now connected to it");
		expect(neovim.told).toEqual([]);
	});

	test("a one-line part keeps its columns; @diagnostics goes as the prompt's block has them", async () => {
		const { ask, input, file } = project();
		const error = { line: 3, column: 2, severity: "error", message: "x is not defined" };
		const message = input(
			(await ask(fakeEditor(12), {
				prompt: "fix @selection given @diagnostics",
				placeholders: {
					selection: { file, startLine: 3, endLine: 3, startColumn: 2, endColumn: 4, text: "hre" },
					diagnostics: { file, items: [error] },
				},
			})) ?? "",
		);
		expect(message.split("\n")[0]).toBe(`fix @${file}#L3 given the diagnostics of @${file}`);
		expect(message).toContain(`The user referenced ${file} line 3, columns 2-4 (from the editor's selection`);
		expect(
			message.endsWith(
				"\n\n<editor-diagnostics>\nDiagnostics: 1 error, 0 warnings\n- line 3: error: x is not defined\n</editor-diagnostics>",
			),
		).toBe(true);
	});

	test.each([
		[".env", ".env"],
		["a link to .env (its real path)", "notes.txt"],
	])("a secret file's @this withheld: %s", async (_name, name) => {
		const { ask, input, root } = project();
		const file = join(root, name);
		const params = {
			prompt: "what is in @this",
			placeholders: { this: { file, startLine: 1, endLine: 1, text: `GITHUB_TOKEN=${GITHUB_TOKEN}` } },
		};
		const message = input((await ask(fakeEditor(13), params)) ?? "");
		expect(message).toContain(`${file} line 1: text withheld: `);
		expect(message).toContain('matches the secret-file pattern ".env"');
		expect(message).not.toContain(GITHUB_TOKEN);
		expect(message).not.toContain("GITHUB_TOKEN=");
	});

	test.each([
		["a GitHub token", `const token = "${GITHUB_TOKEN}";`, GITHUB_TOKEN, "[redacted: github]"],
		["an AWS secret key", `aws_secret_access_key = "${AWS_SECRET}"`, AWS_SECRET.slice(-12), "[redacted: aws]"],
	])("%s in the selected lines is redacted (secretlint), the rest kept", async (_name, line, secret, mark) => {
		const { ask, input, file } = project();
		const text = `before();\n${line}\nafter();`;
		const params = { prompt: "check @this", placeholders: { this: { file, startLine: 1, endLine: 3, text } } };
		const message = input((await ask(fakeEditor(14), params)) ?? "");
		expect(message).toContain(mark);
		expect(message).not.toContain(secret);
		expect(message).toContain("before();\n");
		expect(message).toContain("\nafter();");
	});
});

describe("an ask pi cannot take says why at once, and nothing is sent", () => {
	test.each<[string, (rig: ReturnType<typeof project>) => void, keyof typeof notSentReason]>([
		["asks off", (rig) => Object.assign(rig.state, { on: false }), "off"],
		["no model", (rig) => Object.assign(rig.state, { model: undefined }), "noModel"],
		["compacting", (rig) => rig.service.setCompacting(true), "compacting"],
		["after close", (rig) => rig.service.close(), "ending"],
	])("%s", async (_name, make, kind) => {
		const why = notSentReason[kind];
		const rig = project();
		make(rig);
		const emacs = fakeEditor(21, "Emacs 21");
		expect(await rig.ask(emacs, { prompt: "explain @this", placeholders: {} })).toBeUndefined();
		expect(emacs.told).toEqual([{ kind: "status", text: `pi: not sent: ${why}`, level: "error", notSent: kind }]);
		expect(rig.sent).toEqual([]);
		expect(rig.state.connected).toEqual([]);
		rig.clock.advance(10 * ASK_START_WAIT_MS);
		expect(emacs.told).toHaveLength(1);
	});

	test("compacting begun while the lines were read: the checks again before sending", async () => {
		const rig = project();
		const emacs = fakeEditor(22, "Emacs 22");
		rig.receive(emacs, "ask", { prompt: "explain" });
		rig.service.setCompacting(true);
		await waitFor("the late refusal", () => emacs.told.length > 0);
		expect(rig.sent).toEqual([]);
		expect(emacs.statuses()).toEqual([`pi: not sent: ${notSentReason.compacting}`]);
		rig.service.setCompacting(false);
		expect(await rig.ask(emacs, { prompt: "now" })).toMatch(/ now$/);
	});

	test("idle, and no run started within ASK_START_WAIT_MS: not sent, with why", async () => {
		const { ask, input, clock, service, sent } = project();
		const neovim = fakeEditor(23);
		input((await ask(neovim, { prompt: "hello" })) ?? "");
		clock.advance(ASK_START_WAIT_MS - 1);
		expect(neovim.told).toEqual([]);
		clock.advance(1);
		expect(neovim.told).toEqual([
			{ kind: "status", text: `pi: not sent: ${notSentReason.noStart}`, level: "error", notSent: "noStart" },
		]);
		expect(sent).toHaveLength(1);
		expect(service.statusLines()).toEqual([
			"Asks from editors: on (1 asked, 1 sent, 1 not sent, 0 malformed)",
			`  last problem: Neovim 23: not sent: ${notSentReason.noStart}`,
		]);
		service.agentStarted();
		expect(neovim.told).toHaveLength(1);
	});

	test("a message pi refuses (send throws): not sent, with pi's words", async () => {
		const { ask, state, clock } = project();
		state.sendThrows = new Error("Agent is busy\u001b[31m");
		const neovim = fakeEditor(24);
		expect(await ask(neovim, { prompt: "hi" })).toBeUndefined();
		expect(neovim.statuses()).toEqual(["pi: not sent: Agent is busy"]);
		clock.advance(ASK_START_WAIT_MS);
		expect(neovim.told).toHaveLength(1);
	});

	test("close(): an ask waiting for its run is told the session ends, and no timer is left", async () => {
		const { ask, clock, service } = project();
		const neovim = fakeEditor(25);
		await ask(neovim, { prompt: "hi" });
		service.close();
		expect(neovim.statuses()).toEqual([`pi: not sent: ${notSentReason.ending}`]);
		expect(clock.pendingTimers).toBe(0);
		clock.advance(ASK_START_WAIT_MS);
		expect(neovim.told).toHaveLength(1);
	});
});

describe("working and done", () => {
	test("idle: working at the run's start; done with the files changed and followDisk's count", async () => {
		const { ask, input, service, state, clock, file } = project();
		const neovim = fakeEditor(31);
		input((await ask(neovim, { prompt: "refactor" })) ?? "");
		service.agentStarted();
		expect(neovim.told).toEqual([{ kind: "status", text: "pi: working (faux/model-1)", level: "working" }]);
		clock.advance(ASK_START_WAIT_MS);
		expect(neovim.told).toHaveLength(1);
		service.fileChanged(file);
		// A retry (pi 1.x): the same run, told working once.
		service.agentStarted();
		state.followed = [
			{ key: "pid:31", notReloaded: 2 },
			{ key: "pid:99", notReloaded: 5 },
		];
		await service.runEnded({ aborted: false });
		expect(state.followCalls).toBe(1);
		expect(neovim.statuses()).toEqual([
			"pi: working (faux/model-1)",
			"pi: done, changed a.ts; 2 files changed on disk, not reloaded",
		]);
		await service.runEnded({ aborted: false });
		expect(neovim.told).toHaveLength(2);
	});

	test.each([
		["an error", { error: "429 rate limited", aborted: false }, "pi: error: 429 rate limited", "error"],
		["stopped", { aborted: true }, "pi: stopped", "info"],
	])("a run that ended in %s", async (_name, outcome, text, level) => {
		const { ask, input, service } = project();
		const neovim = fakeEditor(32);
		input((await ask(neovim, { prompt: "go" })) ?? "");
		service.agentStarted();
		await service.runEnded(outcome);
		expect(neovim.told.at(-1)).toEqual({ kind: "status", text, level });
	});

	test("busy: steered with the editor named, working at its own user message, not at another's", async () => {
		const { ask, input, service, state, clock } = project();
		state.idle = false;
		service.agentStarted();
		const vscode = fakeEditor(33, "VS Code 33");
		const emacs = fakeEditor(34, "Emacs 34");
		const vscodeMessage = input((await ask(vscode, { prompt: "why?" })) ?? "");
		const emacsMessage = input((await ask(emacs, { prompt: "how?" })) ?? "");
		// The first ask connected pi to its editor (the rig's connectAsked says so once): the line says that too.
		expect(vscodeMessage).toBe("[asked from VS Code 33, now connected to it]\nwhy?");
		expect(emacsMessage).toBe("[asked from Emacs 34]\nhow?");
		clock.advance(10 * ASK_START_WAIT_MS);
		service.messageStarted(userMessage("a prompt typed in pi"));
		service.messageStarted(userMessage(emacsMessage));
		expect(vscode.told).toEqual([]);
		expect(emacs.statuses()).toEqual(["pi: working (faux/model-1)"]);
		service.messageStarted({ role: "user", content: vscodeMessage });
		expect(vscode.statuses()).toEqual(["pi: working (faux/model-1)"]);
		await service.runEnded({ aborted: false });
		expect(vscode.statuses().at(-1)).toBe("pi: done");
		expect(emacs.statuses().at(-1)).toBe("pi: done");
	});

	test("a run nobody asked for tells no editor, and still makes buffers follow the disk", async () => {
		const { service, state } = project();
		const neovim = fakeEditor(35);
		service.agentStarted();
		await service.runEnded({ aborted: false });
		expect(neovim.told).toEqual([]);
		expect(state.followCalls).toBe(1);
	});
});

describe("stop, add, and a malformed message", () => {
	test("stop: idle, nothing to stop; busy, the run aborted", () => {
		const { receive, state } = project();
		const neovim = fakeEditor(41);
		receive(neovim, "stop");
		expect(state.aborts).toBe(0);
		state.idle = false;
		receive(neovim, "stop", { junk: true });
		expect(state.aborts).toBe(1);
		expect(neovim.statuses()).toEqual(["pi: nothing runs", "pi: stopping the run"]);
	});

	test("add: a reference into pi's input, nothing runs", () => {
		const { receive, state, sent } = project();
		const neovim = fakeEditor(42);
		receive(neovim, "add", { file: "/p/src/a.ts", startLine: 3, endLine: 5 });
		receive(neovim, "add", { file: "/p/src/b.ts", startLine: 7 });
		expect(state.inserted).toEqual([
			{ file: "/p/src/a.ts", lines: { start: 3, end: 5 } },
			{ file: "/p/src/b.ts", lines: { start: 7, end: 7 } },
		]);
		expect(neovim.statuses()).toEqual([
			"pi: added @/p/src/a.ts#L3-5 to pi's input",
			"pi: added @/p/src/b.ts#L7-7 to pi's input",
		]);
		state.on = false;
		receive(neovim, "add", { file: "/p/src/a.ts" });
		expect(neovim.statuses().at(-1)).toBe(`pi: not sent: ${notSentReason.off}`);
		expect(sent).toEqual([]);
	});

	test.each<[string, string, unknown, string]>([
		["a prompt not a string", "ask", { prompt: 42 }, "pi: a malformed ask (/prompt: must be string)"],
		[
			"a prompt too long",
			"ask",
			{ prompt: "a".repeat(70 * 1024) },
			"pi: prompt too long (70 KiB typed; 64 KiB at most)",
		],
		["an add of a relative file", "add", { file: "a.ts" }, 'pi: a malformed add (/file: must match pattern "^/")'],
		[
			"an answer without its choice",
			"answer",
			{ id: 1 },
			"pi: a malformed answer (the message: must have required properties choice)",
		],
		["a dismiss of id 0", "dismiss", { id: 0 }, "pi: a malformed dismiss (/id: must be >= 1)"],
	])(
		"a malformed message (%s): told, counted in /ide status, nothing sent, never a throw",
		(_name, method, params, text) => {
			const { receive, service, sent } = project();
			const neovim = fakeEditor(43);
			expect(() => receive(neovim, method as "ask", params)).not.toThrow();
			expect(neovim.told).toEqual([{ kind: "status", text, level: "error" }]);
			expect(sent).toEqual([]);
			expect(service.statusLines()).toEqual([
				"Asks from editors: on (0 asked, 0 sent, 0 not sent, 1 malformed)",
				`  last problem: Neovim 43: ${text.slice("pi: ".length)}`,
			]);
		},
	);
});

describe("an editor's answer to one of pi's questions", () => {
	test("handed to the question mirror as it came, with the editor; a dismiss without a choice", () => {
		const { receive, state } = project();
		const neovim = fakeEditor(44);
		receive(neovim, "answer", { id: 3, choice: 2 });
		receive(neovim, "dismiss", { id: 4 });
		expect(state.questionReplies).toEqual([
			{ key: "pid:44", id: 3, choice: 2 },
			{ key: "pid:44", id: 4 },
		]);
		expect(neovim.told).toEqual([]);
	});
});
