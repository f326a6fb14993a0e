/** A line may be at most this long: a client that sends more without a newline is dropped (both sides agree). */
export const MAX_BRIDGE_LINE_BYTES = 1024 * 1024;

/** What one chunk of a connection gave: its whole lines, or that the connection is past the cap. */
export type LinesRead = { ok: true; lines: string[] } | { ok: false; reason: string };

/**
 * NDJSON as it arrives: chunks in (decoded), whole lines out (several per chunk, or one over many). The partial
 * line is kept as its pieces with their byte count, joined only when its newline comes: a client that sends a
 * long line a byte at a time costs pi each byte once.
 */
export class LineReader {
	private pending: string[] = [];
	private pendingBytes = 0;

	read(chunk: string): LinesRead {
		const lines: string[] = [];
		let start = 0;
		for (let newline = chunk.indexOf("\n"); newline >= 0; newline = chunk.indexOf("\n", start)) {
			const piece = chunk.slice(start, newline);
			if (this.pendingBytes + Buffer.byteLength(piece, "utf8") > MAX_BRIDGE_LINE_BYTES) return this.tooLong();
			lines.push(this.pending.length === 0 ? piece : [...this.pending, piece].join(""));
			this.pending = [];
			this.pendingBytes = 0;
			start = newline + 1;
		}
		const rest = chunk.slice(start);
		if (rest !== "") {
			this.pending.push(rest);
			this.pendingBytes += Buffer.byteLength(rest, "utf8");
			if (this.pendingBytes > MAX_BRIDGE_LINE_BYTES) return this.tooLong();
		}
		return { ok: true, lines: lines.filter((line) => line.trim() !== "") };
	}

	private tooLong(): LinesRead {
		this.pending = [];
		this.pendingBytes = 0;
		return { ok: false, reason: `a line past ${MAX_BRIDGE_LINE_BYTES / 1024 / 1024} MiB without a newline` };
	}
}
