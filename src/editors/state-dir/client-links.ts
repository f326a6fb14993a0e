import { runInBackground } from "../../shared/background.ts";
import type { Clock } from "../../shared/core/clock.ts";
import { IDE_REQUEST_TIMEOUT_MS, SUGGEST_LINK_RETRY_MAX_MS, SUGGEST_LINK_RETRY_MS } from "../../shared/core/timing.ts";
import type { EditorAsks } from "../editor-asks.ts";
import type { EditorRequests } from "../editor-source.ts";
import {
	type ClientChannel,
	type ClientChannelOpen,
	type ClientChannelOptions,
	type ClientChannelTarget,
	connectClientChannel,
} from "./client-channel.ts";
import { type LinkOffers, linkOffers, linkStatusText } from "./core/client-links.ts";
import { type ClientOffer, OFFER_METHOD, type OfferRead, readOffer } from "./core/suggestion-offer.ts";
import { LinkWire } from "./link-wire.ts";

/** A VS Code client that could be offered inline completions or asks: its key, its channel, and what it is to pi. */
export interface LinkCandidate {
	key: string;
	target: ClientChannelTarget;
	/** It works in pi's project (a link once made stays, whatever the window shows next). */
	inProject: boolean;
	/** The client sends asks (0.6.0 on); an older one only asks for inline completions. */
	asks: boolean;
	/** How pi names the window to the user: `VS Code 4242`. */
	label: string;
	/** pi is connected to this window now: the offer says so (its asks go to this pi first). */
	connected: boolean;
	/** Why its window cannot show pi's questions (a client older than 0.7.0): they stay in pi. */
	noQuestions?: string;
}

export interface ClientLinksDeps {
	/** Where the windows' requests for inline completions go; none: they are never offered. */
	requests?: EditorRequests;
	/** Where the windows' asks go; none: they are never offered. */
	asks?: EditorAsks;
	/** The live clients of 0.5.0 on with a channel, as the dir lists them now. */
	candidates: () => LinkCandidate[];
	/** pi's part of every offer (its project, pid and the suggestions' settings), as it is now. */
	offer: () => Omit<ClientOffer, keyof LinkOffers | "connected">;
	clock: Clock;
	/** `/ide status` shows something new. */
	changed: () => void;
	/** The connection (tests may wrap it); the client's channel by default. */
	connect?: (target: ClientChannelTarget, options: ClientChannelOptions) => Promise<ClientChannelOpen>;
}

type Link =
	| { state: "connecting"; stop: AbortController; failures: number; offers: LinkOffers }
	| { state: "offered"; wire: LinkWire; channel: ClientChannel }
	| { state: "failed"; reason: string; retryAtMs: number; failures: number; offers: LinkOffers };

/**
 * The standing connections over which VS Code windows ask pi for inline completions and send it asks: while
 * suggestions or asks are on, one to each live client working in pi's project (kept once made, whatever file the
 * window shows next), pi offered on it, and offered again when what it offers changes (suggestions turned off,
 * pi connected to that window); closed when neither is on any more, the window goes, or the source closes. Each
 * connection's requests go to the suggestions' feature or the asks' under the editor's key (link-wire.ts). A
 * link that fails is tried again later, each time later (SUGGEST_LINK_RETRY_MS doubling).
 */
export class ClientLinks {
	private readonly links = new Map<string, Link>();
	private readonly openings = new Set<Promise<void>>();
	private readonly stopListening: () => void;
	private closed = false;

	constructor(private readonly deps: ClientLinksDeps) {
		this.stopListening = deps.requests?.onStandingChange(() => this.update()) ?? (() => {});
	}

	/** Makes the links what is wanted now: cheap when nothing changed (a cursor move), as it runs on every change. */
	update(): void {
		if (this.closed) return;
		const on = { suggestions: this.deps.requests?.ownEditors() === true, asks: this.deps.asks?.on() === true };
		const wanted = new Map<string, { candidate: LinkCandidate; offers: LinkOffers }>();
		if (on.suggestions || on.asks)
			for (const candidate of this.deps.candidates()) {
				const offers = linkOffers(on, candidate);
				if (offers && (candidate.inProject || this.links.has(candidate.key)))
					wanted.set(candidate.key, { candidate, offers });
			}
		for (const [key, link] of this.links) if (!wanted.has(key)) this.drop(key, link);
		const nowMs = this.deps.clock.nowMs();
		for (const [key, { candidate, offers }] of wanted) {
			const link = this.links.get(key);
			if (!link) this.open(candidate, offers, 0);
			else if (link.state === "offered") this.offerAgain(key, link, this.offerOf(candidate, offers));
			else if (link.state === "failed" && nowMs >= link.retryAtMs) this.open(candidate, offers, link.failures);
			else link.offers = offers;
		}
	}

	/** For `/ide status`: that client's link, or undefined when pi keeps none to it. */
	statusOf(key: string): string | undefined {
		const link = this.links.get(key);
		if (!link) return undefined;
		if (link.state === "offered") return linkStatusText({ state: "offered", offers: link.wire.offers() });
		return linkStatusText(link);
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

	private offerOf(candidate: LinkCandidate, offers: LinkOffers): OfferRead {
		return readOffer({ ...this.deps.offer(), ...offers, connected: candidate.connected });
	}

	private open(candidate: LinkCandidate, offers: LinkOffers, failures: number): void {
		const link: Link = { state: "connecting", stop: new AbortController(), failures, offers };
		this.links.set(candidate.key, link);
		const opening = runInBackground("vscode client link", async () => {
			try {
				await this.connect(candidate, link);
			} catch (error) {
				if (this.links.get(candidate.key) === link) this.fail(candidate.key, link, `failed: ${String(error)}`);
			}
		});
		this.openings.add(opening);
		void opening.finally(() => this.openings.delete(opening));
	}

	private async connect(candidate: LinkCandidate, link: Link & { state: "connecting" }): Promise<void> {
		const { key, target } = candidate;
		const current = () => !this.closed && this.links.get(key) === link;
		const offer = this.offerOf(candidate, link.offers);
		if (!offer.ok) return this.fail(key, link, `pi's offer is not one the client takes: ${offer.reason}`);
		const connect = this.deps.connect ?? connectClientChannel;
		const wire = new LinkWire(candidate, this.deps);
		const opened = await connect(target, { requests: wire, signal: link.stop.signal });
		if (!opened.ok) return current() ? this.fail(key, link, opened.reason) : undefined;
		const channel = opened.caller;
		wire.connected(channel);
		let live: Link | undefined;
		try {
			if (!current()) return;
			const answer = await channel.ask(OFFER_METHOD, wire.sending(offer.offer), IDE_REQUEST_TIMEOUT_MS);
			if (!current()) return;
			if (!answer.ok) return this.fail(key, link, `the client did not take the offer: ${answer.reason}`);
			wire.took(offer.offer);
			live = { state: "offered", wire, channel };
			this.links.set(key, live);
			this.deps.changed();
			// What changed while it connected (pi connected to this window meanwhile) is offered at once.
			this.update();
			const reason = await channel.whenClosed();
			if (!this.closed && this.links.get(key) === live) this.fail(key, { failures: 0, offers: link.offers }, reason);
		} finally {
			// An offered channel is closed by now (its end was awaited) or belongs to the live link.
			if (!live) channel.close();
		}
	}

	/** The offer changed (suggestions off or on, connected or not): sent again; refused, the link ends. */
	private offerAgain(key: string, link: Link & { state: "offered" }, offer: OfferRead): void {
		const { wire, channel } = link;
		const end = (reason: string) => {
			this.fail(key, { failures: 0, offers: wire.offers() }, reason);
			channel.close();
		};
		if (!offer.ok) {
			end(`pi's offer is not one the client takes: ${offer.reason}`);
			return;
		}
		if (!wire.changes(offer.offer)) return;
		void runInBackground("vscode client offer", async () => {
			const answer = await channel.ask(OFFER_METHOD, wire.sending(offer.offer), IDE_REQUEST_TIMEOUT_MS);
			if (this.closed || this.links.get(key) !== link) return;
			if (!answer.ok) return end(`the client did not take the offer: ${answer.reason}`);
			wire.took(offer.offer);
			this.deps.changed();
		});
	}

	private fail(key: string, link: { failures: number; offers: LinkOffers }, reason: string): void {
		const failures = link.failures + 1;
		const delayMs = Math.min(SUGGEST_LINK_RETRY_MS * 2 ** (failures - 1), SUGGEST_LINK_RETRY_MAX_MS);
		this.links.set(key, {
			state: "failed",
			reason,
			retryAtMs: this.deps.clock.nowMs() + delayMs,
			failures,
			offers: link.offers,
		});
		this.deps.changed();
	}
}
