/** A line may be at most this long: a client that sends more without a newline is dropped (both sides agree). */
export const MAX_BRIDGE_LINE_BYTES = 1024 * 1024;

/** What one chunk of a connection gave: its whole lines, or that the connection is past the cap. */
export type LinesRead = { ok: true; lines: string[] } | { ok: false; reason: string };

/** NDJSON as it arrives: chunks in (decoded), whole lines out (several per chunk, or one over many), the rest kept. */
export class LineReader {
	private rest = "";

	read(chunk: string): LinesRead {
		const parts = (this.rest + chunk).split("\n");
		this.rest = parts.pop() ?? "";
		if (pastCap(this.rest) || parts.some(pastCap))
			return { ok: false, reason: `a line past ${MAX_BRIDGE_LINE_BYTES / 1024 / 1024} MiB without a newline` };
		return { ok: true, lines: parts.filter((line) => line.trim() !== "") };
	}
}

// A UTF-16 unit is one to three bytes: only a line of a third of the cap in units may be past it in bytes.
const pastCap = (line: string) =>
	line.length > MAX_BRIDGE_LINE_BYTES / 3 && Buffer.byteLength(line, "utf8") > MAX_BRIDGE_LINE_BYTES;
