import { INSTALL_ELISP } from "../../src/editors/emacs/core/elisp/push-elisp.ts";
import { EMACS_SNAPSHOT_CAPS, type EmacsSnapshot, parseEmacsSnapshot } from "../../src/editors/emacs/core/snapshot.ts";
import type { PushListener, PushPeer } from "../../src/editors/emacs/push/push-listener.ts";
import { type EvalAnswer, evalInEmacs } from "../../src/editors/emacs/server-client.ts";
import { systemClock } from "../../src/shared/clock.ts";
import { EMACS_PUSH_DEBOUNCE_MS } from "../../src/shared/core/timing.ts";
import type { RealEmacs } from "./real-emacs.ts";
import { waitFor } from "./wait-for.ts";

let installs = 0;

/** A fresh prefix as pi builds one: `pi-ide-<pid>-<n>-`. */
export const freshPrefix = (): string => `pi-ide-${process.pid}-${++installs}-`;

/** One of pi's chunks run in a real Emacs, as pi runs it (server-client.ts), with a test's timeout. */
export function runChunk(emacs: RealEmacs, chunk: string, args: unknown, timeoutMs = 5000): Promise<EvalAnswer> {
	return evalInEmacs(emacs.socket, chunk, args, { clock: systemClock, timeoutMs, expectedPid: emacs.pid });
}

/** A real Emacs with pi's push elisp installed against a listener: every line it pushed, as it came. */
export class PushedEmacs {
	readonly lines: { value: unknown; atMs: number }[] = [];
	closedReason: string | undefined;

	private constructor(
		readonly emacs: RealEmacs,
		readonly prefix: string,
		readonly peer: PushPeer,
	) {}

	static async install(
		emacs: RealEmacs,
		listener: PushListener,
		options: { push?: boolean; prefix?: string; debounceMs?: number } = {},
	): Promise<PushedEmacs> {
		const prefix = options.prefix ?? freshPrefix();
		let pushed: PushedEmacs | undefined;
		const early: { value: unknown; atMs: number }[] = [];
		const peer = listener.expect({
			message: (value) => (pushed?.lines ?? early).push({ value, atMs: performance.now() }),
			closed: (reason) => {
				if (pushed) pushed.closedReason = reason;
			},
		});
		pushed = new PushedEmacs(emacs, prefix, peer);
		pushed.lines.push(...early);
		const answer = await runChunk(emacs, INSTALL_ELISP, {
			socket: listener.socketPath,
			token: peer.token,
			prefix,
			push: options.push ?? true,
			debounce_ms: options.debounceMs ?? EMACS_PUSH_DEBOUNCE_MS,
			caps: EMACS_SNAPSHOT_CAPS,
		});
		if (!answer.ok || JSON.stringify(answer.value) !== '{"ok":true}') {
			throw new Error(`the install failed: ${JSON.stringify(answer)}`);
		}
		return pushed;
	}

	/** Every state pushed so far, checked by pi's schema (a line that fails it fails the test). */
	states(): EmacsSnapshot[] {
		return this.lines
			.map((line) => line.value as { kind?: string; state?: unknown })
			.filter((line) => line.kind === "state")
			.map((line) => {
				const parsed = parseEmacsSnapshot(line.state);
				if (!parsed.ok) throw new Error(`${parsed.reason}: ${JSON.stringify(line.state)}`);
				return parsed.snapshot;
			});
	}

	latest(): EmacsSnapshot | undefined {
		return this.states().at(-1);
	}

	/** The first state pushed after `since` lines that satisfies `holds`. */
	async waitState(
		what: string,
		holds: (state: EmacsSnapshot) => boolean,
		since = 0,
		timeoutMs = 5000,
	): Promise<EmacsSnapshot> {
		return (await this.waitPush(what, holds, since, timeoutMs)).state;
	}

	/** The same, with when its line arrived (`performance.now()`). */
	waitPush(
		what: string,
		holds: (state: EmacsSnapshot) => boolean,
		since = 0,
		timeoutMs = 5000,
	): Promise<{ state: EmacsSnapshot; atMs: number }> {
		return waitFor(
			what,
			() => {
				for (const line of this.lines.slice(since)) {
					const value = line.value as { kind?: string; state?: unknown };
					if (value.kind !== "state") continue;
					const parsed = parseEmacsSnapshot(value.state);
					if (parsed.ok && holds(parsed.snapshot)) return { state: parsed.snapshot, atMs: line.atMs };
				}
				return undefined;
			},
			timeoutMs,
		);
	}
}
