import type { EditorFacts, EditorOrigin, EditorReading, ListedEditor } from "../core/editor.ts";
import { pidKey } from "../core/editor-key.ts";
import type { EditorAsked, ModelWriteShown } from "../editor-source.ts";
import { decidePushes, type PushingSession, sourceReading } from "./pushes.ts";
import type { SessionTable, TableSession } from "./session-table.ts";

/** What one connection to an editor's own server offers every source of them alike. */
export interface ServerSession<Channel> extends TableSession, PushingSession {
	/** It answered no request in time, or waits for the user: asked nothing more until it is heard from. */
	readonly isBlocked: boolean;
	refresh(): Promise<void>;
	unsavedNow(deadlineMs: number): Promise<readonly string[] | undefined>;
	reload(realPath: string): Promise<ModelWriteShown>;
	/** The review's way into that editor; undefined once closed. */
	diffChannel(enclosing: boolean): Channel | undefined;
}

/** A source's `/ide status` texts, from its report. */
export interface ServerSourceTexts<Report> {
	statusLines: (report: Report, nowSeconds: number, projectDir: string) => string[];
	noMatchLine: (report: Report) => string;
}

/** What the source reads of the connection: the project (tiers) and the connected key (one picked pushes). */
export interface ConnectionReads {
	projectDir: () => string;
	connectedKey: () => string | undefined;
}

/**
 * What every source of editors' own servers (a Neovim's, an Emacs's) answers alike over its sessions: the
 * editors it lists and their facts, no polling (a closed connection is the death signal), the unsaved list asked
 * of the editor now, the model's write shown, which of them push. How they are found, connected to and described
 * is the protocol's, in the source that extends this: a base that knows no editor.
 */
export abstract class ServerSource<S extends ServerSession<Channel>, Channel, Report> {
	readonly lost = false;
	private paused = false;
	/** Set as the source starts closing: no pushes are asked for from then on. */
	protected closing = false;
	protected abstract readonly table: SessionTable<S, unknown>;

	protected constructor(
		private readonly origin: EditorOrigin,
		private readonly reads: ConnectionReads,
		private readonly texts: ServerSourceTexts<Report>,
	) {}

	/** pi runs in that editor's terminal. */
	protected abstract isEnclosing(pid: number): boolean;

	/** What the source knows, for `/ide status`. */
	abstract report(): Report;

	statusLines(nowSeconds: number, projectDir: string): string[] {
		return this.texts.statusLines(this.report(), nowSeconds, projectDir);
	}

	noMatchLine(): string {
		return this.texts.noMatchLine(this.report());
	}

	/** Those with a reading and a UI a user sees: a headless one, or a daemon with no frame, is not offered. */
	editors(): ListedEditor[] {
		const listed: ListedEditor[] = [];
		for (const session of this.table.openSessions()) {
			const reading = this.readingOf(session);
			if (reading && session.hasUi) listed.push({ ...reading, key: pidKey(session.found.pid), alive: true });
		}
		return listed;
	}

	facts(key: string): EditorFacts | undefined {
		return this.table.facts(key, (session) => this.readingOf(session));
	}

	/** The connection's close says an editor died; nothing to ask. */
	checkLiveness(): boolean {
		return false;
	}

	/** What was pushed last is what a prompt uses: nothing to wait for. */
	isPending(): boolean {
		return false;
	}

	async flush(): Promise<void> {}

	/** No pushes while pi is disconnected by `/ide off`. */
	async setPaused(paused: boolean): Promise<void> {
		this.paused = paused;
		await this.decidePushes();
	}

	async connectionChanged(paused: boolean): Promise<void> {
		await this.setPaused(paused);
	}

	/** The files that editor holds unsaved, asked now; undefined past the deadline (the guard keeps the pushed list). */
	async unsavedNow(key: string, deadlineMs: number): Promise<readonly string[] | undefined> {
		return this.table.sessionOf(key)?.unsavedNow(deadlineMs);
	}

	/** The model's write shown in an editor this source reads (its own reload of an unmodified buffer). */
	async reload(editor: EditorAsked, realPath: string): Promise<ModelWriteShown | undefined> {
		return editor.origin === this.origin ? this.table.sessionOf(editor.key)?.reload(realPath) : undefined;
	}

	/** The review's way into that key's editor; undefined when pi holds no open connection with it. */
	protected sessionChannel(key: string): Channel | undefined {
		const session = this.table.sessionOf(key);
		return session?.diffChannel(this.isEnclosing(session.found.pid));
	}

	/** Asked by hand (`/ide`): every editor read again, and who pushes decided again. */
	protected async readAllAgain(): Promise<void> {
		await Promise.all(this.table.openSessions().map((session) => session.refresh()));
		await this.decidePushes();
	}

	/** The session's reading with what only the source knows: blocked now, the editor pi runs in. */
	protected readingOf(session: S): EditorReading | undefined {
		return sourceReading(session.reading(), {
			blocked: session.isBlocked,
			enclosing: this.isEnclosing(session.found.pid),
		});
	}

	protected decidePushes(): Promise<void> {
		return decidePushes(this.table.openSessions(), {
			projectDir: this.reads.projectDir(),
			connectedKey: this.reads.connectedKey(),
			stopped: this.paused || this.closing,
			isEnclosing: (pid) => this.isEnclosing(pid),
		});
	}
}
