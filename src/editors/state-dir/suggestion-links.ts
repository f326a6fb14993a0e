import { runInBackground } from "../../shared/background.ts";
import type { Clock } from "../../shared/core/clock.ts";
import { IDE_REQUEST_TIMEOUT_MS, SUGGEST_LINK_RETRY_MAX_MS, SUGGEST_LINK_RETRY_MS } from "../../shared/core/timing.ts";
import { type BoundRequests, boundRequests, type EditorRequests } from "../editor-source.ts";
import {
	type ClientChannel,
	type ClientChannelOpen,
	type ClientChannelOptions,
	type ClientChannelTarget,
	connectClientChannel,
} from "./client-channel.ts";
import { OFFER_SUGGESTIONS_METHOD, readOffer, type SuggestionOffer } from "./core/suggestion-offer.ts";

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
	| { state: "connecting"; stop: AbortController; failures: number }
	| { state: "offered"; channel: ClientChannel }
	| { state: "failed"; reason: string; retryAtMs: number; failures: number };

/**
 * The standing connections that let VS Code windows ask pi for inline completions: while suggestions are on
 * (`ownEditors()`), one to each live client working in pi's project (kept once made, whatever file the window
 * shows next), pi offered on it; closed when suggestions go off, the window goes, or the source closes. Each
 * connection's requests go to the suggestions' feature under the editor's key. A link that fails is tried again
 * later, each time later (SUGGEST_LINK_RETRY_MS doubling).
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
			if (!link) this.open(candidate, 0);
			else if (link.state === "failed" && nowMs >= link.retryAtMs) this.open(candidate, link.failures);
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

	/** Every link closed, every connection under way given up and ended. */
	async close(): Promise<void> {
		this.closed = true;
		this.stopListening();
		for (const [key, link] of this.links) this.drop(key, link);
		await Promise.allSettled([...this.openings]);
	}

	private drop(key: string, link: Link): void {
		this.links.delete(key);
		if (link.state === "offered") link.channel.close();
		if (link.state === "connecting") link.stop.abort();
		this.deps.changed();
	}

	private open(candidate: LinkCandidate, failures: number): void {
		const link: Link = { state: "connecting", stop: new AbortController(), failures };
		this.links.set(candidate.key, link);
		const opening = runInBackground("vscode suggestions link", async () => {
			try {
				await this.connect(candidate, link);
			} catch (error) {
				if (this.links.get(candidate.key) === link) this.fail(candidate.key, link, `failed: ${String(error)}`);
			}
		});
		this.openings.add(opening);
		void opening.finally(() => this.openings.delete(opening));
	}

	private async connect({ key, target }: LinkCandidate, link: Link & { state: "connecting" }): Promise<void> {
		const current = () => !this.closed && this.links.get(key) === link;
		const offer = readOffer(this.deps.offer());
		if (!offer.ok) return this.fail(key, link, `pi's offer is not one the client takes: ${offer.reason}`);
		const connect = this.deps.connect ?? connectClientChannel;
		let offered = false;
		const opened = await connect(target, {
			requests: offeredOnly(boundRequests(this.deps.requests, key), () => offered),
			signal: link.stop.signal,
		});
		if (!opened.ok) return current() ? this.fail(key, link, opened.reason) : undefined;
		const channel = opened.caller;
		try {
			if (!current()) return;
			const answer = await channel.ask(OFFER_SUGGESTIONS_METHOD, offer.offer, IDE_REQUEST_TIMEOUT_MS);
			if (!current()) return;
			if (!answer.ok) return this.fail(key, link, `the client did not take the offer: ${answer.reason}`);
			offered = true;
			const live: Link = { state: "offered", channel };
			this.links.set(key, live);
			this.deps.changed();
			const reason = await channel.whenClosed();
			if (!this.closed && this.links.get(key) === live) this.fail(key, { failures: 0 }, reason);
		} finally {
			// An offered channel is closed by now (its end was awaited) or belongs to the live link.
			if (!offered) channel.close();
		}
	}

	private fail(key: string, link: { failures: number }, reason: string): void {
		const failures = link.failures + 1;
		const delayMs = Math.min(SUGGEST_LINK_RETRY_MS * 2 ** (failures - 1), SUGGEST_LINK_RETRY_MAX_MS);
		this.links.set(key, { state: "failed", reason, retryAtMs: this.deps.clock.nowMs() + delayMs, failures });
		this.deps.changed();
	}
}

/**
 * The editor's requests, its end passed on only once pi's offer was taken on that connection: a connection given
 * up while connecting (off and on again quickly) must not abort what the link made after it asked.
 */
function offeredOnly(requests: BoundRequests, offered: () => boolean): BoundRequests {
	return {
		answer: requests.answer,
		cancelled: requests.cancelled,
		gone: () => {
			if (offered()) requests.gone();
		},
	};
}
