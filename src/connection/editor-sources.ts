import type { EditorOrigin } from "../editors/core/editor.ts";
import { type EditorChannel, NO_CHANNEL_REASONS } from "../editors/diff-channels.ts";
import type { DiskFollowed } from "../editors/editor-asks.ts";
import type { EditorAsked, EditorSource, ModelWriteShown, SourceHooks } from "../editors/editor-source.ts";
import { EmacsSource, type EmacsSourceOptions } from "../editors/emacs/source.ts";
import type { Mention } from "../editors/ide-servers/core/status.ts";
import { IdeServerSource, type IdeServerSourceOptions } from "../editors/ide-servers/source.ts";
import { MergedSources } from "../editors/merged-sources.ts";
import { NeovimSource, type NeovimSourceOptions } from "../editors/neovim/source.ts";
import { factsStatusLines } from "../editors/processes/core/facts-status.ts";
import type { ProcessFacts } from "../editors/processes/process-facts.ts";
import type { DirPlan } from "../editors/state-dir/core/dir-plan.ts";
import type { ClientSuggestionOptions } from "../editors/state-dir/dir-clients.ts";
import { StateDir } from "../editors/state-dir/state-dir.ts";
import { ZedSource, type ZedSourceOptions } from "../editors/zed/source.ts";

/** Where editors are read: state dirs always, Zed's database and Neovims' and Emacsen's servers unless turned off. */
export interface SourcesConfig {
	stateDirs: readonly DirPlan[];
	uid: number;
	/** How every source asks the system about processes (`/proc`, or `ps` and `lsof`). */
	facts: ProcessFacts;
	/** A `PI_IDE_PROCESS_FACTS` value not understood: said in `/ide status`. */
	factsIgnored?: string;
	zed?: ZedSourceOptions;
	neovim?: Omit<NeovimSourceOptions, "projectDir" | "connectedKey">;
	emacs?: Omit<EmacsSourceOptions, "projectDir" | "connectedKey">;
	ideServers?: Omit<IdeServerSourceOptions, "connectedKey" | "claimedElsewhere" | "mentioned" | "projectDir">;
	/** What the VS Code clients in the state dirs are offered for inline completions (while suggestions are on). */
	vscodeSuggestions?: ClientSuggestionOptions["offer"];
}

/** What the sources ask of the connection: the project, the connected key, where a "send to agent" goes. */
export interface ConnectionReads extends Pick<NeovimSourceOptions, "projectDir" | "connectedKey"> {
	mentioned: (key: string, mention: Mention) => void;
}

/** How `/ide status` names the source that already reads an editor an IDE server also serves. */
const ORIGIN_NAMES: Record<EditorOrigin, string> = {
	"state-file": "its state file",
	zed: "Zed's database",
	neovim: "Neovim's own server",
	emacs: "Emacs's own server",
	"ide-server": "another IDE server",
};

/**
 * Every source of editors, built once per session: the merged list the connection rules read, and what only
 * some sources can do, asked of every source (`EditorSource`'s optional methods): the first answer counts.
 */
export class EditorSources {
	readonly dirs: StateDir[];
	readonly merged: MergedSources;
	/** In the order their answers count: the state dirs, then the sources pi reads by itself, IDE servers last. */
	private readonly all: EditorSource[];

	private readonly facts: ProcessFacts;
	private readonly factsIgnored: string | undefined;

	constructor(config: SourcesConfig, hooks: SourceHooks, connection: ConnectionReads) {
		this.facts = config.facts;
		this.factsIgnored = config.factsIgnored;
		const { projectDir, connectedKey } = connection;
		const offer = config.vscodeSuggestions;
		this.dirs = config.stateDirs.map(
			(plan) => new StateDir(plan, config.uid, hooks, config.facts, offer && { projectDir, connectedKey, offer }),
		);
		const others: EditorSource[] = [
			...this.dirs,
			...(config.zed ? [new ZedSource(config.zed, hooks)] : []),
			...(config.neovim ? [new NeovimSource({ ...config.neovim, projectDir, connectedKey }, hooks)] : []),
			...(config.emacs ? [new EmacsSource({ ...config.emacs, projectDir, connectedKey }, hooks)] : []),
		];
		// An editor another source reads is one editor, not two: its IDE server is listed but not connected to.
		const claimedElsewhere = (key: string) => {
			const origin = others.map((source) => source.facts(key)).find((facts) => facts?.listed)?.origin;
			return origin && ORIGIN_NAMES[origin];
		};
		const ideServers =
			config.ideServers &&
			new IdeServerSource(
				{ ...config.ideServers, connectedKey, projectDir, mentioned: connection.mentioned, claimedElsewhere },
				hooks,
			);
		this.all = [...others, ...(ideServers ? [ideServers] : [])];
		this.merged = new MergedSources(this.all, hooks.clock);
	}

	/** The sections of `/ide status` beyond the state dirs: how processes are asked about, then each source. */
	statusSections(nowSeconds: number, projectDir: string): string[] {
		return [
			...factsStatusLines({ ...this.facts.status(), ...(this.factsIgnored && { ignored: this.factsIgnored }) }),
			...this.all.flatMap((source) => source.statusLines?.(nowSeconds, projectDir) ?? []),
		];
	}

	/** The lines `/ide` adds when it finds no editor for the project. */
	noMatchLines(): string[] {
		return this.all.flatMap((source) => source.noMatchLine?.() ?? []);
	}

	/** After the model wrote `realPath`: shown in the connected editor by the source that reads it, when safe. */
	async reloadAfterWrite(editor: EditorAsked, realPath: string): Promise<ModelWriteShown | undefined> {
		for (const source of this.all) {
			const shown = await source.reload?.(editor, realPath);
			if (shown !== undefined) return shown;
		}
		return undefined;
	}

	/**
	 * The connected editor's way to show a diff: a channel a source holds for it (its own server, whichever copy
	 * counts: a Neovim with the public plugin is one editor), else why not, as its source or its origin says.
	 */
	channelOf(editor: EditorAsked): EditorChannel {
		const answers = this.all.flatMap((source) => source.diffChannel?.(editor) ?? []);
		return (
			answers.find((answer) => answer.kind !== "none") ??
			answers[0] ?? { kind: "none", reason: NO_CHANNEL_REASONS[editor.origin] }
		);
	}

	/**
	 * The connection changed (picked, auto-connected, `/ide off`): the connected IDE server is connected to and
	 * pi's other connections closed; `/ide off` stops every Neovim's and Emacs's pushes, a connection made again
	 * restarts them.
	 */
	async connectionChanged(paused: boolean): Promise<void> {
		await Promise.all(this.all.map((source) => source.connectionChanged?.(paused)));
	}

	/** A run ended: each source's editors follow the disk; what stayed, per editor. */
	async followDisk(): Promise<DiskFollowed[]> {
		const each = await Promise.all(this.all.map((source) => source.followDisk?.() ?? Promise.resolve([])));
		return each.flat();
	}
}
