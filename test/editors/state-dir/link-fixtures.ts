/**
 * What the links' tests share (client-links*.test.ts): pi's two features as they are handed to sources
 * (switchable, every call recorded), and the client's real channel server listening in a real 0700 dir, as a
 * VS Code window's would, recording pi's offers, its notifications and its going.
 */
import { chmodSync } from "node:fs";
import { join } from "node:path";
import { type ChannelPeer, listenChannel } from "../../../clients/vscode/src/channel-server.ts";
import type { AskMethod } from "../../../src/editors/core/ask-methods.ts";
import type { AskingEditor, EditorAsks } from "../../../src/editors/editor-asks.ts";
import type { EditorRequest, EditorRequests } from "../../../src/editors/editor-source.ts";
import { tempDir } from "../../support/temp-dir.ts";

/** The suggestions' side as pi's feature gives it to sources: switchable, every call recorded. */
export function suggestionsFeature(on: boolean) {
	let own = on;
	const listeners = new Set<() => void>();
	const seen = {
		answered: [] as [string, EditorRequest][],
		cancelled: [] as [string, number | string][],
		gone: [] as string[],
	};
	const requests: EditorRequests = {
		wanted: () => own,
		ownEditors: () => own,
		onStandingChange: (listener) => {
			listeners.add(listener);
			return () => listeners.delete(listener);
		},
		answer: async (editorKey, request) => {
			seen.answered.push([editorKey, request]);
			return { result: { suggestions: ["42;"] } };
		},
		cancelled: (editorKey, id) => seen.cancelled.push([editorKey, id]),
		gone: (editorKey) => seen.gone.push(editorKey),
	};
	const set = (next: boolean) => {
		own = next;
		for (const listener of [...listeners]) listener();
	};
	return { requests, seen, set, listeners };
}

/** The asks' side as pi's feature gives it to sources: on or off, every message and going recorded. */
export function asksFeature(on: boolean) {
	const seen = {
		received: [] as { editor: AskingEditor; method: AskMethod; params: unknown }[],
		gone: [] as string[],
	};
	const asks: EditorAsks = {
		on: () => on,
		received: (editor, method, params) => seen.received.push({ editor, method, params }),
		gone: (key) => seen.gone.push(key),
	};
	return { asks, seen };
}

export const accept = () => ({ result: { accepted: true } });
export const OFFER = { debounceMs: 300, timeoutMs: 17_000, secretFiles: [".env", "*.pem"] };

/** A 0700 dir with the client's channel server of this process listening in it, as VS Code's would. */
export async function clientListening(
	cleanups: (() => unknown)[],
	offer: (params: unknown) => { result: unknown } | { code: number; message: string },
) {
	const root = tempDir("client-links");
	cleanups.push(root.cleanup);
	chmodSync(root.path, 0o700);
	const offers: { peer: ChannelPeer; params: unknown }[] = [];
	const news: { peer: ChannelPeer; method: string; params: unknown }[] = [];
	const gone: ChannelPeer[] = [];
	const started = await listenChannel(join(root.path, `${process.pid}.sock`), "0.6.0", {
		callTool: async () => ({ result: {} }),
		peerGone: (peer) => gone.push(peer),
		offered: (peer, params) => {
			offers.push({ peer, params });
			return offer(params);
		},
		notified: (peer, method, params) => news.push({ peer, method, params }),
	});
	if (!started.ok) throw new Error(started.reason);
	cleanups.push(started.close);
	return { dir: root.path, offers, news, gone, close: started.close };
}
