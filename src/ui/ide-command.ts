import type { ExtensionCommandContext } from "@mariozechner/pi-coding-agent";
import { Container, type SelectItem, SelectList, Text } from "@mariozechner/pi-tui";
import { connectReason } from "../connection/core/rules.ts";
import type { Editor } from "../editors/core/editor.ts";
import { unmirrored } from "../questions/ui-wrap.ts";
import { editorLabel } from "../shared/core/display-text.ts";
import { noticeText } from "../shared/core/notice-texts.ts";
import { DISCONNECT_VALUE, type PickerRow, pickerRows, pickerRowText } from "./core/picker-rows.ts";

export const IDE_SUBCOMMANDS = [
	{
		value: "status",
		label: "status",
		description: "where pi looks and why, every state file and its verdict, recent events",
	},
	{ value: "all", label: "all", description: "pick from every live editor, whatever its project" },
	{ value: "off", label: "off", description: "disconnect and pause auto-connect until you pick again" },
	{ value: "install vscode", label: "install vscode", description: "install the VS Code client this package ships" },
	{ value: "review on", label: "review on", description: "show the model's edits as a diff to accept or reject first" },
	{
		value: "review off",
		label: "review off",
		description: "let the model's edits land without review (this pi process)",
	},
	{
		value: "suggestions on",
		label: "suggestions on",
		description: "answer every editor's inline-suggestion requests with a model (this pi process)",
	},
	{
		value: "suggestions off",
		label: "suggestions off",
		description: "answer no editor's inline-suggestion request; no model is called (this pi process)",
	},
] as const;

const MAX_VISIBLE_ROWS = 10;

/** What `/ide` asks of the connection (the controller's methods, handed over one by one). */
export interface IdeCommandConnection {
	statusText: () => string;
	/** The live editors `/ide` offers: the best tier only, or all of them for `/ide all`. */
	pickable: (all: boolean) => Editor[];
	liveEditors: () => Editor[];
	connectedKey: () => string | undefined;
	connect: (editor: Editor, why: string) => void;
	disconnect: (options: { pauseAutoConnect: boolean }) => void;
	noMatchText: () => string;
	nowSeconds: () => number;
	/** Every source looks again before the picker lists editors. */
	lookAgain: () => Promise<void>;
	/** `/ide install vscode`: what was done, as one notice. */
	installVscodeClient: () => Promise<string>;
	/** `/ide review on|off`, for this pi process: what is now true, as one notice. */
	setReview: (on: boolean) => string;
	/** `/ide suggestions on|off`, for this pi process: what is now true, as one notice. */
	setSuggestions: (on: boolean) => string;
}

/** `/ide [status|all|off|install vscode|review on|off|suggestions on|off]`. */
export async function runIdeCommand(
	args: string,
	ctx: ExtensionCommandContext,
	connection: IdeCommandConnection,
): Promise<void> {
	const sub = args.trim();
	if (sub === "status") return ctx.ui.notify(connection.statusText(), "info");
	if (sub === "install vscode") return ctx.ui.notify(await connection.installVscodeClient(), "info");
	if (sub === "review on" || sub === "review off")
		return ctx.ui.notify(connection.setReview(sub === "review on"), "info");
	if (sub === "suggestions on" || sub === "suggestions off")
		return ctx.ui.notify(connection.setSuggestions(sub === "suggestions on"), "info");
	if (sub === "off") {
		connection.disconnect({ pauseAutoConnect: true });
		return ctx.ui.notify(noticeText.paused, "info");
	}
	if (sub !== "" && sub !== "all") return ctx.ui.notify(noticeText.unknownArgument(sub), "warning");

	const all = sub === "all";
	await connection.lookAgain();
	const editors = connection.pickable(all);
	if (editors.length === 0) return ctx.ui.notify(connection.noMatchText(), "info");
	const connectedKey = connection.connectedKey();
	const rows = pickerRows(editors, connectedKey, connection.nowSeconds());
	const picked = await choose(
		ctx,
		all ? "Connect pi to an editor (all projects)" : "Connect pi to an editor",
		rows,
		connectedKey,
	);
	if (picked === undefined) return;
	if (picked === DISCONNECT_VALUE) {
		connection.disconnect({ pauseAutoConnect: true });
		return ctx.ui.notify(noticeText.paused, "info");
	}
	const editor = connection.liveEditors().find((candidate) => candidate.key === picked);
	if (!editor) return ctx.ui.notify(noticeText.editorGone, "warning");
	connection.connect(editor, connectReason.picked(all));
	ctx.ui.notify(
		noticeText.connected(rows.find((row) => row.value === picked)?.label.trim() ?? editorLabel(editor)),
		"info",
	);
}

/** The TUI gets a SelectList with the connected row pre-selected; RPC (no `custom`) falls back to `select`. */
async function choose(
	ctx: ExtensionCommandContext,
	title: string,
	rows: PickerRow[],
	connectedKey: string | undefined,
): Promise<string | undefined> {
	if (!ctx.hasUI) return undefined;
	const initial = Math.max(
		0,
		rows.findIndex((row) => row.value === connectedKey),
	);
	// Typed into pi: the picker is never mirrored to an editor, even during a run an editor asked.
	const ui = unmirrored(ctx.ui);
	const fromList = await ui.custom<string | null>((tui, theme, _keybindings, done) => {
		const items: SelectItem[] = rows;
		const list = new SelectList(items, Math.min(items.length, MAX_VISIBLE_ROWS), {
			selectedPrefix: (text) => theme.fg("accent", text),
			selectedText: (text) => theme.fg("accent", text),
			description: (text) => theme.fg("muted", text),
			scrollInfo: (text) => theme.fg("dim", text),
			noMatch: (text) => theme.fg("warning", text),
		});
		list.setSelectedIndex(initial);
		list.onSelect = (item) => done(item.value);
		list.onCancel = () => done(null);
		const container = new Container();
		container.addChild(new Text(theme.fg("accent", theme.bold(title)), 1, 0));
		container.addChild(list);
		container.addChild(new Text(theme.fg("dim", "up/down move, enter connect, esc cancel"), 1, 0));
		return {
			render: (width: number) => container.render(width),
			invalidate: () => container.invalidate(),
			handleInput: (data: string) => {
				list.handleInput(data);
				tui.requestRender();
			},
		};
	});
	if (fromList !== undefined) return fromList ?? undefined;
	const texts = rows.map(pickerRowText);
	const chosen = await ui.select(title, texts);
	return chosen === undefined ? undefined : rows[texts.indexOf(chosen)]?.value;
}
