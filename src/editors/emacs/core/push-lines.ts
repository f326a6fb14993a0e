/**
 * The push connection's framing: bytes in, whole lines out, each line at most `maxBytes` (its newline not
 * counted). Chunks are kept as they came and joined once per line, so a long line costs one copy, not one per
 * chunk. Pure: push-listener.ts feeds it what the socket read.
 */
export type LinesStep = { ok: true; lines: Buffer[] } | { ok: false; reason: string };

export class PushLines {
	private pending: Buffer[] = [];
	private pendingBytes = 0;

	constructor(private readonly maxBytes: number) {}

	/** The bytes of the line not yet ended. */
	get waitingBytes(): number {
		return this.pendingBytes;
	}

	/** One more chunk: the lines it ended, or why the connection must end (a line over the cap). */
	push(chunk: Buffer): LinesStep {
		const lines: Buffer[] = [];
		let start = 0;
		for (;;) {
			const newline = chunk.indexOf(10, start);
			const end = newline === -1 ? chunk.length : newline;
			if (this.pendingBytes + (end - start) > this.maxBytes) {
				return { ok: false, reason: `a line over ${this.maxBytes} bytes` };
			}
			if (newline === -1) break;
			const part = chunk.subarray(start, newline);
			lines.push(this.pending.length === 0 ? part : Buffer.concat([...this.pending, part]));
			this.pending = [];
			this.pendingBytes = 0;
			start = newline + 1;
		}
		if (start < chunk.length) {
			this.pending.push(chunk.subarray(start));
			this.pendingBytes += chunk.length - start;
		}
		return { ok: true, lines };
	}
}
