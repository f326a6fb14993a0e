/**
 * Every ask between the editor and pi's run, as pure state: `sendUserMessage` returns nothing and reports its
 * errors where an extension cannot listen, so each ask is followed by its own marks. Sent idle, it must pass
 * pi's `input` (the token) and start a run within a wait; sent busy, it is queued and counts as delivered at its
 * own user message. A run that an ask started or was steered into belongs to that editor until the run's end.
 */

/** The token an ask's text starts with until the `input` hook takes it off: only pi's own input sees it. */
const TOKEN = /^\[pi-ide-ask (\d{1,9})\] /;
export const askToken = (id: number) => `[pi-ide-ask ${id}] `;

export interface AskSent {
	id: number;
	key: string;
	label: string;
	/** How the transcript names where it came from (`asked from Neovim 4242`, and a connection it made). */
	from: string;
	/** The message as the model reads it (without the token). */
	text: string;
	/** pi was idle when it was sent: it must start a run. */
	idle: boolean;
	sentAtMs: number;
	seen: boolean;
}

/** One editor's share of the run: told working once, told done at its end. */
export interface RunAsker {
	key: string;
	label: string;
}

export interface RunRecord {
	askers: RunAsker[];
	files: string[];
}

export class AskLedger {
	private readonly waiting = new Map<number, AskSent>();
	private run?: { askers: Map<string, RunAsker>; files: Set<string> };
	/** The run started by an ask whose prompt pi is about to handle (`before_agent_start`). */
	private starting?: AskSent;
	private nextId = 1;

	/** Records an ask about to be sent; the text to send carries its token. */
	sending(ask: Omit<AskSent, "id" | "seen">): { id: number; sent: string } {
		const id = this.nextId++;
		this.waiting.set(id, { ...ask, id, seen: false });
		return { id, sent: `${askToken(id)}${ask.text}` };
	}

	/** pi's `input`: an ask's text without its token (and the ask), or undefined when it is not one of ours. */
	inputSeen(text: string, idleNow: boolean): { text: string; ask: AskSent } | undefined {
		const match = TOKEN.exec(text);
		const ask = match && this.waiting.get(Number(match[1]));
		if (!match || !ask) return undefined;
		ask.seen = true;
		// pi was busy by the time it took the text: it queued it, and its own user message delivers it.
		ask.idle = idleNow;
		if (ask.idle) this.starting = ask;
		return { text: text.slice(match[0].length), ask };
	}

	/** The ask whose text is the prompt `before_agent_start` sees, if any. */
	promptAsk(prompt: string): AskSent | undefined {
		const ask = this.starting;
		return ask && ask.text === prompt ? ask : undefined;
	}

	/** A run started: the idle ask that started it is delivered; the editors to tell "working". */
	runStarted(): RunAsker[] {
		// pi 1.x retries or continues a run under new `agent_start`s before it settles: still the same run.
		this.run ??= { askers: new Map(), files: new Set() };
		const ask = this.starting;
		this.starting = undefined;
		if (!ask) return [];
		this.waiting.delete(ask.id);
		return this.join(ask);
	}

	/** A user message of the run: a queued ask delivered by it (matched by its text); the editors newly in. */
	userMessage(text: string): RunAsker[] {
		for (const ask of this.waiting.values()) {
			if (!ask.seen || ask.text !== text) continue;
			this.waiting.delete(ask.id);
			return this.join(ask);
		}
		return [];
	}

	private join(ask: AskSent): RunAsker[] {
		this.run ??= { askers: new Map(), files: new Set() };
		if (this.run.askers.has(ask.key)) return [];
		const asker = { key: ask.key, label: ask.label };
		this.run.askers.set(ask.key, asker);
		return [asker];
	}

	/** The editors this run belongs to now. */
	askers(): RunAsker[] {
		return [...(this.run?.askers.values() ?? [])];
	}

	fileChanged(path: string): void {
		this.run?.files.add(path);
	}

	/** The run ended (and will not go on by itself): what it was, for the editors that asked. */
	runEnded(): RunRecord {
		const run = this.run;
		this.run = undefined;
		return { askers: [...(run?.askers.values() ?? [])], files: [...(run?.files ?? [])] };
	}

	/** Asks sent idle that started no run within `waitMs`: given up, each to be told why. */
	expired(nowMs: number, waitMs: number): AskSent[] {
		const out: AskSent[] = [];
		for (const ask of this.waiting.values()) {
			if (!ask.idle || nowMs - ask.sentAtMs < waitMs) continue;
			this.waiting.delete(ask.id);
			if (this.starting === ask) this.starting = undefined;
			out.push(ask);
		}
		return out;
	}

	/** An ask pi refused outright (its send threw): forgotten, the others kept. */
	forget(id: number): void {
		if (this.starting?.id === id) this.starting = undefined;
		this.waiting.delete(id);
	}

	/** The session ends: every ask not yet delivered, to be told so; the run forgotten. */
	clear(): AskSent[] {
		const out = [...this.waiting.values()];
		this.waiting.clear();
		this.starting = undefined;
		this.run = undefined;
		return out;
	}
}
