import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { WebSocket } from "ws";
import type { ListedEditor, SourceEvent } from "../../../src/editors/core/editor.ts";
import type { EditorRequests } from "../../../src/editors/editor-source.ts";
import type { LockEntryReport, Mention } from "../../../src/editors/ide-servers/core/status.ts";
import { IdeServerSource, type IdeServerSourceOptions } from "../../../src/editors/ide-servers/source.ts";
import type { IdeServersMode } from "../../../src/settings/core/settings.ts";
import type { Clock } from "../../../src/shared/core/clock.ts";
import {
	IDE_CLOSE_SETTLE_MS,
	IDE_REQUEST_TIMEOUT_MS,
	IDE_SELECTION_REPLAY_MS,
} from "../../../src/shared/core/timing.ts";
import { CleanupScope } from "../../support/cleanup-scope.ts";
import { ManualClock } from "../../support/clocks.ts";
import { FakeIdeServer, type FakeIdeServerOptions } from "../../support/fake-ide-server.ts";
import { FLAVOURS, type IdeFlavour } from "../../support/ide-server-flavours.ts";
import { testProcessFacts } from "../../support/process-facts.ts";
import { tempDir } from "../../support/temp-dir.ts";
import { waitFor } from "../../support/wait-for.ts";

/**
 * The IDE server source on real temp lock dirs, real sockets and the real `/proc`, without pi: a temp home
 * (its `.claude/ide` and `.pi/ide` only, never the developer's), fake IDE servers in this process (so every
 * server's key is `pid:<this process>`), and the hooks recorded. Time is a ManualClock unless a test asks for
 * another: request timeouts and the replay window move only when the test says so.
 */
export class SourceHarness {
	readonly scope = new CleanupScope();
	readonly home: string;
	readonly project: string;
	readonly clock = new ManualClock(Date.now() / 1000);
	/** What `connectedKey()` answers: set it, then `follow()`. */
	connected: string | undefined;
	readonly claimed = new Map<string, string>();
	readonly mentions: { key: string; mention: Mention }[] = [];
	readonly events: SourceEvent[] = [];
	changes = 0;

	/** Every fake in this process holds its port in this process: the one key they all list under. */
	static readonly KEY = `pid:${process.pid}`;

	constructor() {
		const root = tempDir("ide-source");
		this.scope.defer(root.cleanup);
		this.home = root.path;
		this.project = join(root.path, "proj");
		mkdirSync(join(this.project, "src"), { recursive: true });
	}

	lockDir(kind: "claude" | "pi"): string {
		return join(this.home, kind === "claude" ? ".claude" : ".pi", "ide");
	}

	/** A file of the project with `lines` lines, its absolute path. */
	file(name: string, lines = 5): string {
		const path = join(this.project, "src", name);
		writeFileSync(path, Array.from({ length: lines }, (_, index) => `line ${index + 1}\n`).join(""));
		return path;
	}

	async source(
		options: {
			mode?: IdeServersMode;
			env?: IdeServerSourceOptions["env"];
			clock?: Clock;
			requests?: EditorRequests;
		} = {},
	): Promise<IdeServerSource> {
		const source = new IdeServerSource(
			{
				mode: { mode: options.mode ?? "ask", source: "test" },
				uid: process.getuid?.() ?? 0,
				platform: "linux",
				facts: testProcessFacts(),
				home: this.home,
				env: options.env ?? {},
				connectedKey: () => this.connected,
				claimedElsewhere: (key) => this.claimed.get(key),
				mentioned: (key, mention) => this.mentions.push({ key, mention }),
				projectDir: () => this.project,
			},
			{
				clock: options.clock ?? this.clock,
				changed: () => this.changes++,
				event: (event) => this.events.push(event),
				notify: () => {},
				settled: () => {},
				...(options.requests && { requests: options.requests }),
			},
		);
		await source.start();
		this.scope.defer(() => source.close());
		return source;
	}

	/** A fake of `flavour` with its lockfile in the flavour's dir under the temp home, the project its first folder. */
	async server(flavour: IdeFlavour, options: Partial<FakeIdeServerOptions> = {}): Promise<FakeIdeServer> {
		const server = await FakeIdeServer.start({
			flavour,
			lockDir: this.lockDir(FLAVOURS[flavour].lockDir),
			workspaceFolders: [this.project],
			...options,
		});
		this.scope.defer(() => server.stop());
		return server;
	}

	/**
	 * Connects to the fake's key and waits for the handshake to be done; the clock then moves past the replay
	 * window (IDE_SELECTION_REPLAY_MS) but not as far as a request's timeout (a query at connect may be in flight).
	 */
	async connect(source: IdeServerSource, options: { pastReplay?: boolean } = {}): Promise<void> {
		this.connected = SourceHarness.KEY;
		source.follow();
		await waitFor("connected", () => lockOf(source)?.connection === "connected");
		// The listing is rebuilt after the connection is marked: what the connect read shows once it is.
		await waitFor("the connected editor listed", () => source.editors().some((editor) => editor.ideServer?.connected));
		if (options.pastReplay ?? true) this.clock.advance((IDE_SELECTION_REPLAY_MS + IDE_REQUEST_TIMEOUT_MS) / 2);
	}

	/** Another client (a Claude CLI) connects to the server with its token: a one-client server closes pi out. */
	anotherClient(server: FakeIdeServer): WebSocket {
		const other = new WebSocket(`ws://127.0.0.1:${server.port}`, ["mcp"], {
			headers: { "x-claude-code-ide-authorization": server.token ?? "" },
		});
		this.scope.defer(() => other.terminate());
		return other;
	}

	/**
	 * Waits for the server to close pi's connection, then moves the clock past the moment pi gives it to show
	 * whether it quit (IDE_CLOSE_SETTLE_MS), and waits for pi's verdict: the `ended` facts, or none when it went.
	 */
	async afterClose(source: IdeServerSource): Promise<void> {
		await waitFor("pi's connection closed", () => lockOf(source)?.connection === undefined);
		// The settle timer is set once pi has read the dir again: moved past on each look until the verdict.
		await waitFor("pi closed out", () => {
			this.clock.advance(IDE_CLOSE_SETTLE_MS);
			return source.facts(SourceHarness.KEY)?.ended;
		});
	}

	close(): Promise<void> {
		return this.scope.close();
	}
}

/** The one listed editor (undefined while none). */
export const editorOf = (source: IdeServerSource): ListedEditor | undefined => source.editors()[0];

/** The lockfile's line in the report: the first one, or the one of `port`. */
export function lockOf(source: IdeServerSource, port?: number): LockEntryReport | undefined {
	const locks = source.report().locks;
	return port === undefined ? locks[0] : locks.find((lock) => lock.port === port);
}

/** The methods a fake received, in order (requests' tool names as `tools/call name`). */
export function methodsSeen(server: FakeIdeServer): string[] {
	return server.received.map(({ message }) =>
		message?.method === "tools/call" ? `tools/call ${message.params?.name}` : String(message?.method),
	);
}

export const range = (line: number, character: number, endLine: number, endCharacter: number) => ({
	start: { line, character },
	end: { line: endLine, character: endCharacter },
});
