import { existsSync, readFileSync } from "node:fs";
import { basename, extname, isAbsolute, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { FlavourCapabilities } from "./ide-server-flavours.ts";

/**
 * What a fake IDE server answers from, and what it pushes: the editor's state turned into each flavour's
 * tool results and notification payloads (reference §3, §4, §8). Pure of sockets, so the shapes read in one place.
 */

export interface Position {
	line: number;
	character: number;
}

export interface FakeDiagnostic {
	message: string;
	severity: "error" | "warning" | "info" | "hint";
	/** 0-based. */
	line: number;
	/** 0-based. */
	character: number;
	source?: string;
}

export interface FakeEditorState {
	/** The active file, absolute. */
	file?: string;
	/** The active file's text, for line counts. */
	text?: string;
	/** 0-based always in this API; converted per flavour on the wire. No selection: the cursor at 0:0. */
	selection?: { start: Position; end: Position };
	selectedText?: string;
	/** Absolute paths of dirty documents (open, as the active file is). */
	dirty?: readonly string[];
	/** Keyed by absolute path. */
	diagnostics?: Record<string, FakeDiagnostic[]>;
	languageId?: string;
}

/** What the tools answer from besides the editor's state. */
export interface ToolContext {
	capabilities: FlavourCapabilities;
	state: FakeEditorState;
	workspaceFolders: readonly string[];
	/** The last selection_changed payload, for getLatestSelection. */
	latestSelection: object | undefined;
	/** Tab names of diffs opened and not closed yet, for closeAllDiffTabs' count. */
	openDiffs: Set<string>;
	/** How a user answers every openDiff. */
	diffOutcome: "FILE_SAVED" | "DIFF_REJECTED";
	/** What the user leaves in the proposed side before saving: the proposal itself by default. */
	diffText?: (proposed: string) => string;
}

export type ToolOutcome = { result: unknown } | { error: { code: number; message: string } };

const text = (...texts: string[]): ToolOutcome => ({
	result: { content: texts.map((value) => ({ type: "text", text: value })) },
});
const json = (value: unknown): ToolOutcome => text(JSON.stringify(value));
const error = (code: number, message: string): ToolOutcome => ({ error: { code, message } });

const CURSOR_AT_START = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };

/** The `selection_changed` payload for the state, in the flavour's shape; undefined without an active file. */
export function selectionPayload(capabilities: FlavourCapabilities, state: FakeEditorState): object | undefined {
	if (state.file === undefined) return undefined;
	const { start, end } = state.selection ?? CURSOR_AT_START;
	const shift = capabilities.positions === "1-based" ? 1 : 0;
	const selection = {
		start: { line: start.line + shift, character: start.character + shift },
		end: { line: end.line + shift, character: end.character + shift },
		isEmpty: start.line === end.line && start.character === end.character,
	};
	const selected = state.selectedText ?? "";
	if (capabilities.selectionShape === "jetbrains") return { selection, text: selected, filePath: state.file };
	if (capabilities.selectionShape === "no-fileUrl") return { text: selected, filePath: state.file, selection };
	return { text: selected, filePath: state.file, fileUrl: fileUrl(state.file), selection };
}

/** The `at_mentioned` payload: lines 0-based in, per the flavour's counting out; none for an empty selection. */
export function mentionPayload(
	capabilities: FlavourCapabilities,
	filePath: string,
	lines: { start: number; end: number } | undefined,
): object {
	const shift = capabilities.positions === "1-based" ? 1 : 0;
	return { filePath, ...(lines && { lineStart: lines.start + shift, lineEnd: lines.end + shift }) };
}

/** The answer to `tools/call name(args)`; a name the flavour does not serve is a JSON-RPC -32601. */
export function toolAnswer(context: ToolContext, name: string, args: Record<string, unknown>): ToolOutcome {
	const { capabilities, state } = context;
	if (!capabilities.tools.includes(name) && !capabilities.unlistedTools.includes(name))
		return error(-32601, `Tool not found: ${name}`);
	const pathArg = (key: string) => resolvePath(context, typeof args[key] === "string" ? args[key] : "");
	switch (name) {
		case "getCurrentSelection": {
			const payload = selectionPayload(capabilities, state);
			return json(payload ? { success: true, ...payload } : { success: false, message: "No active editor found" });
		}
		case "getLatestSelection":
			// §8: the payload itself, without `success`.
			return json(context.latestSelection ?? { success: false, message: "No selection available" });
		case "getOpenEditors":
			return json({ tabs: openTabs(state).map((file) => editorTab(state, file)) });
		// Its result shape is not in the reference (§6 names the tool only): the getOpenEditors tabs stand in.
		case "getOpenEditorTabs":
			return json({ tabs: openTabs(state).map((file) => editorTab(state, file)) });
		case "get_all_opened_file_paths":
			return text(openTabs(state).join("\n"));
		case "getWorkspaceFolders":
			return json({
				success: true,
				folders: context.workspaceFolders.map((path, index) => ({
					name: basename(path),
					uri: fileUrl(path),
					path,
					index,
				})),
				rootPath: context.workspaceFolders[0],
			});
		case "checkDocumentDirty": {
			const filePath = pathArg("filePath");
			if (!openTabs(state).includes(filePath)) return text(`Document not open: ${filePath}`);
			return json({ success: true, filePath, isDirty: isDirty(state, filePath), isUntitled: false });
		}
		// The fake's state changes only through setEditor, so the document stays dirty in it.
		case "saveDocument": {
			const filePath = pathArg("filePath");
			if (!openTabs(state).includes(filePath)) return text(`Document not open: ${filePath}`);
			return json({ success: true, filePath, saved: true, message: "Document saved successfully" });
		}
		case "getDiagnostics":
			return diagnosticsAnswer(context, typeof args.uri === "string" ? args.uri : undefined);
		case "openFile":
			return openFileAnswer(context, pathArg("filePath"), args.makeFrontmost !== false);
		case "open_files":
		case "reformat_file":
			// JetBrains' own tools; their results are not in the reference.
			return text("OK");
		case "openDiff":
			return openDiffAnswer(context, args);
		case "close_tab":
			context.openDiffs.delete(String(args.tab_name));
			return text("TAB_CLOSED");
		case "closeAllDiffTabs": {
			const count = context.openDiffs.size;
			context.openDiffs.clear();
			return text(`CLOSED_${count}_DIFF_TABS`);
		}
		case "executeCode":
			return { result: { content: [{ type: "text", text: "No active Jupyter notebook" }], isError: true } };
		default:
			return error(-32601, `Tool not found: ${name}`);
	}
}

function diagnosticsAnswer(context: ToolContext, uri: string | undefined): ToolOutcome {
	const { capabilities, state } = context;
	const all = state.diagnostics ?? {};
	const asked = uri === undefined || uri === "" ? undefined : resolvePath(context, uri);
	// §3: nvim answers -32001 for a uri it has no buffer for; the message is the fake's.
	if (asked !== undefined && capabilities.unopenedDiagnostics === "error-32001" && !openTabs(state).includes(asked))
		return error(-32001, `File not open: ${uri}`);
	const files = asked === undefined ? Object.keys(all).filter((file) => (all[file] ?? []).length > 0) : [asked];
	const names = capabilities.severityNames === "nvim" ? NVIM_SEVERITIES : VSCODE_SEVERITIES;
	const entries = files.map((file) => ({
		uri: fileUrl(file),
		diagnostics: (all[file] ?? []).map((diagnostic) => {
			const at = { line: diagnostic.line, character: diagnostic.character };
			return {
				message: diagnostic.message,
				severity: names[diagnostic.severity],
				range: { start: at, end: at },
				...(diagnostic.source !== undefined && { source: diagnostic.source }),
			};
		}),
	}));
	if (capabilities.diagnosticsShape === "object")
		return json(Object.fromEntries(entries.map((entry) => [entry.uri, entry.diagnostics])));
	return json(entries);
}

const VSCODE_SEVERITIES = { error: "Error", warning: "Warning", info: "Information", hint: "Hint" } as const;
const NVIM_SEVERITIES = { ...VSCODE_SEVERITIES, info: "Info" } as const;

function openFileAnswer(context: ToolContext, filePath: string, makeFrontmost: boolean): ToolOutcome {
	if (!existsSync(filePath)) return text(`File not found: ${filePath}`);
	if (makeFrontmost) return text(`Opened file: ${filePath}`);
	return json({
		success: true,
		filePath,
		fileUrl: fileUrl(filePath),
		message: `Opened file: ${filePath}`,
		languageId: languageId(context.state, filePath),
		lineCount: lineCount(context.state, filePath),
		isDirty: isDirty(context.state, filePath),
		isUntitled: false,
		isClosed: false,
	});
}

/** Answers at once as if the user acted: the openDiff a real editor blocks on is `holdTool`'s to keep pending. */
function openDiffAnswer(context: ToolContext, args: Record<string, unknown>): ToolOutcome {
	const tabName = String(args.tab_name ?? "");
	const jetbrains = context.capabilities.diffResult === "jetbrains";
	if (context.diffOutcome === "DIFF_REJECTED")
		return jetbrains ? text("DIFF_REJECTED") : text("DIFF_REJECTED", tabName);
	context.openDiffs.add(tabName);
	const proposed = String(args.new_file_contents ?? "");
	const contents = context.diffText ? context.diffText(proposed) : proposed;
	// §3: JetBrains returns the saved text LF-normalised.
	return text("FILE_SAVED", jetbrains ? contents.replace(/\r\n?/g, "\n") : contents);
}

function editorTab(state: FakeEditorState, file: string): object {
	const active = file === state.file;
	const range = state.selection ?? CURSOR_AT_START;
	return {
		uri: fileUrl(file),
		isActive: active,
		isPinned: false,
		isPreview: false,
		isDirty: isDirty(state, file),
		label: basename(file),
		groupIndex: 0,
		viewColumn: 1,
		isGroupActive: true,
		fileName: file,
		languageId: languageId(state, file),
		lineCount: lineCount(state, file),
		isUntitled: false,
		...(active && {
			selection: {
				...range,
				isEmpty: range.start.line === range.end.line && range.start.character === range.end.character,
			},
		}),
	};
}

/** The active file first, then the other dirty documents (a document can only be dirty while open). */
function openTabs(state: FakeEditorState): string[] {
	return [...new Set([...(state.file === undefined ? [] : [state.file]), ...(state.dirty ?? [])])];
}

const isDirty = (state: FakeEditorState, file: string) => (state.dirty ?? []).includes(file);

const LANGUAGES: Record<string, string> = { ".ts": "typescript", ".js": "javascript", ".py": "python", ".lua": "lua" };
function languageId(state: FakeEditorState, file: string): string {
	if (file === state.file && state.languageId !== undefined) return state.languageId;
	return LANGUAGES[extname(file)] ?? "plaintext";
}

/** From the state's text for the active file, else from disk; 1 for a file that cannot be read, as an empty one. */
function lineCount(state: FakeEditorState, file: string): number {
	let content = file === state.file ? state.text : undefined;
	if (content === undefined) {
		try {
			content = readFileSync(file, "utf8");
		} catch {
			content = "";
		}
	}
	return content.split("\n").length;
}

/** A `file://` URI or a path, relative ones against the first workspace folder (§3 openFile). */
function resolvePath(context: ToolContext, pathOrUri: string): string {
	if (pathOrUri.startsWith("file://")) return fileURLToPath(pathOrUri);
	if (isAbsolute(pathOrUri)) return pathOrUri;
	return resolve(context.workspaceFolders[0] ?? "/", pathOrUri);
}

const fileUrl = (path: string) => pathToFileURL(path).href;
