import type { ToolCaller } from "../../editors/tool-caller.ts";
import { IDE_REQUEST_TIMEOUT_MS } from "../../shared/core/timing.ts";
import type { DiffHost, DiffRequest, DiffView } from "../core/diff-host.ts";
import { diffNotificationOf, openDiffAnswerOf, openDiffArguments, tabNameOf } from "../core/open-diff.ts";
import { viewOutcome } from "../core/view-outcome.ts";

/** A connection to ask on for one review: an IDE server's open session, or the VS Code client's socket opened for it. */
export type ToolConnect = () => Promise<
	{ ok: true; caller: ToolCaller; release: () => void } | { ok: false; reason: string }
>;

/**
 * A review over `openDiff` (no timeout: the user may take their time) and `close_tab` after the decision; pi
 * never calls `closeAllDiffTabs`. This package's VS Code client (`ownClient`) says when it shows the diff
 * (`pi/diffShown`) and takes the left side's text from pi; an IDE server, which says nothing until the user
 * decides, is shown once the call went out, the file itself on its left.
 */
export function toolDiffHost(editorName: string, connect: ToolConnect, options: { ownClient: boolean }): DiffHost {
	return { editorName, open: (request) => openToolDiff(request, connect, options.ownClient) };
}

function openToolDiff(request: DiffRequest, connect: ToolConnect, ownClient: boolean): DiffView {
	const tabName = tabNameOf(request);
	// The notifications are the connection's, released with it: the answer does not end them.
	const { shown, answer, settleShown, settleAnswer } = viewOutcome();
	const fail = (reason: string) => {
		settleShown({ ok: false, reason });
		settleAnswer({ kind: "failed", reason });
	};
	const where = `tab "${tabName}"`;
	let ended = false;
	let release = () => {};
	// Held until the answer, which may come long after pi closed the view: dropped on close.
	let proposed: string | undefined = request.proposed;
	const args = openDiffArguments(request, ownClient);
	const connected = connect();
	const ask = async () => {
		const connection = await connected;
		if (!connection.ok) return fail(connection.reason);
		const caller = connection.caller;
		const unsubscribe = caller.onNotification((method, params) => {
			const event = diffNotificationOf(method, params, tabName);
			if (event === "shown") settleShown({ ok: true, where });
			else if (event === "closed") settleAnswer({ kind: "closed" });
		});
		release = () => {
			unsubscribe();
			connection.release();
		};
		if (ended) return release();
		if (!caller.offers("openDiff")) return fail("it does not offer openDiff");
		void caller.whenClosed().then(fail);
		const call = caller.callTool("openDiff", args, undefined);
		if (!ownClient) settleShown({ ok: true, where });
		const result = await call;
		if (!result.ok) return fail(result.reason);
		const editorAnswer = openDiffAnswerOf(result.result, proposed ?? "");
		if (editorAnswer.kind === "failed") settleShown({ ok: false, reason: editorAnswer.reason });
		settleAnswer(editorAnswer);
	};
	// A throw of the other end's code (a caller's) is the editor failing, never a crash of pi or a review stuck.
	void ask().catch((error: unknown) => fail(`the review failed: ${String(error).slice(0, 200)}`));
	return {
		shown,
		answer,
		close: async () => {
			if (ended) return;
			ended = true;
			proposed = undefined;
			settleAnswer({ kind: "failed", reason: "closed by pi" });
			settleShown({ ok: false, reason: "closed by pi" });
			// The connection comes first (its own timeouts cap it): a tab asked for is closed even when it is still opening.
			const connection = await connected;
			if (connection.ok) await connection.caller.callTool("close_tab", { tab_name: tabName }, IDE_REQUEST_TIMEOUT_MS);
			release();
		},
	};
}
