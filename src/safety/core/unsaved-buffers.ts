import { absoluteFile } from "../../editors/core/active-buffer.ts";
import type { EditorState } from "../../editors/core/protocol-state.ts";

/** A file the editor holds with unsaved changes, as the guard compares and names it. */
export interface UnsavedBuffer {
	/** Absolute path as the editor reports it. */
	file: string;
	/** Its real path when the source already resolved it (the active file): one realpath fewer per tool call. */
	realFile?: string;
	/** How the notice names it: the buffer's name for the active file, else the path. */
	name: string;
}

/** The active file when modified, then every other file the editor says is unsaved (Zed tells each tab's). */
export function unsavedBuffers(
	state: EditorState,
	activeRealFile: string | undefined,
	otherUnsaved: readonly string[] | undefined,
): UnsavedBuffer[] {
	const active = state.active_buffer?.modified === true ? absoluteFile(state) : undefined;
	const first =
		active === undefined
			? []
			: [
					{
						file: active,
						name: state.active_buffer?.name || active,
						...(activeRealFile && { realFile: activeRealFile }),
					},
				];
	// A source's whole list may name the active file too: it counts once, by its own `modified` flag.
	const others = (otherUnsaved ?? []).filter((file) => file !== absoluteFile(state));
	return [...first, ...others.map((file) => ({ file, name: file }))];
}

/**
 * The editor's whole unsaved list, asked just now (a Neovim at a tool call): it decides for the active file
 * too, over the modified flag pushed a moment ago.
 */
export function unsavedFromWholeList(
	state: EditorState,
	activeRealFile: string | undefined,
	wholeList: readonly string[],
): UnsavedBuffer[] {
	const active = absoluteFile(state);
	const activeUnsaved = active !== undefined && wholeList.includes(active);
	const buffer = state.active_buffer && { ...state.active_buffer, modified: activeUnsaved };
	return unsavedBuffers({ ...state, active_buffer: buffer }, activeRealFile, wholeList);
}
