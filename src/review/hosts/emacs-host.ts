import { constants } from "node:fs";
import { type FileHandle, open, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { EmacsDiffChannel } from "../../editors/diff-channels.ts";
import { EMACS_DIFF_CLOSE_ATTEMPTS, EMACS_DIFF_CLOSE_RETRY_MS, EMACS_DIFF_OPEN_MS } from "../../shared/core/timing.ts";
import {
	type DiffHost,
	type DiffRequest,
	type DiffView,
	type EditorAnswer,
	MAX_ACCEPTED_TEXT_CHARS,
	type ShownResult,
} from "../core/diff-host.ts";
import { EMACS_DIFF_CLOSE_ELISP, EMACS_DIFF_OPEN_ELISP } from "../core/emacs-diff-elisp.ts";
import {
	closeArguments,
	closeRan,
	openArguments,
	proposalText,
	reviewEventOf,
	reviewFileNames,
	shownFromOpen,
} from "../core/emacs-diff-protocol.ts";
import { viewOutcome } from "../core/view-outcome.ts";
import { outcomeOf, scriptedView } from "./scripted-view.ts";

/** UTF-8 takes at most 4 bytes a character: a file over this is over the text's cap whatever it holds. */
const MAX_ACCEPTED_BYTES = 4 * MAX_ACCEPTED_TEXT_CHARS;

/**
 * A review's proposal in an Emacs pi is connected to over its own server: a buffer of pi's own in the file's
 * major mode beside the file (C-c C-c accepts, C-c C-k rejects, killing it decides nothing), closed by pi after
 * the decision. The texts cross as files in pi's private dir, never in a request line.
 */
export function emacsDiffHost(channel: EmacsDiffChannel): DiffHost {
	return { editorName: "Emacs", open: (request) => openProposal(channel, request) };
}

interface ReviewPaths {
	proposal: string;
	accepted: string;
}

function openProposal(channel: EmacsDiffChannel, request: DiffRequest): DiffView {
	// The closures below keep only the id and the paths: a view held until the connection ends holds no text.
	const { id } = request;
	const names = reviewFileNames(id);
	if (!names) return unshownView(`the review's id ${JSON.stringify(id.slice(0, 40))} cannot name a file`);
	const paths: ReviewPaths = {
		proposal: join(channel.privateDir, names.proposal),
		accepted: join(channel.privateDir, names.accepted),
	};
	return scriptedView({
		whenClosed: () => channel.whenClosed(),
		after: (ms, run) => channel.clock.after(ms, run),
		listen: (outcome) => {
			let accepting = false;
			return channel.onReviewMessage((message) => {
				const event = reviewEventOf(message, id);
				if (!event || accepting || outcome.answered) return;
				if (event.kind !== "accepted") return outcome.settleAnswer(event);
				// The text is in the file Emacs wrote before it sent this; what comes after it is not an answer.
				accepting = true;
				void readAccepted(paths.accepted).then(outcome.settleAnswer);
			});
		},
		shown: showProposal(channel, request, paths),
		close: {
			once: async () => {
				const args = closeArguments(channel.prefix, id);
				return closeRan(await outcomeOf(() => channel.run("review close", EMACS_DIFF_CLOSE_ELISP, args)));
			},
			attempts: EMACS_DIFF_CLOSE_ATTEMPTS,
			retryMs: EMACS_DIFF_CLOSE_RETRY_MS,
			task: "emacs review close",
		},
		afterClose: () => removeQuietly(paths.accepted),
	});
}

/** A review Emacs is never asked to show: not shown, with why, and nothing to close. */
function unshownView(reason: string): DiffView {
	const { shown, answer, settleShown } = viewOutcome();
	settleShown({ ok: false, reason });
	return { shown, answer, close: async () => {} };
}

/**
 * The proposal written to pi's dir (0600, created new) and opened from there; the file goes once Emacs answered,
 * whatever it said: an open Emacs runs late finds nothing to read (and its deadline passed).
 */
async function showProposal(channel: EmacsDiffChannel, request: DiffRequest, paths: ReviewPaths): Promise<ShownResult> {
	const { clock } = channel;
	const deadlineMs = clock.nowMs() + EMACS_DIFF_OPEN_MS;
	const args = openArguments(request, {
		prefix: channel.prefix,
		proposalPath: paths.proposal,
		acceptPath: paths.accepted,
		deadlineSeconds: clock.nowSeconds() + EMACS_DIFF_OPEN_MS / 1000,
		enter: !channel.enclosing,
	});
	try {
		await removeQuietly(paths.accepted);
		await removeQuietly(paths.proposal);
		await writeFile(paths.proposal, proposalText(request.proposed).text, { mode: 0o600, flag: "wx" });
	} catch (error) {
		return { ok: false, reason: `pi could not write the proposal for Emacs: ${messageOf(error)}` };
	}
	try {
		return shownFromOpen(await outcomeOf(() => channel.run("review open", EMACS_DIFF_OPEN_ELISP, args, deadlineMs)));
	} finally {
		await removeQuietly(paths.proposal);
	}
}

/** The text Emacs wrote on C-c C-c: a regular file of pi's dir, not followed through a link, UTF-8, capped. */
async function readAccepted(path: string): Promise<EditorAnswer> {
	const failed = (why: string): EditorAnswer => ({
		kind: "failed",
		reason: `the text accepted in Emacs ${why}: decide in pi`,
	});
	let handle: FileHandle | undefined;
	try {
		handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
		const stat = await handle.stat();
		if (!stat.isFile()) return failed("is not a file");
		if (stat.size > MAX_ACCEPTED_BYTES) return failed(`is over ${MAX_ACCEPTED_TEXT_CHARS / 1024 / 1024} MiB`);
		const text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(await handle.readFile());
		if (text.length > MAX_ACCEPTED_TEXT_CHARS) return failed(`is over ${MAX_ACCEPTED_TEXT_CHARS / 1024 / 1024} MiB`);
		return { kind: "accepted", text };
	} catch (error) {
		return failed(`could not be read (${messageOf(error)})`);
	} finally {
		await handle?.close().catch(() => {});
		await removeQuietly(path);
	}
}

const removeQuietly = (path: string) => rm(path, { force: true }).catch(() => {});

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));
