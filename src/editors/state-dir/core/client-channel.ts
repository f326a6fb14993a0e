import { VSCODE_CLIENT_NAME } from "../../core/clients.ts";

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
	const prefix = `${VSCODE_CLIENT_NAME}/`;
	if (!client?.startsWith(prefix)) return { kind: "other" };
	const version = client.slice(prefix.length);
	const installed = versionParts(version);
	const since = versionParts(CHANNEL_SINCE_VERSION) ?? [];
	if (!installed) return { kind: "without-channel", version };
	for (let index = 0; index < 3; index++) {
		const a = installed[index] ?? 0;
		const b = since[index] ?? 0;
		if (a !== b) return a > b ? { kind: "channel" } : { kind: "without-channel", version };
	}
	return { kind: "channel" };
}

function versionParts(version: string): number[] | undefined {
	const match = /^(\d+)\.(\d+)\.(\d+)/.exec(version);
	return match ? [Number(match[1]), Number(match[2]), Number(match[3])] : undefined;
}

/** Why the editor's state file names no channel to connect to, for `/ide status`; undefined when it has one. */
export function missingChannelText(client: ChannelClient, socketProblem: string | undefined): string | undefined {
	if (client.kind === "without-channel")
		return `client ${client.version} has no review channel: update with /ide install vscode`;
	if (client.kind === "channel" && socketProblem !== undefined)
		return `review channel: ${socketProblem}: update with /ide install vscode`;
	return undefined;
}
