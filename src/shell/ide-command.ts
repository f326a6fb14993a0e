import type { ExtensionCommandContext } from "@mariozechner/pi-coding-agent";
import { Container, type SelectItem, SelectList, Text } from "@mariozechner/pi-tui";
import { DISCONNECT_VALUE, type PickerRow, pickerRows, pickerRowText } from "../core/picker-rows.ts";
import { formatNoMatch } from "../core/status-report.ts";
import type { IdeController } from "./ide-controller.ts";

export const IDE_SUBCOMMANDS = [
	{ value: "status", label: "status", description: "state dir, every state file and its verdict, the connection" },
	{ value: "all", label: "all", description: "pick from every live editor, whatever its project" },
	{ value: "off", label: "off", description: "disconnect and pause auto-connect until you pick again" },
] as const;

const MAX_VISIBLE_ROWS = 10;

/** `/ide [status|all|off]`. */
export async function runIdeCommand(
	args: string,
	ctx: ExtensionCommandContext,
	controller: IdeController,
): Promise<void> {
	const sub = args.trim();
	if (sub === "status") return ctx.ui.notify(controller.statusText(), "info");
	if (sub === "off") {
		controller.disconnect(true);
		return ctx.ui.notify("pi-ide: disconnected; auto-connect paused until you pick an editor with /ide", "info");
	}
	if (sub !== "" && sub !== "all")
		return ctx.ui.notify(
			`pi-ide: unknown argument "${sub.slice(0, 40)}"; use /ide, /ide all, /ide off or /ide status`,
			"warning",
		);

	const problem = controller.trustProblem;
	if (problem) return ctx.ui.notify(`pi-ide: not reading editor state: ${problem}`, "warning");
	const all = sub === "all";
	const editors = controller.pickable(all);
	if (editors.length === 0) {
		const elsewhere = controller.liveEditors();
		return ctx.ui.notify(formatNoMatch(controller.project, controller.stateDirPath, elsewhere), "info");
	}
	const connectedPid = controller.connectedEditor()?.pid;
	const rows = pickerRows(editors, connectedPid, Date.now() / 1000);
	const picked = await choose(
		ctx,
		all ? "Connect pi to an editor (all projects)" : "Connect pi to an editor",
		rows,
		connectedPid,
	);
	if (picked === undefined) return;
	if (picked === DISCONNECT_VALUE) {
		controller.disconnect(true);
		return ctx.ui.notify("pi-ide: disconnected; auto-connect paused until you pick an editor with /ide", "info");
	}
	const editor = controller.liveEditors().find((candidate) => String(candidate.pid) === picked);
	if (!editor) return ctx.ui.notify("pi-ide: that editor is gone", "warning");
	controller.connect(editor, all ? "picked with /ide all" : "picked with /ide");
	ctx.ui.notify(`pi-ide: connected to ${rows.find((row) => row.value === picked)?.label.trim()}`, "info");
}

/** The TUI gets a SelectList with the connected row pre-selected; RPC (no `custom`) falls back to `select`. */
async function choose(
	ctx: ExtensionCommandContext,
	title: string,
	rows: PickerRow[],
	connectedPid: number | undefined,
): Promise<string | undefined> {
	if (!ctx.hasUI) return undefined;
	const initial = Math.max(
		0,
		rows.findIndex((row) => row.value === String(connectedPid)),
	);
	const fromList = await ctx.ui.custom<string | null>((tui, theme, _keybindings, done) => {
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
	const chosen = await ctx.ui.select(title, texts);
	return chosen === undefined ? undefined : rows[texts.indexOf(chosen)]?.value;
}
