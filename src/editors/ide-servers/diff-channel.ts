import { type EditorChannel, NO_CHANNEL_REASONS } from "../diff-channels.ts";
import type { ToolCaller } from "../tool-caller.ts";
import type { IdeServerSession } from "./session.ts";

/** The open connection to an IDE server as the review asks it (`openDiff`, `close_tab`). */
function toolCallerOf(session: IdeServerSession): ToolCaller {
	const closed = session.whenClosed();
	return {
		callTool: (name, args, timeoutMs) => session.callTool(name, args, timeoutMs ?? Number.POSITIVE_INFINITY),
		offers: (name) => session.offers(name),
		// The servers' own notifications are the session's; an openDiff's answer is all a review waits for.
		onNotification: () => () => {},
		whenClosed: async () => {
			const end = await closed;
			return end
				? `the server closed the connection (code ${end.code}${end.reason ? ` ${end.reason}` : ""})`
				: "not connected";
		},
	};
}

/** Its server's own diff viewer (`openDiff`) over pi's open connection, or why there is none. */
export function ideServerDiffChannel(session: IdeServerSession | undefined): EditorChannel {
	if (!session?.isOpen) return { kind: "none", reason: NO_CHANNEL_REASONS["ide-server"] };
	if (!session.offers("openDiff")) return { kind: "none", reason: "its IDE server does not offer openDiff" };
	return { kind: "ide-server", caller: toolCallerOf(session) };
}
