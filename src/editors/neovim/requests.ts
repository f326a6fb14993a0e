import { randomBytes } from "node:crypto";
import type { Clock } from "../../shared/core/clock.ts";
import { NEOVIM_REQUEST_TIMEOUT_MS } from "../../shared/core/timing.ts";
import { type LastRequest, RequestRecord } from "../kit/core/request-record.ts";
import { CHANNEL_LUA } from "./core/lua.ts";
import type { RpcAnswer, RpcConnection } from "./rpc.ts";

/** How pi names itself in Neovim's channel list (`nvim_list_chans()`). */
const CLIENT_NAME = "pi-ide-context";

/** One msgpack-RPC request: its method and params. */
export type NeovimRequest = [method: string, params: readonly unknown[]];

/** A chunk of core/lua.ts run with its arguments. */
export const lua = (chunk: string, ...args: unknown[]): NeovimRequest => ["nvim_exec_lua", [chunk, args]];

/**
 * The requests pi sends one Neovim over its connection: `nvim_get_mode` first (it answers even in a prompt), the
 * request only when Neovim is not waiting for the user (a hit-enter prompt, `confirm()`), each with a timeout.
 * One whose mode did not answer marks Neovim blocking (a busy loop) until it pushes again; the last request is
 * kept for `/ide status`.
 */
export class NeovimRequests {
	private blockingNow = false;
	private readonly record: RequestRecord;

	constructor(
		private readonly connection: () => RpcConnection | undefined,
		clock: Clock,
	) {
		this.record = new RequestRecord(clock, NEOVIM_REQUEST_TIMEOUT_MS);
	}

	get blocking(): boolean {
		return this.blockingNow;
	}

	get lastRequest(): LastRequest | undefined {
		return this.record.last;
	}

	/** Neovim ran Lua for pi (a push, a review's event): it is not waiting for the user. */
	heardFrom(): void {
		this.blockingNow = false;
	}

	/**
	 * The request when Neovim is free. Without a deadline each of the two waits its own timeout; with one (this
	 * clock), both share what is left of it.
	 */
	async whenFree(what: string, request: NeovimRequest, deadlineMs?: number): Promise<RpcAnswer> {
		const left = () => this.record.timeLeftMs(deadlineMs);
		if (left() === 0) return this.record.failed(what, "no time left to ask");
		const mode = await this.ask("nvim_get_mode", [], left());
		// Not even the "fast" call answers: a busy loop. Ranked as blocking until Neovim pushes again.
		if (!mode.ok) {
			const rpc = this.connection();
			this.blockingNow = rpc !== undefined && rpc.closed === undefined;
			return this.record.failed(what, mode.reason);
		}
		this.blockingNow = (mode.value as { blocking?: unknown } | undefined)?.blocking === true;
		if (this.blockingNow) return this.record.failed(what, "Neovim is waiting for the user (a prompt): not asked");
		if (left() === 0) return this.record.failed(what, "no time left to ask");
		const answer = await this.ask(...request, left());
		if (!answer.ok) return this.record.failed(what, answer.reason);
		this.record.answered(what);
		return answer;
	}

	/**
	 * pi's channel id in that Neovim: pi names itself (`nvim_set_client_info`, visible in `nvim_list_chans()`)
	 * with a token only this connection knows, then finds the channel carrying it.
	 */
	async ownChannel(): Promise<number | string> {
		const token = randomBytes(8).toString("hex");
		const named = await this.whenFree("client info", [
			"nvim_set_client_info",
			[CLIENT_NAME, {}, "remote", {}, { token }],
		]);
		if (!named.ok) return named.reason;
		const found = await this.ask(...lua(CHANNEL_LUA, token));
		if (!found.ok) return found.reason;
		return typeof found.value === "number" && found.value > 0 ? found.value : "pi's channel was not found in Neovim";
	}

	/** One request as it is, not kept as the last (pi's own lookups). */
	ask(method: string, params: readonly unknown[], timeoutMs = NEOVIM_REQUEST_TIMEOUT_MS): Promise<RpcAnswer> {
		const rpc = this.connection();
		if (!rpc) return Promise.resolve({ ok: false, reason: "not connected" });
		return rpc.request(method, params, timeoutMs);
	}
}
