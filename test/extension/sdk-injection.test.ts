// Imported the way another extension would: through the package's own `exports` entry.
import { EDITOR_EVENT_CHANNEL, type EditorEvent } from "pi-ide-context/events";
import { describe, expect, test } from "vitest";

import { nvimFixtureText } from "../support/fixtures.ts";
import { contentText } from "../support/sdk-session.ts";
import { useSdkWorkspace } from "../support/sdk-workspace.ts";
import { waitFor } from "../support/wait-for.ts";

const ws = useSdkWorkspace("sdk");

const session = ws.session;

const editor = ws.editor;

const now = () => Math.floor(Date.now() / 1000);

describe("the extension inside a real pi AgentSession", () => {
	test("the exact block arrives right after the user's prompt", async () => {
		const nvim = editor();
		const selectedAt = now();
		nvim.write(nvimFixtureText("visual-line-selection", { project: ws.project, pid: nvim.pid, selectedAt }));
		const { session: pi, contexts } = await session();
		await pi.prompt("explain the selection");

		const messages = contexts.at(-1)?.messages ?? [];
		const prompt = messages.findIndex(
			(message) => message.role === "user" && contentText(message) === "explain the selection",
		);
		expect(prompt).toBeGreaterThanOrEqual(0);
		expect(contentText(messages[prompt + 1] ?? {})).toBe(
			[
				"<editor-context>",
				`The user's editor state as of this prompt ("this file", "here" and "the selection" refer to it).`,
				"App: nvim",
				`File: ${ws.project}/src/main.ts`,
				"Language: typescript",
				"Cursor: line 4, column 1",
				"Buffer: 6 lines, no unsaved changes",
				"Selection: lines 2-4 (from line 2 column 1 to line 4 column 5)",
				"```typescript",
				"line2",
				"line3",
				"line4",
				"```",
				"</editor-context>",
			].join("\n"),
		);
	});

	test("a stale selection's text is not sent; the file still is", async () => {
		const nvim = editor();
		nvim.write(
			nvimFixtureText("visual-line-selection", { project: ws.project, pid: nvim.pid, selectedAt: now() - 61 }),
		);
		const { session: pi, contexts } = await session();
		await pi.prompt("what is here?");
		const all = (contexts.at(-1)?.messages ?? []).map(contentText).join("\n");
		expect(all).toContain(`File: ${ws.project}/src/main.ts`);
		expect(all).not.toContain("line2\nline3");
		expect(all).not.toContain("Selection:");
	});

	test("the system prompt is byte-identical with and without an editor", async () => {
		const without = await session();
		await without.session.prompt("hello");
		const bare = without.contexts.at(-1)?.systemPrompt;
		await without.shutdown();

		const nvim = editor();
		nvim.write(nvimFixtureText("charwise-selection", { project: ws.project, pid: nvim.pid, selectedAt: now() }));
		const withEditor = await session();
		await withEditor.session.prompt("hello");
		const last = withEditor.contexts.at(-1);
		expect(last?.messages.map(contentText).join("\n")).toContain("<editor-context>");
		expect(last?.systemPrompt).toBe(bare);
	});

	test("an unnamed buffer sends no block", async () => {
		const nvim = editor();
		nvim.write(nvimFixtureText("unnamed-buffer", { project: ws.project, pid: nvim.pid }));
		const { session: pi, contexts } = await session();
		await pi.prompt("hi");
		expect((contexts.at(-1)?.messages ?? []).map(contentText).join("\n")).not.toContain("<editor-context>");
	});

	test("two editors tied in the best tier: nothing is sent until one is picked", async () => {
		const first = editor();
		const second = editor();
		first.write(nvimFixtureText("named-buffer", { project: ws.project, pid: first.pid }));
		second.write(nvimFixtureText("named-buffer", { project: ws.project, pid: second.pid }));
		const { session: pi, contexts } = await session();
		await pi.prompt("hi");
		expect((contexts.at(-1)?.messages ?? []).map(contentText).join("\n")).not.toContain("<editor-context>");
	});

	test("the block follows the editor between prompts", async () => {
		const nvim = editor();
		nvim.write(nvimFixtureText("named-buffer", { project: ws.project, pid: nvim.pid }));
		const { session: pi, contexts, events } = await session();
		const announced: unknown[] = [];
		events.on(EDITOR_EVENT_CHANNEL, (editor) => announced.push(editor));
		await pi.prompt("one");
		expect(contentText(contexts.at(-1)?.messages.at(-1) ?? {})).toContain("Cursor: line 1, column 1");
		nvim.write(nvimFixtureText("charwise-selection", { project: ws.project, pid: nvim.pid, selectedAt: now() }));
		await waitFor("the extension to see the write", () =>
			announced.some((editor) => (editor as { widget?: string } | undefined)?.widget === "1 line selected in main.ts"),
		);
		await pi.prompt("two");
		expect(contentText(contexts.at(-1)?.messages.at(-1) ?? {})).toContain("Cursor: line 5, column 3");
	});
});

describe("the event bus", () => {
	test("announces the connected editor with exactly its fields, and undefined once it is gone", async () => {
		const nvim = editor();
		const { events } = await session();
		const announced: (EditorEvent | undefined)[] = [];
		events.on(EDITOR_EVENT_CHANNEL, (payload) => announced.push(payload as EditorEvent | undefined));
		const timestamp = now();
		nvim.write(
			nvimFixtureText("charwise-selection", { project: ws.project, pid: nvim.pid, selectedAt: now(), timestamp }),
		);
		await waitFor("announced", () => announced.length > 0);
		expect(announced.at(-1)).toEqual({
			key: `pid:${nvim.pid}`,
			pid: nvim.pid,
			app: "nvim",
			file: `${ws.project}/src/main.ts`,
			timestamp,
			widget: "1 line selected in main.ts",
			review: false,
		});
		await nvim.kill();
		await waitFor("undefined on disconnect", () => announced.length > 1 && announced.at(-1) === undefined, 3000);
	});
});

describe("the /ide command as pi registered it", () => {
	test("completes its subcommands", async () => {
		const { session: pi } = await session();
		const command = pi.extensionRunner.getCommand("ide");
		expect(command?.description).toBe(
			"Connect pi to an editor: /ide, /ide all, /ide off, /ide status, /ide review on|off, /ide suggestions on|off, /ide install vscode",
		);
		const complete = async (prefix: string) =>
			((await command?.getArgumentCompletions?.(prefix)) ?? null)?.map((item) => item.value) ?? null;
		expect(await complete("")).toEqual([
			"status",
			"all",
			"off",
			"install vscode",
			"review on",
			"review off",
			"suggestions on",
			"suggestions off",
		]);
		expect(await complete("r")).toEqual(["review on", "review off"]);
		expect(await complete("i")).toEqual(["install vscode"]);
		expect(await complete("s")).toEqual(["status", "suggestions on", "suggestions off"]);
		expect(await complete("su")).toEqual(["suggestions on", "suggestions off"]);
		expect(await complete("o")).toEqual(["off"]);
		expect(await complete("x")).toBeNull();
	});
});
