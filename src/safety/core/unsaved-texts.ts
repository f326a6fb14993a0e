/** The tools that overwrite a file; `bash` can too, and the README says the guard does not see it. */
export const FILE_WRITING_TOOLS: ReadonlySet<string> = new Set(["write", "edit"]);

/** What the model reads when its write is blocked: why, and what to do. */
export function unsavedBlockReason(file: string): string {
	return `Blocked: the user's editor has unsaved changes to ${file}. Writing the file now would overwrite or conflict with them. Ask the user to save or discard the changes in the editor, then try again.`;
}

/** What the user sees. */
export function unsavedBlockNotice(name: string, tool: string): string {
	return `pi-ide: blocked the model's ${tool} of ${name}: your editor has unsaved changes to it (save or discard them, then let it retry)`;
}
