import type { NeovimDiffChannel } from "../../editors/neovim/diff-channel.ts";
import { runInBackground } from "../../shared/background.ts";
import {
	NEOVIM_DIFF_CLOSE_ATTEMPTS,
	NEOVIM_DIFF_CLOSE_RETRY_MS,
	NEOVIM_DIFF_OPEN_MS,
} from "../../shared/core/timing.ts";
import type { DiffHost, DiffRequest, DiffView, RequestOutcome } from "../core/diff-host.ts";
import { NEOVIM_DIFF_CLOSE_LUA, NEOVIM_DIFF_OPEN_LUA } from "../core/neovim-diff-lua.ts";
import { answerFromEvent, closeArguments, openArguments, shownFromOpen } from "../core/neovim-diff-protocol.ts";
import { viewOutcome } from "../core/view-outcome.ts";

/**
 * A review's diff in a Neovim pi is connected to over its own server: a tab page of pi's own (the proposal
 * editable, `:w` accepts, `:PiReject` rejects, closing it decides nothing), closed by pi after the decision.
 */
export function neovimDiffHost(channel: NeovimDiffChannel): DiffHost {
	return { editorName: "Neovim", open: (request) => openDiff(channel, request) };
}

function openDiff(channel: NeovimDiffChannel, request: DiffRequest): DiffView {
	// The closures below keep only the id: a view held until the connection ends does not hold the file's texts.
	const { id } = request;
	const { clock } = channel;
	const openArgs = openArguments(request, {
		channel: channel.channel,
		enter: !channel.enclosing,
		deadlineSeconds: clock.nowSeconds() + NEOVIM_DIFF_OPEN_MS / 1000,
	});
	let connectionGone = false;
	let closing: Promise<void> | undefined;

	const outcome = viewOutcome(() => unsubscribe());
	const { shown, settleShown, settleAnswer } = outcome;
	const unsubscribe = channel.onDiffEvent((params) => {
		const editorAnswer = answerFromEvent(params, id);
		if (editorAnswer) settleAnswer(editorAnswer);
	});
	void channel.whenClosed().then((reason) => {
		connectionGone = true;
		settleShown({ ok: false, reason });
		settleAnswer({ kind: "failed", reason });
	});

	/** Asked again while the connection lasts: a review left open after pi decided would still take `:w`. */
	const closeInNeovim = async (attempt: number): Promise<void> => {
		const outcome = await run(channel, "diff close", NEOVIM_DIFF_CLOSE_LUA, closeArguments(channel.channel, id));
		if (outcome.ok || connectionGone || attempt + 1 >= NEOVIM_DIFF_CLOSE_ATTEMPTS) return;
		channel.clock.after(NEOVIM_DIFF_CLOSE_RETRY_MS, () => {
			void runInBackground("neovim diff close", () => closeInNeovim(attempt + 1));
		});
	};
	const close = (): Promise<void> => {
		closing ??= (async () => {
			// Closed by pi: whatever Neovim says of this review from now on is not an answer.
			settleAnswer({ kind: "closed" });
			// After the open's answer, so the close never overtakes the open it closes.
			await shown;
			await closeInNeovim(0);
		})();
		return closing;
	};

	void run(channel, "diff open", NEOVIM_DIFF_OPEN_LUA, openArgs, clock.nowMs() + NEOVIM_DIFF_OPEN_MS).then(
		(outcome) => {
			const result = shownFromOpen(outcome);
			settleShown(result);
			// A late open may still have run (its answer timed out): whatever it left is closed.
			if (!result.ok) void close();
		},
	);

	return { shown, answer: outcome.answer, close };
}

/** The channel's `run`, never rejecting: a throw is an outcome like any failure. */
async function run(
	channel: NeovimDiffChannel,
	what: string,
	chunk: string,
	args: readonly unknown[],
	deadlineMs?: number,
): Promise<RequestOutcome> {
	try {
		return await channel.run(what, chunk, args, deadlineMs);
	} catch (error) {
		return { ok: false, reason: error instanceof Error ? error.message : String(error) };
	}
}
