/**
 * Whether one Emacs's pushing hooks run: what pi wants, and what Emacs last said it does. A request that got no
 * answer leaves that unknown, since a busy Emacs runs it later, once free: the next decision then asks
 * whatever pi wants, and a state pushed while pi wants none (a late "on" run after the "off") asks "off"
 * again. One request at a time: a wish changed meanwhile is asked once the one running is answered.
 */
export class PushSwitch {
	private wanted = false;
	/** As Emacs's last answer said (the install's: off); undefined after a request it did not answer. */
	private known: boolean | undefined = false;
	private asking?: Promise<void>;
	/** How many frames Emacs last said a user sees: a push that changes it may be the frame hooks' alone. */
	private frames?: unknown;

	/** `ask` sends the request and says whether Emacs answered it (false: a timeout, an error, closed). */
	constructor(private readonly ask: (on: boolean) => Promise<boolean>) {}

	/** Pushing as far as pi knows: on only once Emacs said so. */
	get on(): boolean {
		return this.known === true;
	}

	/** pi wants the hooks on or off: asked unless Emacs said it is so already. */
	set(on: boolean): Promise<void> {
		this.wanted = on;
		return this.settle();
	}

	/** A probe or a read said how many frames a user sees. */
	framesSeen(frames: unknown): void {
		this.frames = frames;
	}

	/**
	 * A state pushed, counting `frames`. The frame hooks push with pushes off too, and only when the count
	 * changes: a push with the same count while pi wants none says the other hooks run.
	 */
	pushed(frames: unknown): void {
		const sameFrames = frames === this.frames;
		this.frames = frames;
		if (!sameFrames || this.wanted || this.asking) return;
		this.known = undefined;
		void this.settle();
	}

	private settle(): Promise<void> {
		if (this.asking) return this.asking;
		if (this.known === this.wanted) return Promise.resolve();
		this.asking = this.askUntilSettled().finally(() => {
			this.asking = undefined;
		});
		return this.asking;
	}

	private async askUntilSettled(): Promise<void> {
		while (this.known !== this.wanted) {
			const on = this.wanted;
			const answered = await this.ask(on).catch(() => false);
			this.known = answered ? on : undefined;
			// Not asked again at once: a busy Emacs would only queue more of the same. The next decision asks.
			if (!answered) return;
		}
	}
}
