import { EarlyCancels, type RequestId } from "./core/early-cancels.ts";
import { admitRequest } from "./core/rate-limit.ts";

/** A request whose answer is being made: aborting `stop` ends its model call, and it answers "cancelled". */
interface InFlight {
	id: RequestId;
	stop: AbortController;
}

interface EditorRequestState {
	inFlight?: InFlight;
	early: EarlyCancels;
	/** When this editor's admitted requests of the last minute came (the rate limit's window). */
	recentMs: number[];
}

/**
 * Each editor's requests, by the key its source gives it (an IDE server's requests share one): the one in
 * flight, the cancels that came before their request, the rate limit's window.
 */
export class RequestsByEditor {
	private readonly editors = new Map<string, EditorRequestState>();

	/** `id` starts for this editor: the one it had in flight is aborted (one at a time; the newest wins). */
	start(editorKey: string, id: RequestId): InFlight {
		const state = this.state(editorKey);
		state.inFlight?.stop.abort();
		const started: InFlight = { id, stop: new AbortController() };
		state.inFlight = started;
		return started;
	}

	/** The request ended: forgotten, unless a newer one already took its place. */
	end(editorKey: string, started: InFlight): void {
		const state = this.editors.get(editorKey);
		if (state?.inFlight === started) state.inFlight = undefined;
	}

	/** Whether the request arriving now was cancelled before it came (true once). */
	cancelledEarly(editorKey: string, id: RequestId): boolean {
		return this.editors.get(editorKey)?.early.take(id) ?? false;
	}

	/** A `request_cancelled`: the request in flight with that id is aborted, else the cancel is remembered. */
	cancel(editorKey: string, id: RequestId): void {
		const state = this.state(editorKey);
		if (state.inFlight?.id === id) state.inFlight.stop.abort();
		else state.early.cancelled(id);
	}

	/** Whether a request now fits in this editor's limit; an admitted one counts toward it. */
	admit(editorKey: string, nowMs: number, perMinute: number): boolean {
		const state = this.state(editorKey);
		const { admitted, recentMs } = admitRequest(state.recentMs, nowMs, perMinute);
		state.recentMs = recentMs;
		return admitted;
	}

	/**
	 * The editor's connection ended: its request in flight is aborted, its early cancels forgotten (ids start
	 * again on a new connection). Its window stays: reconnecting does not reset the limit.
	 */
	gone(editorKey: string): void {
		const state = this.editors.get(editorKey);
		if (!state) return;
		state.inFlight?.stop.abort();
		state.inFlight = undefined;
		state.early = new EarlyCancels();
	}

	/** Every request in flight aborted (the session ends). */
	abortAll(): void {
		for (const key of this.editors.keys()) this.gone(key);
	}

	private state(editorKey: string): EditorRequestState {
		let state = this.editors.get(editorKey);
		if (!state) {
			state = { early: new EarlyCancels(), recentMs: [] };
			this.editors.set(editorKey, state);
		}
		return state;
	}
}
