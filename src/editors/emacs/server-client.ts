import { connect } from "node:net";
import { StringDecoder } from "node:string_decoder";
import type { Clock } from "../../shared/core/clock.ts";
import {
	emptyReply,
	evalRequestLine,
	evalValueOf,
	type ReplyState,
	readReply,
	replyAtEnd,
	type ServerReply,
} from "./core/server-protocol.ts";

/** What one request gave: the `-print` text, or why there is none (Emacs's error, a timeout, a closed socket). */
export type ServerAnswer =
	| { ok: true; value: string; emacsPid: number | undefined }
	| { ok: false; reason: string; timedOut?: true };

export interface RequestOptions {
	clock: Clock;
	/** The whole request: connecting, Emacs running it, the last byte of the reply. */
	timeoutMs: number;
	/** The pid discovery proved holds the socket: an answer as another pid is refused. */
	expectedPid?: number;
}

/**
 * One request to an Emacs's server: connect, send the line in one write (Emacs answers every read of a
 * request with an `-emacs-pid` line, and takes one line per connection), read until Emacs closes the
 * connection (it deletes a client with no file and no frame once its `-eval` ran) or an `-error` arrives.
 * Never throws. A request that timed out may still run later, once a busy Emacs reads it: every request pi
 * sends must be harmless whenever it runs.
 */
export function requestEmacs(socketPath: string, line: string, options: RequestOptions): Promise<ServerAnswer> {
	return new Promise((resolve) => {
		const socket = connect(socketPath);
		const decoder = new StringDecoder("utf8");
		let state: ReplyState = emptyReply();
		let settled = false;
		const finish = (answer: ServerAnswer) => {
			if (settled) return;
			settled = true;
			cancel();
			socket.destroy();
			resolve(answer);
		};
		const finishWith = (reply: ServerReply) => finish(answerOf(reply, options.expectedPid));
		const cancel = options.clock.after(options.timeoutMs, () =>
			finish({ ok: false, reason: `no answer within ${options.timeoutMs} ms`, timedOut: true }),
		);
		socket.on("error", (error) => finish({ ok: false, reason: `cannot talk to Emacs: ${error.message}` }));
		socket.once("connect", () => socket.write(line));
		socket.on("data", (data: Buffer) => {
			const step = readReply(state, decoder.write(data));
			if (step.done) finishWith(step.reply);
			else state = step.state;
		});
		socket.on("end", () => {
			const rest = decoder.end();
			const step = rest === "" ? { done: false as const, state } : readReply(state, rest);
			finishWith(step.done ? step.reply : replyAtEnd(step.state));
		});
		socket.on("close", () => finish({ ok: false, reason: "the connection closed" }));
	});
}

function answerOf(reply: ServerReply, expectedPid: number | undefined): ServerAnswer {
	if (!reply.ok) return { ok: false, reason: reply.reason };
	if (expectedPid !== undefined && reply.emacsPid !== expectedPid) {
		return { ok: false, reason: `the server answered as pid ${reply.emacsPid ?? "(none)"}, not ${expectedPid}` };
	}
	return { ok: true, value: reply.printed, emacsPid: reply.emacsPid };
}

export type EvalAnswer = { ok: true; value: unknown } | { ok: false; reason: string; timedOut?: true };

/**
 * Runs one of pi's fixed elisp functions (core/elisp/probe-elisp.ts) with `args`, and reads its value: the JSON it
 * returned, or why there is none. An error the elisp caught comes back as its own `{ error }` value.
 */
export async function evalInEmacs(
	socketPath: string,
	elispFunction: string,
	args: unknown,
	options: RequestOptions,
): Promise<EvalAnswer> {
	const request = evalRequestLine(elispFunction, args);
	if (!request.ok) return request;
	const answer = await requestEmacs(socketPath, request.line, options);
	return answer.ok ? evalValueOf(answer.value) : answer;
}
