import { isAskMethod } from "../core/ask-methods.ts";
import { METHOD_NOT_FOUND } from "../core/json-rpc.ts";
import type { AskingEditor, AskNews, EditorAsks } from "../editor-asks.ts";
import type { BoundRequests, EditorRequest, EditorRequestAnswer, EditorRequests } from "../editor-source.ts";
import type { ClientChannel } from "./client-channel.ts";
import type { LinkOffers } from "./core/client-links.ts";
import { ASK_NEWS_METHOD, type ClientOffer } from "./core/suggestion-offer.ts";

const NONE: LinkOffers = { suggestions: false, asks: false };

/**
 * One standing connection's way into pi: the window's requests go to the suggestions' feature (`getSuggestions`,
 * its cancels) or to the asks' (`ask`, `add`, `stop`, `reply`, `replyClosed`, and a question's `answer` and
 * `dismiss`) under the window's key, each only while pi's latest offer on it offers that; the asks' news (pi's
 * questions among them) go back as `pi/askNews` notifications on the same connection. The connection's end reaches the features only once the client took an offer: a connection
 * given up while it was made (off and on again quickly) must not end what the link made after it.
 */
export class LinkWire implements BoundRequests {
	/** The window as the asks know it: its key, its name, and news sent back on this connection. */
	readonly editor: AskingEditor;
	private readonly key: string;
	private channel?: ClientChannel;
	/** The latest offer sent (what the client's requests are judged by) and the latest it took. */
	private sent?: { offer: ClientOffer; text: string };
	private taken?: ClientOffer;

	/** `window`: its key, its name and, for a client older than 0.7.0, why it shows none of pi's questions. */
	constructor(
		window: Pick<AskingEditor, "key" | "label" | "noQuestions">,
		private readonly features: { requests?: EditorRequests; asks?: EditorAsks },
	) {
		this.key = window.key;
		this.editor = {
			key: window.key,
			label: window.label,
			tell: (news) => this.tell(news),
			...(window.noQuestions !== undefined && { noQuestions: window.noQuestions }),
		};
	}

	/** The connection was made: the news go on it. */
	connected(channel: ClientChannel): void {
		this.channel = channel;
	}

	/** The offer about to be sent: from now on the window's requests are judged by it. */
	sending(offer: ClientOffer): ClientOffer {
		this.sent = { offer, text: JSON.stringify(offer) };
		return offer;
	}

	/** Whether `offer` differs from the one sent last (else nothing is sent again). */
	changes(offer: ClientOffer): boolean {
		return JSON.stringify(offer) !== this.sent?.text;
	}

	/** The client took `offer`: what it no longer offers ends for that window. */
	took(offer: ClientOffer): void {
		const before = this.taken;
		this.taken = offer;
		if (before?.suggestions && !offer.suggestions) this.features.requests?.gone(this.key);
		if (before?.asks && !offer.asks) this.features.asks?.gone(this.key);
	}

	/** What the client took last: `/ide status` says it. */
	offers(): LinkOffers {
		return this.taken ? { suggestions: this.taken.suggestions, asks: this.taken.asks } : NONE;
	}

	readonly answer = async (request: EditorRequest): Promise<EditorRequestAnswer> => {
		const { requests, asks } = this.features;
		const offered = this.sent?.offer ?? NONE;
		if (isAskMethod(request.method)) {
			if (!asks || !offered.asks) return notOffered("asks");
			// Answered at once: what became of it reaches the window as news.
			asks.received(this.editor, request.method, request.params);
			return { result: {} };
		}
		if (!requests || !offered.suggestions) return notOffered("inline completions");
		return requests.answer(this.key, request);
	};

	cancelled(id: number | string): void {
		this.features.requests?.cancelled(this.key, id);
	}

	gone(): void {
		if (this.taken?.suggestions) this.features.requests?.gone(this.key);
		if (this.taken?.asks) this.features.asks?.gone(this.key);
	}

	/** Never throws, never waits: a window gone meanwhile (or one that reads nothing) gets nothing. */
	private tell(news: AskNews): void {
		try {
			this.channel?.notify(ASK_NEWS_METHOD, news);
		} catch {
			// Nothing of pi's may fail for a window's sake.
		}
	}
}

const notOffered = (what: string): EditorRequestAnswer => ({
	error: { code: METHOD_NOT_FOUND, message: `pi offers no ${what} on this connection` },
});
