import type { EditorFacts, ListedEditor } from "../core/editor.ts";
import { scoreTier } from "../core/tiers.ts";
import type { EditorChannel } from "../diff-channels.ts";
import type { EditorAsked, SourceHooks } from "../editor-source.ts";
import type { ProcessFacts } from "../processes/process-facts.ts";
import {
	type ClientChannelTarget,
	channelSocketPath,
	connectClientChannel,
	missingChannelNow,
} from "./client-channel.ts";
import { channelClientOf, SUGGESTIONS_SINCE_VERSION, suggestingClientOf } from "./core/client-channel.ts";
import type { SuggestionOffer } from "./core/suggestion-offer.ts";
import { SuggestionLinks } from "./suggestion-links.ts";

/** What the state dir says of this package's VS Code clients beside each file in `/ide status`. */
export interface ClientNotes {
	/** A live editor of this package's VS Code client that has no review channel pi could use, and what to do. */
	channelMissing?: string;
	/** Its inline completions: offered, connecting, why not, or "update the client". */
	suggestions?: string;
}

/** What pi offers VS Code windows for inline completions, and the project that decides which windows. */
export interface ClientSuggestionOptions {
	projectDir: () => string;
	offer: Omit<SuggestionOffer, "project" | "pid">;
}

export interface DirClientsDeps {
	dir: string;
	uid: number;
	facts: Pick<ProcessFacts, "listeningUnixPaths">;
	/** The dir's editors now (the links are made to live ones). */
	editors: () => ListedEditor[];
	suggestions?: ClientSuggestionOptions;
	/** The source's hooks: its clock, what changed, and where editors' requests go. */
	hooks: Pick<SourceHooks, "clock" | "changed" | "requests">;
}

/**
 * What pi reaches of the VS Code clients (this package's, 0.4.0 on) that write into one state dir: the socket a
 * review connects to for one diff, and (0.5.0 on, while suggestions are on) the standing links over which a
 * window asks pi for inline completions.
 */
export class DirClients {
	private readonly links?: SuggestionLinks;
	private readonly listeningPaths: (pid: number) => Promise<readonly string[]>;

	constructor(private readonly deps: DirClientsDeps) {
		this.listeningPaths = async (pid) => (await deps.facts.listeningUnixPaths([pid])).byPid.get(pid) ?? [];
		const { suggestions } = deps;
		const { requests } = deps.hooks;
		if (requests && suggestions)
			this.links = new SuggestionLinks({
				requests,
				candidates: () => this.linkCandidates(suggestions.projectDir),
				offer: () => ({ ...suggestions.offer, project: suggestions.projectDir(), pid: process.pid }),
				clock: deps.hooks.clock,
				changed: deps.hooks.changed,
			});
	}

	/** The dir's editors changed, or the source re-checks: the links follow. */
	update(): void {
		this.links?.update();
	}

	close(): Promise<void> {
		return this.links?.close() ?? Promise.resolve();
	}

	/** Where the review reaches that editor's client (one with the channel): undefined for other editors, dead ones, older clients. */
	channelOf(facts: EditorFacts | undefined): (ClientChannelTarget & { socket: string }) | undefined {
		if (!facts?.alive || !facts.reading || channelClientOf(facts.reading.state.client).kind !== "channel")
			return undefined;
		const target = this.target(facts.reading.pid);
		return { ...target, socket: channelSocketPath(target) };
	}

	/** This package's VS Code client from 0.4.0 on: its socket beside the state file, connected for each review. */
	diffChannel(editor: EditorAsked, facts: EditorFacts | undefined): EditorChannel | undefined {
		if (editor.origin !== "state-file") return undefined;
		const target = this.channelOf(facts);
		return target && { kind: "vscode-client", app: editor.state.app, connect: () => connectClientChannel(target) };
	}

	/** For `/ide status`: one lstat per live client for its review channel, and its inline completions. */
	notesOf(editor: ListedEditor): ClientNotes {
		const channelMissing = missingChannelNow(this.target(editor.pid), editor.state.client);
		const suggestions = this.links?.statusOf(editor.key) ?? this.olderClientNote(editor);
		return {
			...(channelMissing !== undefined && { channelMissing }),
			...(suggestions !== undefined && { suggestions }),
		};
	}

	private olderClientNote(editor: ListedEditor): string | undefined {
		const client = suggestingClientOf(editor.state.client);
		if (client.kind !== "older" || !this.deps.hooks.requests?.ownEditors()) return undefined;
		return `inline completions: client ${client.version} does not ask pi (${SUGGESTIONS_SINCE_VERSION} on does)`;
	}

	private target(pid: number): ClientChannelTarget {
		return { dir: this.deps.dir, pid, uid: this.deps.uid, listeningPaths: this.listeningPaths };
	}

	private linkCandidates(projectDir: () => string) {
		const project = projectDir();
		return this.deps.editors().flatMap((editor) =>
			editor.alive && suggestingClientOf(editor.state.client).kind === "asks"
				? [
						{
							key: editor.key,
							target: this.target(editor.pid),
							inProject: scoreTier(editor.paths, project).tier !== undefined,
						},
					]
				: [],
		);
	}
}
