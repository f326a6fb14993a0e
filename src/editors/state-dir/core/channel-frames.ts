/**
 * The VS Code client's channel: newline-delimited JSON-RPC 2.0 over its unix socket, one message per line (JSON
 * never holds a raw newline). Both ends cut the byte stream with this; the client bundles it.
 */

/** A line over this closes the connection: a whole file as proposed or accepted fits, a flood does not. */
export const CHANNEL_MAX_FRAME_BYTES = 16 * 1024 * 1024;

const NEWLINE = 0x0a;

/** What one chunk gave: whole lines as text, lines that were no UTF-8 (counted), and whether a line outgrew the cap. */
export interface FramesOut {
	frames: string[];
	undecodable: number;
	overflow: boolean;
}

/** Cuts chunks into lines; the bytes of an unfinished line are kept (as parts, so a 16 MiB line costs one copy). */
export class LineFrames {
	private parts: Uint8Array[] = [];
	private held = 0;
	private readonly decoder = new TextDecoder("utf-8", { fatal: true });

	constructor(private readonly maxBytes = CHANNEL_MAX_FRAME_BYTES) {}

	push(chunk: Uint8Array): FramesOut {
		const out: FramesOut = { frames: [], undecodable: 0, overflow: false };
		let start = 0;
		for (let at = chunk.indexOf(NEWLINE); at !== -1; at = chunk.indexOf(NEWLINE, start)) {
			const piece = chunk.subarray(start, at);
			start = at + 1;
			if (this.held + piece.length > this.maxBytes) return { ...out, overflow: true };
			const line = this.take(piece);
			// An empty line is no message and no mistake (a client may end with a bare newline).
			if (line.length === 0) continue;
			try {
				out.frames.push(this.decoder.decode(line));
			} catch {
				out.undecodable++;
			}
		}
		const rest = chunk.subarray(start);
		if (this.held + rest.length > this.maxBytes) return { ...out, overflow: true };
		if (rest.length > 0) {
			// Copied (a Buffer's own slice is a view): a kept view would pin the whole chunk.
			this.parts.push(new Uint8Array(rest));
			this.held += rest.length;
		}
		return out;
	}

	/** The kept bytes and `piece` as one line; the keeping starts over. */
	private take(piece: Uint8Array): Uint8Array {
		if (this.parts.length === 0) return piece;
		const line = new Uint8Array(this.held + piece.length);
		let offset = 0;
		for (const part of this.parts) {
			line.set(part, offset);
			offset += part.length;
		}
		line.set(piece, offset);
		this.parts = [];
		this.held = 0;
		return line;
	}
}

/** One message as it goes on the wire. */
export const frameText = (message: unknown) => `${JSON.stringify(message)}\n`;
