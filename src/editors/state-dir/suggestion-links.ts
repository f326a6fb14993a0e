import { runInBackground } from "../../shared/background.ts";
import type { Clock } from "../../shared/core/clock.ts";
import { IDE_REQUEST_TIMEOUT_MS, SUGGEST_LINK_RETRY_MS } from "../../shared/core/timing.ts";
import { boundRequests, type EditorRequests } from "../editor-source.ts";
import {
	type ClientChannel,
	type ClientChannelOpen,
	type ClientChannelOptions,
	type ClientChannelTarget,
	connectClientChannel,
} from "./client-channel.ts";
import { OFFER_SUGGESTIONS_METHOD, type SuggestionOffer } from "./core/suggestion-offer.ts";

/** A VS Code client that could be offered inline completions: its key, its channel, and whether it works in pi's project. */
export interface LinkCandidate {
	key: string;
	target: ClientChannelTarget;
	inProject: boolean;
}

export interface SuggestionLinksDeps {
	requests: EditorRequests;
	/** The live clients of 0.5.0 on with a channel, as the dir lists them now. */
	candidates: () => LinkCandidate[];
	/** What pi offers, as it is when a link is made. */
	offer: () => SuggestionOffer;
	clock: Clock;
	/** `/ide status` shows something new. */
	changed: () => void;
	/** The connection (tests may wrap it); the client's channel by default. */
	connect?: (target: ClientChannelTarget, options: ClientChannelOptions) => Promise<ClientChannelOpen>;
}

type Link =
	| { state: "connecting" }
	| { state: "offered"; channel: ClientChannel }
	| { state: "failed"; reason: string; atMs: number };

/**
 * The standing connections that let VS Code windows ask pi for inline completions: while suggestions are on
 * (`ownEditors()`), one to each live client working in pi's project (kept once made, whatever file the window
 * shows next), pi offered on it; closed when suggestions go off, the window goes, or the source closes. Each
 * connection's requests go to the suggestions' feature under the editor's key.
 */
export class SuggestionLinks {
	private readonly links = new Map<string, Link>();
	private readonly openings = new Set<Promise<void>>();
	private readonly stopListening: () => void;
	private closed = false;

	constructor(private readonly deps: SuggestionLinksDeps) {
		this.stopListening = deps.requests.onStandingChange(() => this.update());
	}

	/** Makes the links what is wanted now: cheap when nothing changed (a cursor move), as it runs on every change. */
	update(): void {
		if (this.closed) return;
		const wanted = new Map<string, LinkCandidate>();
		if (this.deps.requests.ownEditors())
			for (const candidate of this.deps.candidates())
				if (candidate.inProject || this.links.has(candidate.key)) wanted.set(candidate.key, candidate);
		for (const [key, link] of this.links) if (!wanted.has(key)) this.drop(key, link);
		const nowMs = this.deps.clock.nowMs();
		for (const [key, candidate] of wanted) {
			const link = this.links.get(key);
			if (!link || (link.state === "failed" && nowMs - link.atMs >= SUGGEST_LINK_RETRY_MS)) this.open(candidate);
		}
	}

	/** For `/ide status`: that client's link, or undefined when pi keeps none to it. */
	statusOf(key: string): string | undefined {
		const link = this.links.get(key);
		if (!link) return undefined;
		if (link.state === "offered") return "inline completions: offered (VS Code asks pi as you type)";
		if (link.state === "connecting") return "inline completions: connecting";
		return `inline completions: not offered: ${link.reason}`;
	}

	/** Every link closed, every connection under way ended. */
	async close(): Promise<void> {
		this.closed = true;
		this.stopListening();
		for (const [key, link] of this.links) this.drop(key, link);
		await Promise.allSettled([...this.openings]);
	}

	private drop(key: string, link: Link): void {
		this.links.delete(key);
		if (link.state === "offered") link.channel.close();
		this.deps.changed();
	}

	private open(candidate: LinkCandidate): void {
		const link: Link = { state: "connecting" };
		this.links.set(candidate.key, link);
		const opening = runInBackground("vscode suggestions link", () => this.connect(candidate, link));
		this.openings.add(opening);
		void opening.finally(() => this.openings.delete(opening));
	}

	private async connect({ key, target }: LinkCandidate, link: Link): Promise<void> {
		const current = () => !this.closed && this.links.get(key) === link;
		const connect = this.deps.connect ?? connectClientChannel;
		const opened = await connect(target, { requests: boundRequests(this.deps.requests, key) });
		if (!opened.ok) {
			if (current()) this.fail(key, opened.reason);
			return;
		}
		const channel = opened.caller;
		const offered = current()
			? await channel.ask(OFFER_SUGGESTIONS_METHOD, this.deps.offer(), IDE_REQUEST_TIMEOUT_MS)
			: undefined;
		if (!offered?.ok || !current()) {
			channel.close();
			if (offered && !offered.ok && current()) this.fail(key, `the client did not take the offer: ${offered.reason}`);
			return;
		}
		const live: Link = { state: "offered", channel };
		this.links.set(key, live);
		this.deps.changed();
		const reason = await channel.whenClosed();
		if (!this.closed && this.links.get(key) === live) this.fail(key, reason);
	}

	private fail(key: string, reason: string): void {
		this.links.set(key, { state: "failed", reason, atMs: this.deps.clock.nowMs() });
		this.deps.changed();
	}
}
