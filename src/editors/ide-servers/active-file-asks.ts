import { pathToFileURL } from "node:url";
import { runInBackground } from "../../shared/background.ts";
import { IDE_REQUEST_TIMEOUT_MS } from "../../shared/core/timing.ts";
import type { Diagnostic } from "../core/protocol-state.ts";
import { diagnosticsOfFile } from "./core/diagnostics.ts";
import type { ServerView } from "./core/editor-view.ts";
import { countLinesOnDisk } from "./lines-on-disk.ts";

/** What the asks need of their session: its view now, its tools, its positions' base, and who hears a change. */
export interface ActiveFileHooks {
	view: () => ServerView;
	/** A tool's structured answer, or undefined. */
	tool: (name: string, args: unknown, timeoutMs: number) => Promise<unknown>;
	offers: (tool: string) => boolean;
	oneBasedPositions: () => boolean;
	changed: () => void;
}

/**
 * What pi asks about the active file on its own, never at prompt time: its diagnostics (on a file switch and on
 * `diagnostics_changed`) and its lines on disk (on a switch, when the server gives no line count). An answer
 * for a file the editor has left is dropped.
 */
export class ActiveFileAsks {
	/** The active file's lines being counted on disk (a prompt waits for it, capped): undefined when none is. */
	counting?: Promise<void>;
	diagnostics: Diagnostic[] = [];
	private linesOnDisk?: { file: string; lines: number };
	private diagnosticsAsked?: { file: string; done: Promise<void> };

	constructor(private readonly hooks: ActiveFileHooks) {}

	/** The editor shows another file: the last one's diagnostics go, the new one's are asked and its lines counted. */
	switched(): void {
		this.diagnostics = [];
		void runInBackground("ide server file switch", () => Promise.all([this.askDiagnostics(), this.countLines()]));
	}

	/** The lines counted on disk of `file`, when they are of that file. */
	linesOf(file: string | undefined): number | undefined {
		return this.linesOnDisk?.file === file ? this.linesOnDisk?.lines : undefined;
	}

	/** The active file's diagnostics, asked on a file switch and on `diagnostics_changed`: never at prompt time. */
	askDiagnostics(): Promise<void> {
		const file = this.hooks.view().file;
		if (file === undefined || !this.hooks.offers("getDiagnostics")) return Promise.resolve();
		// One ask per file at a time; a switch while the last file's are asked asks for the new one too.
		if (this.diagnosticsAsked?.file === file) return this.diagnosticsAsked.done;
		const done = this.hooks
			.tool("getDiagnostics", { uri: pathToFileURL(file).href }, IDE_REQUEST_TIMEOUT_MS)
			.then((json) => {
				const found = json === undefined ? undefined : diagnosticsOfFile(json, file, this.hooks.oneBasedPositions());
				if (found && this.hooks.view().file === file) {
					this.diagnostics = found;
					this.hooks.changed();
				}
			})
			.finally(() => {
				if (this.diagnosticsAsked?.done === done) this.diagnosticsAsked = undefined;
			});
		this.diagnosticsAsked = { file, done };
		return done;
	}

	private countLines(): Promise<void> {
		const { file, lineCount } = this.hooks.view();
		if (file === undefined || lineCount !== undefined) return Promise.resolve();
		const counting: Promise<void> = countLinesOnDisk(file)
			.then((lines) => {
				if (lines !== undefined && this.hooks.view().file === file) {
					this.linesOnDisk = { file, lines };
					this.hooks.changed();
				}
			})
			.finally(() => {
				if (this.counting === counting) this.counting = undefined;
			});
		this.counting = counting;
		return counting;
	}
}
