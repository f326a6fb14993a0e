import type { Editor } from "../../editors/core/editor.ts";
import type { EditorState } from "../../editors/core/protocol-state.ts";
import { clip, editorLabel, formatAgo, sanitizeForDisplay } from "../../shared/core/display-text.ts";

export const DISCONNECT_VALUE = "disconnect";
const MAX_LAUNCH_CHARS = 60;
const MAX_NAME_CHARS = 40;

export interface PickerRow {
	value: string;
	label: string;
	description: string;
}

/** What a picker row shows of an editor. */
type PickerEditor = Pick<Editor, "key" | "pid" | "state" | "hidden" | "ideServer" | "byHand" | "enclosing" | "name">;

/** How a row says it is an IDE server: pi connects to it when it is picked, not before. */
function serverNote(editor: PickerEditor): string {
	if (!editor.ideServer) return "";
	return editor.ideServer.connected ? "  (IDE server)" : "  (IDE server: connects when picked)";
}

/** How the editor was launched: its args tell same-cwd instances apart; without args, its cwd. */
export function launchText(state: EditorState): string {
	const args = state.argv?.slice(0, 16).map((arg) => sanitizeForDisplay(arg)) ?? [];
	const text = args.length > 0 ? args.join(" ") : sanitizeForDisplay(state.cwd);
	return clip(text, MAX_LAUNCH_CHARS);
}

/**
 * Rows for `/ide`, newest write first (touch the editor you mean, then take the top row). The connected
 * editor is marked; a Disconnect row closes the list while connected.
 */
export function pickerRows(
	editors: readonly PickerEditor[],
	connectedKey: string | undefined,
	nowSeconds: number,
): PickerRow[] {
	const rows = [...editors]
		// The editor pi runs in first (its terminal says so), then newest write first.
		.sort(
			(a, b) =>
				Number(b.enclosing ?? false) - Number(a.enclosing ?? false) ||
				b.state.timestamp - a.state.timestamp ||
				a.pid - b.pid ||
				a.key.localeCompare(b.key),
		)
		.map((editor) => {
			const buffer = editor.state.active_buffer;
			const name = buffer?.file
				? clip(sanitizeForDisplay(buffer.name), MAX_NAME_CHARS) || "untitled"
				: editor.ideServer && !editor.ideServer.connected
					? "file shown once connected"
					: "no file";
			const connected = editor.key === connectedKey;
			const marker = connected ? "* " : "  ";
			const suffix = `${editor.hidden ? "  (hidden in its window)" : ""}${serverNote(editor)}${connected ? "  (connected)" : ""}`;
			return {
				value: editor.key,
				label: `${marker}${editorLabel(editor)}  ${launchText(editor.state)}`,
				description: `${name}, active ${formatAgo(nowSeconds - editor.state.timestamp)}${suffix}`,
			};
		});
	if (connectedKey !== undefined)
		rows.push({ value: DISCONNECT_VALUE, label: "  Disconnect", description: "stop sending editor context" });
	return rows;
}

/** `ctx.ui.select` takes plain strings: label and description on one line, unique through the pid. */
export function pickerRowText(row: PickerRow): string {
	return `${row.label.trim()} - ${row.description}`;
}
