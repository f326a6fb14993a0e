export interface PushHandlers {
	/** One JSON value the Emacs sent (untrusted: the caller checks its shape). */
	message(value: unknown): void;
	/** The connection ended by Emacs's side (EOF, an error, an oversize line); not called after `close()`. */
	closed(reason: string): void;
}

/** One Emacs pi expects, or is connected to, on its push socket. */
export interface PushPeer {
	/** What the install's args carry: the first line the Emacs must write. */
	readonly token: string;
	readonly connected: boolean;
	/** Settles true once the Emacs said this token, false if the peer ends (or is closed) before. */
	readonly whenConnected: Promise<boolean>;
	/** Lines that were not JSON, ignored. */
	readonly ignoredLines: number;
	/** Ends the connection (Emacs's sentinel then removes everything of pi's), or forgets the token. */
	close(): void;
}

/**
 * One Emacs pi handed a token to: connected once its connection said the token, its lines JSON messages for its
 * handlers, its end told once. Pure: push-listener.ts hands it the connection and the lines (core/push-lines.ts).
 */
export class Peer implements PushPeer {
	connected = false;
	ignoredLines = 0;
	/** The connection that said the token: ended with the peer. */
	socket: { destroy(): void } | undefined;
	readonly whenConnected: Promise<boolean>;
	private settleConnected: (connected: boolean) => void = () => {};
	private done = false;

	constructor(
		readonly token: string,
		private readonly handlers: PushHandlers,
		private readonly forget: (token: string) => void,
	) {
		this.whenConnected = new Promise((settle) => {
			this.settleConnected = settle;
		});
	}

	get open(): boolean {
		return !this.done;
	}

	attach(socket: { destroy(): void }): void {
		this.socket = socket;
		this.connected = true;
		this.settleConnected(true);
	}

	line(bytes: Buffer): void {
		let value: unknown;
		try {
			value = JSON.parse(bytes.toString("utf8"));
		} catch {
			this.ignoredLines++;
			return;
		}
		this.handlers.message(value);
	}

	ended(reason: string): void {
		if (this.done) return;
		this.finish();
		this.handlers.closed(reason);
	}

	close(): void {
		if (this.done) return;
		this.finish();
	}

	private finish(): void {
		this.done = true;
		this.connected = false;
		this.settleConnected(false);
		this.forget(this.token);
		this.socket?.destroy();
	}
}
