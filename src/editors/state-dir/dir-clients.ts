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
import { ClientLinks, type LinkCandidate } from "./client-links.ts";
import {
	askingClientOf,
	channelClientOf,
	noQuestionsReason,
	questioningClientOf,
	suggestingClientOf,
} from "./core/client-channel.ts";
import { clientLabel, olderClientNotes } from "./core/client-links.ts";
import type { OfferSettings } from "./core/suggestion-offer.ts";

/** What the state dir says of this package's VS Code clients beside each file in `/ide status`. */
export interface ClientNotes {
	/** A live editor of this package's VS Code client that has no review channel pi could use, and what to do. */
	channelMissing?: string;
	/**
	 * Its standing link: the inline completions and asks pi offered it, connecting, why not, or what an older
	 * client cannot do (the name is the field's from before asks: `/ide status` shows it on the file's line).
	 */
	suggestions?: string;
}

/**
 * What pi offers VS Code windows (inline completions, asks), the project that decides which windows, and the
 * editor pi is connected to (the offer tells the window; none: never connected).
 */
export interface ClientSuggestionOptions {
	projectDir: () => string;
	connectedKey?: () => string | undefined;
	offer: OfferSettings;
}

export interface DirClientsDeps {
	dir: string;
	uid: number;
	facts: Pick<ProcessFacts, "listeningUnixPaths">;
	/** The dir's editors now (the links are made to live ones). */
	editors: () => ListedEditor[];
	suggestions?: ClientSuggestionOptions;
	/** The source's hooks: its clock, what changed, and where editors' requests and asks go. */
	hooks: Pick<SourceHooks, "clock" | "changed" | "requests" | "asks">;
}

/**
 * What pi reaches of the VS Code clients (this package's, 0.4.0 on) that write into one state dir: the socket a
 * review connects to for one diff, and (0.5.0 on, while suggestions or asks are on) the standing links over
 * which a window asks pi for inline completions and (0.6.0 on) sends it asks (and, 0.7.0 on, answers pi's questions).
 */
export class DirClients {
	private readonly links?: ClientLinks;
	private readonly listeningPaths: (pid: number) => Promise<readonly string[]>;

	constructor(private readonly deps: DirClientsDeps) {
		this.listeningPaths = async (pid) => (await deps.facts.listeningUnixPaths([pid])).byPid.get(pid) ?? [];
		const { suggestions } = deps;
		const { requests, asks } = deps.hooks;
		if ((requests || asks) && suggestions)
			this.links = new ClientLinks({
				...(requests && { requests }),
				...(asks && { asks }),
				candidates: () => this.linkCandidates(suggestions),
				offer: () => ({ ...suggestions.offer, project: suggestions.projectDir(), pid: process.pid }),
				clock: deps.hooks.clock,
				changed: deps.hooks.changed,
			});
	}

	/** The dir's editors changed, the source re-checks, or pi's connection changed: the links follow. */
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

	/** For `/ide status`: one lstat per live client for its review channel, and its link (or what it cannot do). */
	notesOf(editor: ListedEditor): ClientNotes {
		const channelMissing = missingChannelNow(this.target(editor.pid), editor.state.client);
		const link = this.links?.statusOf(editor.key);
		const { requests, asks } = this.deps.hooks;
		const on = { suggestions: requests?.ownEditors() === true, asks: asks?.on() === true };
		const client = {
			suggesting: suggestingClientOf(editor.state.client),
			asking: askingClientOf(editor.state.client),
			questioning: questioningClientOf(editor.state.client),
		};
		const notes = [...(link === undefined ? [] : [link]), ...olderClientNotes(on, client)];
		return {
			...(channelMissing !== undefined && { channelMissing }),
			...(notes.length > 0 && { suggestions: notes.join("; ") }),
		};
	}

	private target(pid: number): ClientChannelTarget {
		return { dir: this.deps.dir, pid, uid: this.deps.uid, listeningPaths: this.listeningPaths };
	}

	private linkCandidates(options: ClientSuggestionOptions): LinkCandidate[] {
		const project = options.projectDir();
		const connected = options.connectedKey?.();
		return this.deps.editors().flatMap((editor): LinkCandidate[] => {
			if (!editor.alive || suggestingClientOf(editor.state.client).kind !== "does") return [];
			const noQuestions = noQuestionsReason(editor.state.client);
			return [
				{
					key: editor.key,
					target: this.target(editor.pid),
					inProject: scoreTier(editor.paths, project).tier !== undefined,
					asks: askingClientOf(editor.state.client).kind === "does",
					label: clientLabel(editor.state.app, editor.pid),
					connected: editor.key === connected,
					...(noQuestions !== undefined && { noQuestions }),
				},
			];
		});
	}
}
