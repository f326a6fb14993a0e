import { show } from "../../../shared/core/display-text.ts";
import { VSCODE_CLIENT_NAME, versionAtLeast, vscodeClientVersion } from "../../core/clients.ts";

/**
 * The shipped VS Code client's way back: a unix socket `<pid>.sock` beside its `<pid>.json`, in the same 0700
 * state dir (never `~/.pi/ide`: the pi-ide peer routes every write through any server it finds there).
 */
export const channelSocketName = (pid: number) => `${pid}.sock`;

/** The client version that first listens on the socket. */
export const CHANNEL_SINCE_VERSION = "0.4.0";

/** How the client names itself in `initialize`'s `serverInfo`: another server on the socket is not it. */
export const CHANNEL_SERVER_NAME = VSCODE_CLIENT_NAME;

/** What a state file's `client` says of the channel: this package's client with it, without it, or not this package's. */
export type ChannelClient = { kind: "channel" } | { kind: "without-channel"; version: string } | { kind: "other" };

export function channelClientOf(client: string | undefined): ChannelClient {
	const version = vscodeClientVersion(client);
	if (version === undefined) return { kind: "other" };
	return versionAtLeast(version, CHANNEL_SINCE_VERSION) ? { kind: "channel" } : { kind: "without-channel", version };
}

/** The client version that first asks pi for inline completions over the channel. */
export const SUGGESTIONS_SINCE_VERSION = "0.5.0";

/** The client version that first sends pi asks ("pi: Ask…") over the channel. */
export const ASKS_SINCE_VERSION = "0.6.0";

/** The client version that first shows pi's questions (a quick pick, a notice) and answers them (`answer`, `dismiss`). */
export const QUESTIONS_SINCE_VERSION = "0.7.0";

/** What a state file's `client` says of one thing a client does from some version on: it does, an older one, or none. */
export type ClientSince = { kind: "does" } | { kind: "older"; version: string } | { kind: "other" };

/** This package's client at `since` or later (`does`), before it (`older`), or not this package's (`other`). */
export function clientSince(client: string | undefined, since: string): ClientSince {
	const version = vscodeClientVersion(client);
	if (version === undefined) return { kind: "other" };
	return versionAtLeast(version, since) ? { kind: "does" } : { kind: "older", version };
}

/** Whether the client asks pi for inline completions (0.5.0 on). */
export const suggestingClientOf = (client: string | undefined) => clientSince(client, SUGGESTIONS_SINCE_VERSION);

/** Whether the client sends pi asks (0.6.0 on). */
export const askingClientOf = (client: string | undefined) => clientSince(client, ASKS_SINCE_VERSION);

/** Whether the client shows pi's questions (0.7.0 on). */
export const questioningClientOf = (client: string | undefined) => clientSince(client, QUESTIONS_SINCE_VERSION);

/**
 * Why a window that sends asks cannot show pi's questions (the asking editor's `noQuestions`: they stay in pi and
 * `/ide status` says this), or undefined when it can. The version is the state file's word: shown made safe.
 */
export function noQuestionsReason(client: string | undefined): string | undefined {
	const since = questioningClientOf(client);
	if (since.kind !== "older") return undefined;
	return `VS Code client ${show(since.version, 40)}; ${QUESTIONS_SINCE_VERSION} shows pi's questions`;
}

/** Why the editor's state file names no channel to connect to, for `/ide status`; undefined when it has one. */
export function missingChannelText(client: ChannelClient, socketProblem: string | undefined): string | undefined {
	if (client.kind === "without-channel")
		return `client ${client.version} has no review channel: update with /ide install vscode`;
	if (client.kind === "channel" && socketProblem !== undefined)
		return `review channel: ${socketProblem}: update with /ide install vscode`;
	return undefined;
}
