import { realpathSync } from "node:fs";
import * as vscode from "vscode";
import { REQUEST_CANCELLED, REQUEST_CANCELLED_NOTIFICATION } from "../../../src/editors/core/json-rpc.ts";
import type { ClientOffer } from "../../../src/editors/state-dir/core/suggestion-offer.ts";
import { DEFAULT_SECRET_FILE_PATTERNS, secretFileMatcher } from "../../../src/safety/core/secret-files.ts";
import type { PiLog } from "./ask-views.ts";
import type { ChannelPeer } from "./channel-server.ts";
import {
	CONTEXT_CHARS,
	type HeldOffer,
	INVOKED_COUNT,
	noSuggestionReason,
	offerFor,
	suggestionRequest,
	suggestionTexts,
} from "./core/suggestions.ts";

/** The context key the palette's "pi: Suggest Here" shows under: some pi offered itself. */
const OFFERED_CONTEXT = "piIdeContext.suggestionsOffered";

interface Offered extends HeldOffer {
	peer: ChannelPeer;
	/** pi's secret-file globs with the package's defaults, of a document's names: a match never asks. */
	isSecret: (names: readonly string[]) => boolean;
}

/**
 * VS Code's inline completions from pi's model: the provider is registered while at least one pi offered them
 * on its connection and gone with the last; a document asks the pi whose project holds it (the deepest), after
 * typing paused (an automatic trigger) or at once (asked by hand), never about a secret file. VS Code's
 * cancellation reaches pi as `request_cancelled`; a pi that goes answers nothing, at once. What pi answered
 * instead of suggestions (an error, no model, rate limited) goes to the log.
 */
export class InlineSuggestions {
	private readonly offers = new Map<number, Offered>();
	private order = 0;
	private registration?: vscode.Disposable;

	constructor(private readonly log: PiLog) {}

	/** pi's offer (checked) on `peer`'s connection: held while it offers inline completions. */
	offered(peer: ChannelPeer, offer: ClientOffer): void {
		if (!offer.suggestions) {
			this.peerGone(peer);
			return;
		}
		// pi's list holds the defaults already; they count here whatever pi sends.
		const matcher = secretFileMatcher([...new Set([...DEFAULT_SECRET_FILE_PATTERNS, ...offer.secretFiles])]);
		this.offers.set(peer.id, {
			peer,
			offer,
			order: ++this.order,
			isSecret: (names) => matcher(names) !== undefined,
		});
		this.providing(true);
	}

	peerGone(peer: ChannelPeer): void {
		if (this.offers.delete(peer.id)) this.providing(this.offers.size > 0);
	}

	closeAll(): void {
		this.offers.clear();
		this.providing(false);
	}

	private providing(on: boolean): void {
		if (on === (this.registration !== undefined)) return;
		if (on)
			this.registration = vscode.languages.registerInlineCompletionItemProvider(
				{ scheme: "file" },
				{
					provideInlineCompletionItems: (document, position, context, token) =>
						this.provide(document, position, context, token),
				},
			);
		else {
			this.registration?.dispose();
			this.registration = undefined;
		}
		void vscode.commands.executeCommand("setContext", OFFERED_CONTEXT, on);
	}

	private async provide(
		document: vscode.TextDocument,
		position: vscode.Position,
		context: vscode.InlineCompletionContext,
		token: vscode.CancellationToken,
	): Promise<vscode.InlineCompletionItem[] | undefined> {
		const path = document.uri.fsPath;
		// pi's project is a real path; a workspace opened through a link names the document by the link. The
		// selector asks for `file:` documents only.
		const names = [path, realOf(path) ?? path];
		const held = offerFor(this.offers.values(), names);
		if (!held || held.isSecret(names)) return undefined;
		const invoked = context.triggerKind === vscode.InlineCompletionTriggerKind.Invoke;
		// Typing on cancels the token: only the pause after the last key asks pi.
		if (!invoked && !(await paused(held.offer.debounceMs, token))) return undefined;
		if (token.isCancellationRequested || this.offers.get(held.peer.id) !== held) return undefined;
		const count = invoked ? INVOKED_COUNT : 1;
		const offset = document.offsetAt(position);
		const request = suggestionRequest(
			{
				filePath: path,
				language: document.languageId,
				before: document.getText(new vscode.Range(document.positionAt(Math.max(0, offset - CONTEXT_CHARS)), position)),
				after: document.getText(new vscode.Range(position, document.positionAt(offset + CONTEXT_CHARS))),
			},
			count,
		);
		const { id, answer } = held.peer.request("getSuggestions", request, held.offer.timeoutMs);
		const cancel = token.onCancellationRequested(() => held.peer.notify(REQUEST_CANCELLED_NOTIFICATION, { id }));
		const answered = await answer;
		cancel.dispose();
		if (token.isCancellationRequested) return undefined;
		const why = answered.ok
			? noSuggestionReason(answered.result)
			: answered.code === REQUEST_CANCELLED
				? undefined
				: answered.reason;
		if (why !== undefined)
			this.log.line(`pi ${held.offer.pid}: inline completion: ${why}`, answered.ok ? "info" : "error");
		if (!answered.ok) return undefined;
		// Each item replaces the line up to the cursor with itself: VS Code keeps it while the user types it on.
		const prefix = document.lineAt(position.line).text.slice(0, position.character);
		const range = new vscode.Range(position.line, 0, position.line, position.character);
		return suggestionTexts(answered.result, count).map((text) => new vscode.InlineCompletionItem(prefix + text, range));
	}
}

/** True once `ms` passed with the token untouched; false as soon as it is cancelled. */
function paused(ms: number, token: vscode.CancellationToken): Promise<boolean> {
	if (token.isCancellationRequested) return Promise.resolve(false);
	return new Promise((resolve) => {
		const timer = setTimeout(() => {
			cancelled.dispose();
			resolve(!token.isCancellationRequested);
		}, ms);
		const cancelled = token.onCancellationRequested(() => {
			clearTimeout(timer);
			cancelled.dispose();
			resolve(false);
		});
	});
}

/** The file behind a symlink: a secret file is one by either name. */
function realOf(path: string): string | undefined {
	try {
		return realpathSync(path);
	} catch {
		return undefined;
	}
}
