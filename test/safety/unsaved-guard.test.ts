import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ExtensionContext, ToolCallEvent } from "@mariozechner/pi-coding-agent";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import type { UnsavedBuffer } from "../../src/safety/core/unsaved-buffers.ts";
import { guardUnsavedWrite } from "../../src/safety/unsaved-guard.ts";
import { tempDir } from "../support/temp-dir.ts";

let root: string;
let cleanup: () => void;
beforeEach(() => {
	({ path: root, cleanup } = tempDir("guard"));
	mkdirSync(join(root, "src"));
	writeFileSync(join(root, "src", "main.ts"), "saved\n");
	writeFileSync(join(root, "src", "other.ts"), "saved\n");
	symlinkSync(join(root, "src", "main.ts"), join(root, "alias.ts"));
});
afterEach(() => cleanup());

/** A tool call; `ROOT` in a path stands for the test's temp dir, made only when the test runs. */
const call = (toolName: string, path: unknown) => ({ toolName, path });
const event = ({ toolName, path }: ReturnType<typeof call>) =>
	({
		toolName,
		input: { path: typeof path === "string" ? path.replace("ROOT", root) : path },
	}) as unknown as ToolCallEvent;

function context() {
	const notices: string[] = [];
	const ctx = { cwd: root, hasUI: true, ui: { notify: (message: string) => notices.push(message) } };
	return { ctx: ctx as unknown as ExtensionContext, notices };
}

describe("a write or edit of a file with unsaved changes is blocked", () => {
	const unsaved = (): UnsavedBuffer[] => [{ file: join(root, "src", "main.ts"), name: "main.ts" }];

	test.each([
		["write, by a path relative to pi's cwd", call("write", "src/main.ts")],
		["edit, by an absolute path", call("edit", "ROOT/src/main.ts")],
		["write through a symlink to it", call("write", "alias.ts")],
		["write by a path with ./ and ..", call("write", "./src/../src/main.ts")],
	])("%s", async (_name, toolCall) => {
		const { ctx, notices } = context();
		const result = await guardUnsavedWrite(event(toolCall), ctx, async () => unsaved());
		expect(result).toEqual({
			block: true,
			reason: `Blocked: the user's editor has unsaved changes to ${join(root, "src", "main.ts")}. Writing the file now would overwrite or conflict with them. Ask the user to save or discard the changes in the editor, then try again.`,
		});
		expect(notices).toEqual([
			`pi-ide: blocked the model's ${toolCall.toolName} of main.ts: your editor has unsaved changes to it (save or discard them, then let it retry)`,
		]);
	});

	test.each([
		["another file", call("write", "src/other.ts")],
		["a tool that writes nothing", call("read", "src/main.ts")],
		["no path", call("write", undefined)],
		["an empty path", call("write", "")],
	])("%s passes", async (_name, toolCall) => {
		const { ctx, notices } = context();
		expect(await guardUnsavedWrite(event(toolCall), ctx, async () => unsaved())).toBeUndefined();
		expect(notices).toEqual([]);
	});

	test("nothing unsaved: the editor's list is asked, no path is resolved", async () => {
		let asked = 0;
		const { ctx } = context();
		const result = await guardUnsavedWrite(event(call("write", "src/main.ts")), ctx, async () => {
			asked++;
			return [];
		});
		expect(result).toBeUndefined();
		expect(asked).toBe(1);
	});

	test("a tool that writes nothing never waits for the editor", async () => {
		const { ctx } = context();
		const result = await guardUnsavedWrite(event(call("bash", "src/main.ts")), ctx, () => {
			throw new Error("asked the editor for a bash call");
		});
		expect(result).toBeUndefined();
	});
});
