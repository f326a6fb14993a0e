import { absoluteFile } from "../../editors/core/active-buffer.ts";
import type {
	EditorFacts,
	EditorOrigin,
	EditorReading,
	GoneReason,
	UnsavedUnknown,
} from "../../editors/core/editor.ts";
import type { EditorState } from "../../editors/core/protocol-state.ts";
import { scoreTier, type Tier, type TierVerdict } from "../../editors/core/tiers.ts";
import type { SecretFileMatch } from "../../safety/core/secret-files.ts";
import { noticeText } from "../../shared/core/notice-texts.ts";

export interface Candidate {
	key: string;
	match: { tier: Tier | undefined };
	/** Not what the user looks at now (a workspace its window does not show): never connected on its own. */
	hidden?: boolean;
	/**
	 * pi runs in this editor's terminal (`$NVIM`, `$CLAUDE_CODE_SSE_PORT`, `INSIDE_EMACS`): the editor meant,
	 * whatever else the project has.
	 */
	enclosing?: boolean;
	/** Connected only when picked (an IDE server under `"ideServers": "ask"`, or one that closed pi out). */
	byHand?: boolean;
}

/** Only the best non-empty tier counts: when an editor matches exactly, weaker matches are not offered. */
export function bestTier<T extends Candidate>(candidates: readonly T[]): { tier: Tier | undefined; editors: T[] } {
	for (const tier of [0, 1] as const) {
		const editors = candidates.filter((candidate) => candidate.match.tier === tier);
		if (editors.length > 0) return { tier, editors };
	}
	return { tier: undefined, editors: [] };
}

/**
 * Connect on our own to the editor pi runs in (`$NVIM`); else only when exactly one live editor the user can
 * see is in the best tier; a tie waits for `/ide`, and a hidden workspace is picked only by hand.
 */
export function autoConnectTarget<T extends Candidate>(liveCandidates: readonly T[]): T | undefined {
	const enclosing = liveCandidates.filter((candidate) => candidate.enclosing);
	// The editor pi runs in is the one meant: when it waits to be picked, no other editor is taken instead.
	if (enclosing.length === 1) return enclosing[0]?.byHand ? undefined : enclosing[0];
	const { editors } = bestTier(liveCandidates.filter((candidate) => !candidate.hidden));
	return editors.length === 1 && !editors[0]?.byHand ? editors[0] : undefined;
}

/** The variable that says pi runs in an editor's terminal, by where that editor is read. */
const ENCLOSING_VARIABLES: Partial<Record<EditorOrigin, string>> = {
	"ide-server": "$CLAUDE_CODE_SSE_PORT",
	emacs: "$INSIDE_EMACS, and that Emacs is among pi's ancestors",
};

/** How well an editor matches the project: the Neovim pi runs in (`$NVIM`) is the one meant, above every tier. */
export function editorMatch(
	editor: { paths: EditorReading["paths"]; enclosing?: boolean; origin?: EditorOrigin },
	projectDir: string,
): TierVerdict {
	if (!editor.enclosing) return scoreTier(editor.paths, projectDir);
	const variable = (editor.origin && ENCLOSING_VARIABLES[editor.origin]) ?? "$NVIM";
	return { tier: 0, evidence: `pi runs in its terminal (${variable})` };
}

/** Why pi is connected, as `/ide status` shows it after the editor's label. */
export const connectReason = {
	auto: (match: TierVerdict) => `auto-connected: the only live editor in tier ${match.tier} (${match.evidence})`,
	picked: (all: boolean) => (all ? "picked with /ide all" : "picked with /ide"),
	asked: (label: string) => `asked from ${label}`,
} as const;

/** Why a connection ended. pi cannot tell a kill from a crash: both leave the file of a dead process. */
export type ConnectionEnd =
	| "process-gone"
	| "file-removed"
	| "app-quit"
	| "workspace-closed"
	| "server-closed"
	| "emacs-closed"
	| "lockfile-removed"
	| "ide-server-gone"
	| "closed-by-editor"
	| "connect-failed";

export const CONNECTION_END_TEXT: Record<ConnectionEnd, string> = {
	"process-gone": "process gone, its file left behind",
	"file-removed": "file removed (editor quit)",
	"app-quit": "the app quit (or crashed)",
	"workspace-closed": "its window was closed",
	"server-closed": "Neovim quit (its server closed the connection)",
	"emacs-closed": "Emacs quit (pi's connection to it closed)",
	"lockfile-removed": "the IDE server went away (its lockfile was removed, or its process ended)",
	"ide-server-gone": "the IDE server's process ended",
	"closed-by-editor": "the editor closed pi's connection; another client may have taken it; /ide reconnects",
	"connect-failed": "pi could not connect to the IDE server (/ide status says why; /ide tries again)",
};

/** How each origin's editor goes away: its listing ends, or its process does. */
const ENDS: Record<EditorOrigin, { unlisted: ConnectionEnd; dead: ConnectionEnd }> = {
	"state-file": { unlisted: "file-removed", dead: "process-gone" },
	zed: { unlisted: "workspace-closed", dead: "app-quit" },
	neovim: { unlisted: "server-closed", dead: "server-closed" },
	emacs: { unlisted: "emacs-closed", dead: "emacs-closed" },
	"ide-server": { unlisted: "lockfile-removed", dead: "ide-server-gone" },
};

/** What pi tells the user when a connection ends: the editor gone, or why its side ended it. */
export function connectionEndNotice(label: string, end: ConnectionEnd): string {
	const byEditor = end === "closed-by-editor" || end === "connect-failed";
	return byEditor ? noticeText.ended(label, CONNECTION_END_TEXT[end]) : noticeText.gone(label);
}

/**
 * A connection ends when its editor dies or its source no longer lists it. A rejected write does not end it:
 * the editor is still there, pi just does not know what it shows until its next valid write.
 */
export function connectionEnd(facts: EditorFacts): ConnectionEnd | undefined {
	if (facts.ended) return facts.ended;
	if (!facts.listed) return ENDS[facts.origin].unlisted;
	if (!facts.alive) return ENDS[facts.origin].dead;
	return undefined;
}

/** The connected editor's state for a prompt, or why there is none. */
export type ConnectedView =
	| {
			kind: "editor";
			state: EditorState;
			selectionFirstSeenSeconds: number;
			nowSeconds: number;
			/** Real path of the active file. */
			realFile?: string;
			/** Set when the active file is a secret file: its selection text stays on the machine. */
			secret?: SecretFileMatch;
			/** Other files with unsaved changes in the editor, beside the active one. */
			unsavedFiles?: readonly string[];
			/** The editor cannot tell unsaved changes (see `EditorReading.unsavedUnknown`). */
			unsavedUnknown?: UnsavedUnknown;
			/** Whether the selection is whole lines (see `EditorReading.wholeLineSelection`). */
			wholeLineSelection?: boolean;
	  }
	| { kind: "gone"; reason: GoneReason };

/** The connected editor's latest reading as a prompt sees it, with its secret-file verdict, at `nowSeconds`. */
export function connectedView(
	reading: EditorReading,
	secret: SecretFileMatch | undefined,
	nowSeconds: number,
): ConnectedView {
	return {
		kind: "editor",
		state: reading.state,
		selectionFirstSeenSeconds: reading.selectionFirstSeenSeconds,
		nowSeconds,
		...(reading.paths.activeFile !== undefined && { realFile: reading.paths.activeFile }),
		...(secret && { secret }),
		...(reading.unsavedFiles && { unsavedFiles: reading.unsavedFiles }),
		...(reading.unsavedUnknown && { unsavedUnknown: reading.unsavedUnknown }),
		...(reading.wholeLineSelection !== undefined && { wholeLineSelection: reading.wholeLineSelection }),
	};
}

/** What a prompt says instead of the editor block, or undefined when the connected editor can be described. */
export function promptGoneReason(facts: EditorFacts | undefined): GoneReason | undefined {
	if (!facts || connectionEnd(facts)) return "disconnected";
	if (!facts.reading) return "rejected";
	if (absoluteFile(facts.reading.state) === undefined) return "no-file";
	return undefined;
}
