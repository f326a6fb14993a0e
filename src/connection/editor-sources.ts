import type { SourceHooks } from "../editors/editor-source.ts";
import { MergedSources } from "../editors/merged-sources.ts";
import { neovimNoMatchLine, neovimStatusLines } from "../editors/neovim/core/status.ts";
import type { ReloadResult } from "../editors/neovim/session.ts";
import { NeovimSource, type NeovimSourceOptions } from "../editors/neovim/source.ts";
import type { DirPlan } from "../editors/state-dir/core/dir-plan.ts";
import { StateDir } from "../editors/state-dir/state-dir.ts";
import { zedNoMatchLine, zedStatusLines } from "../editors/zed/core/status.ts";
import { ZedSource, type ZedSourceOptions } from "../editors/zed/source.ts";

/** Where editors are read: state dirs always, Zed's database and Neovims' servers unless turned off. */
export interface SourcesConfig {
	stateDirs: readonly DirPlan[];
	uid: number;
	zed?: ZedSourceOptions;
	neovim?: Omit<NeovimSourceOptions, "projectDir" | "connectedKey">;
}

/**
 * Every source of editors, built once per session: the merged list the connection rules read, and what only
 * one kind of source can do (a Neovim's unsaved list asked now, the model's write shown in Neovim).
 */
export class EditorSources {
	readonly dirs: StateDir[];
	readonly merged: MergedSources;
	private readonly zed?: ZedSource;
	private readonly neovim?: NeovimSource;

	constructor(
		config: SourcesConfig,
		hooks: SourceHooks,
		connection: Pick<NeovimSourceOptions, "projectDir" | "connectedKey">,
	) {
		this.dirs = config.stateDirs.map((plan) => new StateDir(plan, config.uid, hooks));
		this.zed = config.zed && new ZedSource(config.zed, hooks);
		this.neovim = config.neovim && new NeovimSource({ ...config.neovim, ...connection }, hooks);
		this.merged = new MergedSources(
			[...this.dirs, ...(this.zed ? [this.zed] : []), ...(this.neovim ? [this.neovim] : [])],
			hooks.clock,
		);
	}

	/** The sections of `/ide status` beyond the state dirs. */
	statusSections(nowSeconds: number, projectDir: string): string[] {
		return [
			...(this.zed ? zedStatusLines(this.zed.report(), nowSeconds, projectDir) : []),
			...(this.neovim ? neovimStatusLines(this.neovim.report(), nowSeconds, projectDir) : []),
		];
	}

	/** The lines `/ide` adds when it finds nothing for the project. */
	noMatchLines(): string[] {
		const zed = this.zed?.report();
		const neovim = this.neovim?.report();
		const zedLine = zed && zedNoMatchLine(zed);
		return [...(zedLine ? [zedLine] : []), ...(neovim ? [neovimNoMatchLine(neovim)] : [])];
	}

	/** After the model wrote `realPath`: reloads it in the connected Neovim when that is safe. */
	reloadAfterWrite(key: string, realPath: string): Promise<ReloadResult | undefined> {
		return this.neovim?.reload(key, realPath) ?? Promise.resolve(undefined);
	}

	/** `/ide off` stops every Neovim's pushes; a connection made again restarts them. */
	setPaused(paused: boolean): Promise<void> {
		return this.neovim?.setPaused(paused) ?? Promise.resolve();
	}
}
