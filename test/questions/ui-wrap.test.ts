import type { ExtensionUIContext } from "@mariozechner/pi-coding-agent";
import { describe, expect, test } from "vitest";
import type { AskingEditor } from "../../src/editors/editor-asks.ts";
import { QuestionMirror } from "../../src/questions/question-mirror.ts";
import { unmirrored, wrapUi } from "../../src/questions/ui-wrap.ts";
import { fakeEditor } from "../asks/ask-rig.ts";
import { waitFor } from "../support/wait-for.ts";

/** One open dialog of the fake pi: its arguments, its signal, and how the test answers it. */
interface Dialog {
	method: string;
	args: unknown[];
	signal?: AbortSignal;
	answer(value: unknown): void;
}

/**
 * pi's `ctx.ui` as the wrap sees it: each dialog stays open until the test answers it, or its signal (pi's
 * own abort handling, as both lines do it) ends it with the dialog's default.
 */
function fakeUi() {
	const dialogs: Dialog[] = [];
	const open =
		(method: string, fallback: unknown) =>
		(...args: unknown[]) =>
			new Promise((resolve) => {
				const options = args.find((arg) => typeof arg === "object" && arg !== null && "signal" in arg) as
					| { signal?: AbortSignal }
					| undefined;
				const signal = options?.signal;
				signal?.addEventListener("abort", () => resolve(fallback), { once: true });
				dialogs.push({ method, args, ...(signal && { signal }), answer: resolve });
			});
	// pi makes a custom dialog's component at once, handing it `done`; the dialog ends when it is called.
	const custom = (factory: (...made: unknown[]) => unknown, options?: unknown) =>
		new Promise((resolve) => {
			void Promise.resolve(factory({}, {}, {}, resolve));
			dialogs.push({ method: "custom", args: [factory, options], answer: resolve });
		});
	const ui = {
		select: open("select", undefined),
		confirm: open("confirm", false),
		input: open("input", undefined),
		editor: open("editor", undefined),
		custom,
		notify: () => {},
	} as unknown as ExtensionUIContext;
	return { ui, dialogs };
}

function rig(options: { on?: boolean; editors?: AskingEditor[] } = {}) {
	const editor = fakeEditor(42);
	const run = { editors: options.editors ?? [editor] };
	let ids = 0;
	const mirror = new QuestionMirror({
		on: () => options.on ?? true,
		runEditors: () => run.editors,
		nextId: () => ++ids,
	});
	const pi = fakeUi();
	const originals = { ...pi.ui };
	const unwrap = wrapUi(pi.ui, mirror);
	return { editor, run, mirror, ...pi, originals, unwrap };
}

const lastDialog = (dialogs: Dialog[]) => waitFor("pi's dialog", () => dialogs.at(-1));

describe("ctx.ui wrapped: a run an editor asked shows pi's dialogs there too", () => {
	test("a run typed into pi (no editor): every call goes straight to pi's own, with its own arguments", async () => {
		const { ui, dialogs, run, editor } = rig();
		run.editors = [];
		const picked = ui.select("Pick", ["a", "b"]);
		const dialog = await lastDialog(dialogs);
		expect(dialog.args).toEqual(["Pick", ["a", "b"]]);
		dialog.answer("b");
		expect(await picked).toBe("b");
		expect(editor.told).toEqual([]);
	});

	test("select: the editor's choice wins; pi's dialog is withdrawn", async () => {
		const { ui, dialogs, mirror, editor } = rig();
		const picked = ui.select("Pick", ["a", "b"]);
		const dialog = await lastDialog(dialogs);
		expect(editor.told).toEqual([{ kind: "question", id: 1, title: "Pick", choices: ["a", "b"] }]);
		mirror.replied(editor, { id: 1, choice: 2 });
		expect(await picked).toBe("b");
		expect(dialog.signal?.aborted).toBe(true);
		expect(editor.told.at(-1)).toEqual({ kind: "questionClosed", id: 1 });
	});

	test("custom: the notice carries the lines pi's component draws (terminal-safe); Esc from the editor goes to it", async () => {
		const { ui, mirror, editor } = rig();
		const keys: string[] = [];
		const answer = ui.custom<string | undefined>((_tui, _theme, _keys, done) => ({
			render: (width: number) => [`\u001b[1mPick a colour\u001b[0m (${width} columns)`, "  red\u0007", "  blue   "],
			handleInput: (key: string) => {
				keys.push(key);
				if (key === "\u001b") done(undefined);
			},
			invalidate: () => {},
		}));
		await waitFor("the notice", () => editor.told.length === 1);
		expect(editor.told).toEqual([
			{
				kind: "notice",
				id: 1,
				text: "pi asks in its terminal",
				lines: ["Pick a colour (80 columns)", "  red", "  blue"],
			},
		]);
		// Only Esc reaches the component, and only for the question the editor shows.
		mirror.keyed(editor, { id: 1, key: "j" });
		mirror.keyed(editor, { id: 2, key: "\u001b" });
		expect(keys).toEqual([]);
		mirror.keyed(editor, { id: 1, key: "\u001b" });
		expect(await answer).toBeUndefined();
		expect(keys).toEqual(["\u001b"]);
		expect(editor.told.at(-1)).toEqual({ kind: "questionClosed", id: 1 });
	});

	test("confirm: answered in pi first, the editor's copy closes", async () => {
		const { ui, dialogs, editor } = rig();
		const allowed = ui.confirm("Allow bash?", "rm -rf build");
		const dialog = await lastDialog(dialogs);
		expect(editor.told[0]).toEqual({
			kind: "question",
			id: 1,
			title: "Allow bash?\nrm -rf build",
			choices: ["Yes", "No"],
			confirm: true,
		});
		dialog.answer(true);
		expect(await allowed).toBe(true);
		expect(editor.told.at(-1)).toEqual({ kind: "questionClosed", id: 1 });
	});

	test.each([
		[1, true],
		[2, false],
	])("confirm: choice %s in the editor → %s", async (choice, expected) => {
		const { ui, dialogs, mirror, editor } = rig();
		const allowed = ui.confirm("Allow bash?", "");
		await lastDialog(dialogs);
		mirror.replied(editor, { id: 1, choice });
		expect(await allowed).toBe(expected);
	});

	test("a dismissal closes only the editor's copy: pi's dialog stays and decides", async () => {
		const { ui, dialogs, mirror, editor } = rig();
		const allowed = ui.confirm("Allow bash?", "");
		const dialog = await lastDialog(dialogs);
		mirror.replied(editor, { id: 1 });
		expect(editor.told.at(-1)).toEqual({ kind: "questionClosed", id: 1 });
		expect(dialog.signal?.aborted).toBe(false);
		mirror.replied(editor, { id: 1, choice: 1 });
		dialog.answer(false);
		expect(await allowed).toBe(false);
	});

	test.each([
		["a choice past the list", { id: 1, choice: 3 }],
		["another question's id", { id: 7, choice: 1 }],
	])("%s decides nothing", async (_name, reply) => {
		const { ui, dialogs, mirror, editor } = rig();
		const picked = ui.select("Pick", ["a", "b"]);
		const dialog = await lastDialog(dialogs);
		mirror.replied(editor, reply);
		dialog.answer("a");
		expect(await picked).toBe("a");
	});

	test("the caller's own signal withdraws both", async () => {
		const { ui, dialogs, editor } = rig();
		const caller = new AbortController();
		const picked = ui.select("Pick", ["a"], { signal: caller.signal });
		await lastDialog(dialogs);
		caller.abort();
		expect(await picked).toBeUndefined();
		expect(editor.told.at(-1)).toEqual({ kind: "questionClosed", id: 1 });
	});

	test.each([
		["input", (ui: ExtensionUIContext) => ui.input("Your name?", "a name"), "pi asks in its terminal: Your name?"],
		[
			"editor",
			(ui: ExtensionUIContext) => ui.editor("Edit the message", "text"),
			"pi asks in its terminal: Edit the message",
		],
		[
			"custom",
			(ui: ExtensionUIContext) => ui.custom(() => ({ render: () => [], invalidate: () => {} })),
			"pi asks in its terminal",
		],
	])("%s: a notice in the editor while pi's dialog is open", async (_name, call, text) => {
		const { ui, dialogs, editor } = rig();
		const answer = call(ui);
		const dialog = await lastDialog(dialogs);
		expect(editor.told).toEqual([{ kind: "notice", id: 1, text }]);
		dialog.answer("x");
		expect(await answer).toBe("x");
		expect(editor.told.at(-1)).toEqual({ kind: "questionClosed", id: 1 });
	});

	test("two questions at once: one at a time in the editor, in order", async () => {
		const { ui, dialogs, mirror, editor } = rig();
		const first = ui.confirm("Allow a?", "");
		const second = ui.confirm("Allow b?", "");
		await waitFor("both dialogs in pi", () => dialogs.length === 2);
		expect(editor.told).toEqual([
			{ kind: "question", id: 1, title: "Allow a?", choices: ["Yes", "No"], confirm: true },
		]);
		mirror.replied(editor, { id: 2, choice: 1 });
		mirror.replied(editor, { id: 1, choice: 1 });
		expect(await first).toBe(true);
		expect(editor.told.slice(1)).toEqual([
			{ kind: "questionClosed", id: 1 },
			{ kind: "question", id: 2, title: "Allow b?", choices: ["Yes", "No"], confirm: true },
		]);
		mirror.replied(editor, { id: 2, choice: 2 });
		expect(await second).toBe(false);
	});

	test("a Neovim that runs pi-bridge.nvim gets a question through the plugin when the plugin asked too: one copy", async () => {
		const plugin = { ...fakeEditor(1, "Neovim (pi-bridge)"), key: "pi-bridge:1", piBridge: "plugin" as const };
		const host = { ...fakeEditor(2), piBridge: "host" as const };
		const other = fakeEditor(3);
		const { ui, run } = rig({ editors: [plugin, host, other] });
		void ui.confirm("Allow a?", "");
		await waitFor("the plugin's copy", () => plugin.told.length === 1);
		expect(other.told).toHaveLength(1);
		expect(host.told).toEqual([]);
		// Without the plugin in the run, that Neovim shows pi's questions itself.
		run.editors = [host];
		void ui.confirm("Allow b?", "");
		await waitFor("the Neovim's own copy", () => host.told.length === 1);
	});

	test("an editor gone: its copy goes, it holds no question up, the others keep theirs", async () => {
		const first = fakeEditor(1);
		const second = fakeEditor(2);
		const { ui, mirror } = rig({ editors: [first, second] });
		const asked = ui.confirm("Allow a?", "");
		await waitFor("both copies", () => first.told.length === 1 && second.told.length === 1);
		mirror.gone(first.key);
		mirror.replied(first, { id: 1, choice: 1 });
		expect(first.told).toHaveLength(1);
		mirror.replied(second, { id: 1, choice: 2 });
		expect(await asked).toBe(false);
		expect(second.told.at(-1)).toEqual({ kind: "questionClosed", id: 1 });
		expect(first.told).toHaveLength(1);
	});

	test("an editor that cannot show questions, or mirroring off: pi's own dialog only", async () => {
		const old = { ...fakeEditor(7, "VS Code 7"), noQuestions: "VS Code client 0.6.0" };
		for (const setup of [rig({ editors: [old] }), rig({ on: false })]) {
			const allowed = setup.ui.confirm("Allow?", "");
			(await lastDialog(setup.dialogs)).answer(true);
			expect(await allowed).toBe(true);
			expect(setup.editor.told).toEqual([]);
		}
		expect(
			rig({ editors: [old] })
				.mirror.statusLines()
				.at(-1),
		).toBe("  VS Code 7: questions stay in pi (VS Code client 0.6.0)");
	});
});

describe("the wrap's life", () => {
	test("wrapped twice (a second session, /reload before an unwrap): one layer, the newer mirror", async () => {
		const { ui, dialogs, editor, originals } = rig();
		const newer = fakeEditor(43);
		const mirror2 = new QuestionMirror({ on: () => true, runEditors: () => [newer], nextId: () => 1 });
		wrapUi(ui, mirror2);
		const allowed = ui.confirm("Allow?", "");
		const dialog = await lastDialog(dialogs);
		expect(editor.told).toEqual([]);
		expect(newer.told).toHaveLength(1);
		dialog.answer(true);
		await allowed;
		expect(dialogs).toHaveLength(1);
		expect(ui.confirm).not.toBe(originals.confirm);
	});

	test("a dialog that throws at once: the editor's copy closes with it", async () => {
		const { ui, editor } = rig();
		const slotted = ui as unknown as Record<symbol, { before: { select: unknown } }>;
		const slot = slotted[Symbol.for("pi-ide-context.questions.wrap")];
		if (slot)
			slot.before.select = () => {
				throw new Error("no dialog here");
			};
		await expect(ui.select("Pick", ["a"])).rejects.toThrow("no dialog here");
		expect(editor.told.at(-1)).toEqual({ kind: "questionClosed", id: 1 });
	});

	test("an extension's unwrap put back the functions from before ours: the next wrap installs itself again", async () => {
		const { ui, dialogs, originals } = rig();
		Object.assign(ui, originals);
		const later = fakeEditor(44);
		wrapUi(ui, new QuestionMirror({ on: () => true, runEditors: () => [later], nextId: () => 7 }));
		expect(ui.confirm).not.toBe(originals.confirm);
		const allowed = ui.confirm("Allow?", "");
		(await lastDialog(dialogs)).answer(true);
		expect(await allowed).toBe(true);
		expect(later.told[0]).toMatchObject({ kind: "question", id: 7 });
	});

	test("unwrapped: pi's own functions are back", () => {
		const { ui, originals, unwrap } = rig();
		unwrap();
		for (const name of ["select", "confirm", "input", "editor", "custom"] as const)
			expect(ui[name]).toBe(originals[name]);
	});

	test("another extension wrapped after us: unwrapping keeps theirs, ours passes straight through", async () => {
		const { ui, dialogs, editor, unwrap } = rig();
		const ours = ui.confirm;
		const theirs = (title: string, message: string) => ours(`[theirs] ${title}`, message);
		ui.confirm = theirs;
		unwrap();
		expect(ui.confirm).toBe(theirs);
		const allowed = ui.confirm("Allow?", "");
		(await lastDialog(dialogs)).answer(true);
		expect(await allowed).toBe(true);
		expect(dialogs[0]?.args[0]).toBe("[theirs] Allow?");
		expect(editor.told).toEqual([]);
	});

	test("unmirrored: select and custom as before the wrap (the review mirrors its own choices); input stays wrapped", async () => {
		const { ui, dialogs, editor } = rig();
		const own = unmirrored(ui);
		const picked = own.select("Review", ["Accept", "Reject"]);
		(await lastDialog(dialogs)).answer("Accept");
		expect(await picked).toBe("Accept");
		const custom = own.custom(() => ({ render: () => [], invalidate: () => {} }));
		(await lastDialog(dialogs)).answer("done");
		expect(await custom).toBe("done");
		expect(editor.told).toEqual([]);
		const why = own.input("Why?");
		(await lastDialog(dialogs)).answer("because");
		expect(await why).toBe("because");
		expect(editor.told[0]).toEqual({ kind: "notice", id: 1, text: "pi asks in its terminal: Why?" });
	});
});
