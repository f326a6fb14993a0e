/**
 * What a real Neovim draws, as a UI sees it: a UI of the bench's attached beside Neovim's own (tmux's), with the
 * same grid size so nothing on screen changes, its grid built from the redraw events of Neovim's UI protocol
 * (ext_linegrid). A drawing counts when Neovim flushes it to its UIs: the moment tmux's UI gets the same cells.
 */
import { RpcConnection } from "../../src/editors/neovim/rpc.ts";
import { systemClock } from "../../src/shared/clock.ts";

interface Waiter {
	text: string;
	/** Run in the notification's own turn: an answer sent the moment the drawing arrived. */
	then: () => void;
	done: (flushedAtMs: number) => void;
}

export class NeovimScreen {
	/** Cells by row: one grapheme each ("" for the right half of a wide one). */
	private cells: string[][] = [];
	private waiters: Waiter[] = [];
	private connection?: RpcConnection;

	private constructor() {}

	/** Attaches to the Neovim at `socket` with its current `columns` x `lines`. */
	static async attach(socket: string): Promise<NeovimScreen> {
		const screen = new NeovimScreen();
		const opened = await RpcConnection.open(socket, {
			clock: systemClock,
			timeoutMs: 5000,
			onNotification: (method, params) => {
				if (method === "redraw") screen.redraw(params, performance.now());
			},
		});
		if (typeof opened === "string") throw new Error(`the bench's UI cannot connect to Neovim: ${opened}`);
		screen.connection = opened;
		const [columns, lines] = (await screen.call("nvim_exec_lua", ["return { vim.o.columns, vim.o.lines }", []])) as [
			number,
			number,
		];
		await screen.call("nvim_ui_attach", [columns, lines, { ext_linegrid: true }]);
		return screen;
	}

	/** A request over the UI's own connection (it answers between redraws, in order). */
	async call(method: string, params: unknown[]): Promise<unknown> {
		const answer = await this.connection?.request(method, params, 5000);
		if (!answer?.ok) throw new Error(`${method}: ${answer?.reason ?? "not attached"}`);
		return answer.value;
	}

	/** The screen as last flushed, one string per row. */
	text(): string {
		return this.cells.map((row) => row.join("")).join("\n");
	}

	/**
	 * Resolves with the performance.now() of the first flush after this call whose screen holds `text`; `then`
	 * runs at that moment, before any other I/O of the bench's.
	 */
	whenShows(text: string, then: () => void = () => {}): Promise<number> {
		return new Promise((done) => this.waiters.push({ text, then, done }));
	}

	close(): void {
		void this.connection?.request("nvim_ui_detach", [], 1000).finally(() => this.connection?.close());
	}

	private redraw(batches: unknown, atMs: number): void {
		if (!Array.isArray(batches)) return;
		let flushed = false;
		for (const batch of batches) {
			if (!Array.isArray(batch) || typeof batch[0] !== "string") continue;
			const [name, ...calls] = batch as [string, ...unknown[][]];
			if (name === "flush") flushed = true;
			else for (const args of calls) if (Array.isArray(args)) this.apply(name, args);
		}
		if (flushed) this.flushed(atMs);
	}

	/** The grid events of one UI (no multigrid: grid 1 only), the rest (highlights, cursor, mode) ignored. */
	private apply(name: string, args: unknown[]): void {
		if (name === "grid_resize") {
			const [, width, height] = args as [number, number, number];
			this.cells = Array.from({ length: height }, () => Array<string>(width).fill(" "));
		} else if (name === "grid_clear") {
			for (const row of this.cells) row.fill(" ");
		} else if (name === "grid_line") {
			const [, rowIndex, columnStart, line] = args as [number, number, number, [string, number?, number?][]];
			const row = this.cells[rowIndex];
			if (!row) return;
			let column = columnStart;
			for (const [text, , repeat = 1] of line) for (let i = 0; i < repeat; i++) row[column++] = text;
		} else if (name === "grid_scroll") {
			const [, top, bottom, left, right, rows] = args as number[] as [number, number, number, number, number, number];
			const copy = (to: number) => {
				const from = this.cells[to + rows];
				const into = this.cells[to];
				if (from && into) for (let column = left; column < right; column++) into[column] = from[column] ?? " ";
			};
			// Up: each row takes the one `rows` below it, top first; down: bottom first.
			if (rows > 0) for (let to = top; to < bottom - rows; to++) copy(to);
			else for (let to = bottom - 1; to >= top - rows; to--) copy(to);
		}
	}

	private flushed(atMs: number): void {
		if (this.waiters.length === 0) return;
		const screen = this.text();
		const met = this.waiters.filter((waiter) => screen.includes(waiter.text));
		this.waiters = this.waiters.filter((waiter) => !met.includes(waiter));
		for (const waiter of met) {
			waiter.then();
			waiter.done(atMs);
		}
	}
}
