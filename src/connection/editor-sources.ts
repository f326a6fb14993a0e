import type { Editor } from "../editors/core/editor.ts";
import type { SourceHooks } from "../editors/editor-source.ts";
import { emacsNoMatchLine, emacsStatusLines } from "../editors/emacs/core/status.ts";
import type { EmacsDiffChannel } from "../editors/emacs/diff-channel.ts";
import type { EmacsReloadResult } from "../editors/emacs/session.ts";
import { EmacsSource, type EmacsSourceOptions } from "../editors/emacs/source.ts";
import { ideServersNoMatchLine, ideServersStatusLines, type Mention } from "../editors/ide-servers/core/status.ts";
import { IdeServerSource, type IdeServerSourceOptions } from "../editors/ide-servers/source.ts";
import { MergedSources } from "../editors/merged-sources.ts";
import { neovimNoMatchLine, neovimStatusLines } from "../editors/neovim/core/status.ts";
import type { NeovimDiffChannel } from "../editors/neovim/diff-channel.ts";
import type { ReloadResult } from "../editors/neovim/session.ts";
import { NeovimSource, type NeovimSourceOptions } from "../editors/neovim/source.ts";
import { type ClientChannelOpen, connectClientChannel } from "../editors/state-dir/client-channel.ts";
import type { DirPlan } from "../editors/state-dir/core/dir-plan.ts";
import { StateDir } from "../editors/state-dir/state-dir.ts";
import type { ToolCaller } from "../editors/tool-caller.ts";
import { zedNoMatchLine, zedStatusLines } from "../editors/zed/core/status.ts";
import { ZedSource, type ZedSourceOptions } from "../editors/zed/source.ts";

/** Where editors are read: state dirs always, Zed's database and Neovims' and Emacsen's servers unless turned off. */
export interface SourcesConfig {
	stateDirs: readonly DirPlan[];
	uid: number;
	zed?: ZedSourceOptions;
	neovim?: Omit<NeovimSourceOptions, "projectDir" | "connectedKey">;
	emacs?: Omit<EmacsSourceOptions, "projectDir" | "connectedKey">;
	ideServers?: Omit<IdeServerSourceOptions, "connectedKey" | "claimedElsewhere" | "mentioned" | "projectDir">;
}

/** What the sources ask of the connection: the project, the connected key, where a "send to agent" goes. */
export interface ConnectionReads extends Pick<NeovimSourceOptions, "projectDir" | "connectedKey"> {
	mentioned: (key: string, mention: Mention) => void;
}

/** How the connected editor could show the model's change as a diff (review/), or why it cannot. */
export type EditorChannel =
	| { kind: "neovim"; channel: NeovimDiffChannel }
	| { kind: "emacs"; channel: EmacsDiffChannel }
	/** The shipped VS Code client's socket beside its state file: connected for each review, closed after. */
	| { kind: "vscode-client"; app: string; connect: () => Promise<ClientChannelOpen> }
	| { kind: "ide-server"; caller: ToolCaller }
	| { kind: "none"; reason: string };

/** How `/ide status` names the source that already reads an editor an IDE server also serves. */
const ORIGIN_NAMES = {
	"state-file": "its state file",
	zed: "Zed's database",
	neovim: "Neovim's own server",
	emacs: "Emacs's own server",
} as const;

/** What pi did with the model's write in the connected editor. */
export type ModelWriteShown = ReloadResult | EmacsReloadResult;

/**
 * Every source of editors, built once per session: the merged list the connection rules read, and what only
 * one kind of source can do (a Neovim's unsaved list asked now, the model's write shown in Neovim).
 */
export class EditorSources {
	readonly dirs: StateDir[];
	readonly merged: MergedSources;
	private readonly zed?: ZedSource;
	private readonly neovim?: NeovimSource;
	private readonly emacs?: EmacsSource;
	private readonly ideServers?: IdeServerSource;

	constructor(config: SourcesConfig, hooks: SourceHooks, connection: ConnectionReads) {
		this.dirs = config.stateDirs.map((plan) => new StateDir(plan, config.uid, hooks));
		this.zed = config.zed && new ZedSource(config.zed, hooks);
		const { projectDir, connectedKey } = connection;
		this.neovim = config.neovim && new NeovimSource({ ...config.neovim, projectDir, connectedKey }, hooks);
		this.emacs = config.emacs && new EmacsSource({ ...config.emacs, projectDir, connectedKey }, hooks);
		const others = [
			...this.dirs,
			...(this.zed ? [this.zed] : []),
			...(this.neovim ? [this.neovim] : []),
			...(this.emacs ? [this.emacs] : []),
		];
		this.ideServers =
			config.ideServers &&
			new IdeServerSource(
				{
					...config.ideServers,
					connectedKey,
					projectDir,
					mentioned: connection.mentioned,
					claimedElsewhere: (key) => {
						const origin = others.map((source) => source.facts(key)).find((facts) => facts?.listed)?.origin;
						return origin && origin !== "ide-server" ? ORIGIN_NAMES[origin] : undefined;
					},
				},
				hooks,
			);
		this.merged = new MergedSources([...others, ...(this.ideServers ? [this.ideServers] : [])], hooks.clock);
	}

	/** The sections of `/ide status` beyond the state dirs. */
	statusSections(nowSeconds: number, projectDir: string): string[] {
		return [
			...(this.zed ? zedStatusLines(this.zed.report(), nowSeconds, projectDir) : []),
			...(this.neovim ? neovimStatusLines(this.neovim.report(), nowSeconds, projectDir) : []),
			...(this.emacs ? emacsStatusLines(this.emacs.report(), nowSeconds, projectDir) : []),
			...(this.ideServers ? ideServersStatusLines(this.ideServers.report(), nowSeconds, projectDir) : []),
		];
	}

	/** The lines `/ide` adds when it finds nothing for the project. */
	noMatchLines(): string[] {
		const zed = this.zed?.report();
		const neovim = this.neovim?.report();
		const zedLine = zed && zedNoMatchLine(zed);
		const ideServersReport = this.ideServers?.report();
		const ideServers = ideServersReport && ideServersNoMatchLine(ideServersReport);
		return [
			...(zedLine ? [zedLine] : []),
			...(neovim ? [neovimNoMatchLine(neovim)] : []),
			...(this.emacs ? [emacsNoMatchLine(this.emacs.report())] : []),
			...(ideServers ? [ideServers] : []),
		];
	}

	/** After the model wrote `realPath`: reloads it in the connected Neovim or Emacs when that is safe. */
	async reloadAfterWrite(key: string, realPath: string): Promise<ModelWriteShown | undefined> {
		return (await this.neovim?.reload(key, realPath)) ?? (await this.emacs?.reload(key, realPath));
	}

	/** The connected editor's way to show a diff: by where it is read from. */
	channelOf(editor: Pick<Editor, "key" | "origin" | "state">): EditorChannel {
		// Its own server first, whichever copy counts (a Neovim with the public plugin is one editor).
		const neovim = this.neovim?.diffChannel(editor.key);
		if (neovim) return { kind: "neovim", channel: neovim };
		if (editor.origin === "neovim") return { kind: "none", reason: "pi's connection to that Neovim is not open" };
		const emacs = this.emacs?.diffChannel(editor.key);
		if (emacs) return { kind: "emacs", channel: emacs };
		if (editor.origin === "emacs") return { kind: "none", reason: "pi's connection to that Emacs is not open" };
		if (editor.origin === "ide-server") {
			const caller = this.ideServers?.toolCaller(editor.key);
			if (!caller) return { kind: "none", reason: "pi's connection to its IDE server is not open" };
			return caller.offers("openDiff")
				? { kind: "ide-server", caller }
				: { kind: "none", reason: "its IDE server does not offer openDiff" };
		}
		if (editor.origin === "zed")
			return { kind: "none", reason: "Zed is read from its database, which cannot show a diff" };
		// This package's VS Code client from 0.4.0 on: its socket beside the state file, connected for each review.
		for (const dir of this.dirs) {
			const target = dir.clientChannelOf(editor.key);
			if (target) return { kind: "vscode-client", app: editor.state.app, connect: () => connectClientChannel(target) };
		}
		return { kind: "none", reason: "its state-file client cannot show a diff" };
	}

	/**
	 * The connection changed (picked, auto-connected, `/ide off`): the connected IDE server is connected to and
	 * pi's other connections closed; `/ide off` stops every Neovim's and Emacs's pushes, a connection made again
	 * restarts them.
	 */
	async connectionChanged(paused: boolean): Promise<void> {
		this.ideServers?.follow();
		await Promise.all([this.neovim?.setPaused(paused), this.emacs?.setPaused(paused)]);
	}
}
