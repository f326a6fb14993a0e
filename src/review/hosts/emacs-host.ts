import { constants } from "node:fs";
import { type FileHandle, open, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { EmacsDiffChannel } from "../../editors/emacs/diff-channel.ts";
import { runInBackground } from "../../shared/background.ts";
import { EMACS_DIFF_CLOSE_ATTEMPTS, EMACS_DIFF_CLOSE_RETRY_MS, EMACS_DIFF_OPEN_MS } from "../../shared/core/timing.ts";
import {
	type DiffHost,
	type DiffRequest,
	type DiffView,
	type EditorAnswer,
	MAX_ACCEPTED_TEXT_CHARS,
	type RequestOutcome,
	type ShownResult,
} from "../core/diff-host.ts";
import { EMACS_DIFF_CLOSE_ELISP, EMACS_DIFF_OPEN_ELISP } from "../core/emacs-diff-elisp.ts";
import {
	closeArguments,
	openArguments,
	proposalText,
	reviewEventOf,
	reviewFileNames,
	shownFromOpen,
} from "../core/emacs-diff-protocol.ts";
import { viewOutcome } from "../core/view-outcome.ts";

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
	let unsubscribe = () => {};
	const outcome = viewOutcome(() => unsubscribe());
	const { shown, settleShown, settleAnswer } = outcome;
	const names = reviewFileNames(id);
	if (!names) {
		settleShown({ ok: false, reason: `the review's id ${JSON.stringify(id.slice(0, 40))} cannot name a file` });
		return { shown, answer: outcome.answer, close: async () => {} };
	}
	const paths: ReviewPaths = {
		proposal: join(channel.privateDir, names.proposal),
		accepted: join(channel.privateDir, names.accepted),
	};
	let connectionGone = false;
	let accepting = false;
	let closing: Promise<void> | undefined;

	unsubscribe = channel.onReviewMessage((message) => {
		const event = reviewEventOf(message, id);
		if (!event || accepting || outcome.answered) return;
		if (event.kind !== "accepted") {
			settleAnswer(event);
			return;
		}
		// The text is in the file Emacs wrote before it sent this; what comes after it is not an answer.
		accepting = true;
		void readAccepted(paths.accepted).then(settleAnswer);
	});
	void channel.whenClosed().then((reason) => {
		connectionGone = true;
		settleShown({ ok: false, reason });
		settleAnswer({ kind: "failed", reason });
	});

	/** Asked again while the connection lasts: a review left open after pi decided would still take C-c C-c. */
	const closeInEmacs = async (attempt: number): Promise<void> => {
		const outcome = await run(channel, "review close", EMACS_DIFF_CLOSE_ELISP, closeArguments(channel.prefix, id));
		const closed =
			outcome.ok && typeof outcome.value === "object" && outcome.value !== null && "closed" in outcome.value;
		if (closed || connectionGone || attempt + 1 >= EMACS_DIFF_CLOSE_ATTEMPTS) return;
		channel.clock.after(EMACS_DIFF_CLOSE_RETRY_MS, () => {
			void runInBackground("emacs review close", () => closeInEmacs(attempt + 1));
		});
	};
	const close = (): Promise<void> => {
		closing ??= (async () => {
			// Closed by pi: whatever Emacs says of this review from now on is not an answer.
			settleAnswer({ kind: "closed" });
			// After the open's answer, so the close never overtakes the open it closes.
			await shown;
			await closeInEmacs(0);
			await removeQuietly(paths.accepted);
		})();
		return closing;
	};

	void showProposal(channel, request, paths).then((result) => {
		settleShown(result);
		// A late open may still have run (its answer timed out): whatever it left is closed.
		if (!result.ok) void close();
	});

	return { shown, answer: outcome.answer, close };
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
		return shownFromOpen(await run(channel, "review open", EMACS_DIFF_OPEN_ELISP, args, deadlineMs));
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

/** The channel's `run`, never rejecting: a throw is an outcome like any failure. */
async function run(
	channel: EmacsDiffChannel,
	what: string,
	chunk: string,
	args: unknown,
	deadlineMs?: number,
): Promise<RequestOutcome> {
	try {
		return await channel.run(what, chunk, args, deadlineMs);
	} catch (error) {
		return { ok: false, reason: messageOf(error) };
	}
}

const removeQuietly = (path: string) => rm(path, { force: true }).catch(() => {});

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));
