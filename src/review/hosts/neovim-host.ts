import type { NeovimDiffChannel } from "../../editors/diff-channels.ts";
import {
	NEOVIM_DIFF_CLOSE_ATTEMPTS,
	NEOVIM_DIFF_CLOSE_RETRY_MS,
	NEOVIM_DIFF_OPEN_MS,
} from "../../shared/core/timing.ts";
import type { DiffHost, DiffRequest, DiffView, ShownResult } from "../core/diff-host.ts";
import { NEOVIM_DIFF_CLOSE_LUA, NEOVIM_DIFF_OPEN_LUA } from "../core/neovim-diff-lua.ts";
import { answerFromEvent, closeArguments, openArguments, shownFromOpen } from "../core/neovim-diff-protocol.ts";
import { outcomeOf, scriptedView } from "./scripted-view.ts";

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
	return scriptedView({
		whenClosed: () => channel.whenClosed(),
		after: (ms, run) => channel.clock.after(ms, run),
		listen: (outcome) =>
			channel.onDiffEvent((params) => {
				const editorAnswer = answerFromEvent(params, id);
				if (editorAnswer) outcome.settleAnswer(editorAnswer);
			}),
		shown: showDiff(channel, request),
		close: {
			once: async () => {
				const args = closeArguments(channel.channel, id);
				return (await outcomeOf(() => channel.run("diff close", NEOVIM_DIFF_CLOSE_LUA, args))).ok;
			},
			attempts: NEOVIM_DIFF_CLOSE_ATTEMPTS,
			retryMs: NEOVIM_DIFF_CLOSE_RETRY_MS,
			task: "neovim diff close",
		},
	});
}

/** The tab page opened, both sides as buffers hold them; Neovim opens nothing once the deadline passed. */
async function showDiff(channel: NeovimDiffChannel, request: DiffRequest): Promise<ShownResult> {
	const { clock } = channel;
	const args = openArguments(request, {
		channel: channel.channel,
		enter: !channel.enclosing,
		deadlineSeconds: clock.nowSeconds() + NEOVIM_DIFF_OPEN_MS / 1000,
	});
	const deadlineMs = clock.nowMs() + NEOVIM_DIFF_OPEN_MS;
	return shownFromOpen(await outcomeOf(() => channel.run("diff open", NEOVIM_DIFF_OPEN_LUA, args, deadlineMs)));
}
