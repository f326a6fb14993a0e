import type { ToolCaller } from "../../editors/tool-caller.ts";
import { IDE_REQUEST_TIMEOUT_MS } from "../../shared/core/timing.ts";
import type { DiffHost, DiffRequest, DiffView, EditorAnswer, ShownResult } from "../core/diff-host.ts";
import { diffNotificationOf, openDiffAnswerOf, openDiffArguments, tabNameOf } from "../core/open-diff.ts";
import { settleOnce } from "../core/settle-once.ts";

/** A connection to ask on for one review: an IDE server's open session, or the VS Code client's socket opened for it. */
export type ToolConnect = () => Promise<
	{ ok: true; caller: ToolCaller; release: () => void } | { ok: false; reason: string }
>;

/**
 * A review over `openDiff` (no timeout: the user may take their time) and `close_tab` after the decision; pi
 * never calls `closeAllDiffTabs`. An editor that says when it shows the diff (`pi/diffShown`, the VS Code client)
 * is shown then; an IDE server, which says nothing until the user decides, is shown once the call went out.
 */
export function toolDiffHost(editorName: string, connect: ToolConnect, options: { saysShown: boolean }): DiffHost {
	return { editorName, open: (request) => openToolDiff(request, connect, options.saysShown) };
}

function openToolDiff(request: DiffRequest, connect: ToolConnect, saysShown: boolean): DiffView {
	const tabName = tabNameOf(request);
	const shownOnce = settleOnce<ShownResult>();
	const answerOnce = settleOnce<EditorAnswer>();
	const [settleShown, settleAnswer] = [shownOnce.settle, answerOnce.settle];
	const fail = (reason: string) => {
		settleShown({ ok: false, reason });
		settleAnswer({ kind: "failed", reason });
	};
	const where = `tab "${tabName}"`;
	let ended = false;
	let release = () => {};
	const connected = connect();
	void (async () => {
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
		const call = caller.callTool("openDiff", openDiffArguments(request), undefined);
		if (!saysShown) settleShown({ ok: true, where });
		const result = await call;
		if (!result.ok) return fail(result.reason);
		const editorAnswer = openDiffAnswerOf(result.result, request.proposed);
		if (editorAnswer.kind === "failed") settleShown({ ok: false, reason: editorAnswer.reason });
		settleAnswer(editorAnswer);
	})();
	return {
		shown: shownOnce.promise,
		answer: answerOnce.promise,
		close: async () => {
			if (ended) return;
			ended = true;
			settleAnswer({ kind: "failed", reason: "closed by pi" });
			settleShown({ ok: false, reason: "closed by pi" });
			// The connection comes first (its own timeouts cap it): a tab asked for is closed even when it is still opening.
			const connection = await connected;
			if (connection.ok) await connection.caller.callTool("close_tab", { tab_name: tabName }, IDE_REQUEST_TIMEOUT_MS);
			release();
		},
	};
}
