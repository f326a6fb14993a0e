import { type PiLine, type PiRun, type PiSpawnOptions, spawnPi } from "./pi-cli.ts";
import { waitFor } from "./wait-for.ts";

export interface RpcMessage {
	type: string;
	/** When the record arrived: performance.now() and wall-clock ms. */
	receivedAt: number;
	receivedEpochMs: number;
	id?: string;
	method?: string;
	[key: string]: unknown;
}

/** The real pi CLI in `--mode rpc`, with its JSONL output parsed (split on LF only, as the protocol asks). */
export class RpcPi {
	readonly messages: RpcMessage[] = [];
	private buffer = "";
	private nextId = 0;

	private constructor(readonly run: PiRun) {
		run.child.stdout?.on("data", (chunk: Buffer) => {
			this.buffer += chunk.toString("utf8");
			let newline = this.buffer.indexOf("\n");
			while (newline >= 0) {
				const line = this.buffer.slice(0, newline).replace(/\r$/, "");
				this.buffer = this.buffer.slice(newline + 1);
				if (line.trim()) {
					try {
						const receivedAt = performance.now();
						this.messages.push({ ...(JSON.parse(line) as RpcMessage), receivedAt, receivedEpochMs: Date.now() });
					} catch {
						// Not protocol output (a stray log line); the assertions only look at JSON records.
					}
				}
				newline = this.buffer.indexOf("\n");
			}
		});
	}

	static start(line: PiLine, options: PiSpawnOptions): RpcPi {
		return new RpcPi(spawnPi(line, { ...options, args: ["--mode", "rpc"] }));
	}

	get pid(): number {
		return this.run.child.pid as number;
	}

	send(command: Record<string, unknown>): string {
		const id = `t${++this.nextId}`;
		this.run.child.stdin?.write(`${JSON.stringify({ id, ...command })}\n`);
		return id;
	}

	/**
	 * Send a command and wait for its response record. The first command also waits for pi to start, which
	 * took over 15 s for pi 1.x with two full test runs at once on two cores: hence the generous deadline.
	 */
	async command(command: Record<string, unknown>, timeoutMs = 30_000): Promise<RpcMessage> {
		const id = this.send(command);
		return waitFor(
			`response to ${String(command.type)}`,
			() => this.messages.find((message) => message.type === "response" && message.id === id),
			timeoutMs,
		);
	}

	/** A prompt, answered by the fake model: resolves when the agent run has ended. */
	async prompt(message: string, timeoutMs = 30_000): Promise<void> {
		const before = this.messages.length;
		await this.command({ type: "prompt", message }, timeoutMs);
		await waitFor("agent_end", () => this.messages.slice(before).some((m) => m.type === "agent_end"), timeoutMs);
	}

	uiRequests(method: string): RpcMessage[] {
		return this.messages.filter((message) => message.type === "extension_ui_request" && message.method === method);
	}

	/** Widget updates with their arrival times, for latency measurements. */
	widgetEvents(key = "pi-ide-context"): { text: string | undefined; at: number; epochMs: number }[] {
		return this.uiRequests("setWidget")
			.filter((message) => message.widgetKey === key)
			.map((message) => ({
				text: (message.widgetLines as string[] | undefined)?.[0],
				at: message.receivedAt,
				epochMs: message.receivedEpochMs,
			}));
	}

	/** Every widget state pi-ide-context sent: its lines, or undefined when cleared. */
	widgetUpdates(key = "pi-ide-context"): (string[] | undefined)[] {
		return this.uiRequests("setWidget")
			.filter((message) => message.widgetKey === key)
			.map((message) => message.widgetLines as string[] | undefined);
	}

	lastWidget(key = "pi-ide-context"): string | undefined {
		const updates = this.widgetUpdates(key);
		return updates.length === 0 ? undefined : (updates.at(-1)?.[0] ?? "(cleared)");
	}

	/**
	 * Waits until the widget shows `expected`. A timeout says what pi showed instead, what `/ide status` said
	 * and pi's stderr: a run that fails on a CI machine explains itself.
	 */
	async waitForWidget(expected: string | ((line: string | undefined) => boolean), timeoutMs = 5000): Promise<void> {
		const matches = typeof expected === "string" ? (line?: string) => line === expected : expected;
		try {
			await waitFor(`the widget ${String(expected)}`, () => matches(this.lastWidget()), timeoutMs);
		} catch (error) {
			const status = await this.ideStatus().catch((reason: unknown) => [`(no /ide status: ${String(reason)})`]);
			const shown = this.widgetUpdates()
				.slice(-5)
				.map((lines) => lines?.[0] ?? "(cleared)");
			throw new Error(
				[
					String(error),
					`widget updates, the last five: ${JSON.stringify(shown)}`,
					...status,
					`stderr: ${this.stderr().slice(-2000)}`,
				].join("\n"),
			);
		}
	}

	/** `/ide status` run now: the doctor's lines, from the notice this command raised. */
	async ideStatus(): Promise<string[]> {
		const before = this.notices().length;
		await this.command({ type: "prompt", message: "/ide status" });
		const text = await waitFor("the /ide status notice", () =>
			this.notices()
				.slice(before)
				.find((notice) => notice.startsWith("pi-ide status")),
		);
		return text.split("\n");
	}

	/** What pi wrote to stderr so far (what a terminal user would see over pi's screen). */
	stderr(): string {
		return this.run.stderr();
	}

	notices(): string[] {
		return this.uiRequests("notify").map((message) => String(message.message));
	}

	respond(id: string, response: Record<string, unknown>): void {
		this.run.child.stdin?.write(`${JSON.stringify({ type: "extension_ui_response", id, ...response })}\n`);
	}

	async stop(): Promise<void> {
		if (this.run.child.exitCode !== null || this.run.child.signalCode !== null) return;
		this.run.child.stdin?.end();
		this.run.child.kill("SIGTERM");
		const exited = await Promise.race([
			this.run.exited.then(() => true),
			new Promise((done) => setTimeout(() => done(false), 5000)),
		]);
		if (!exited) {
			this.run.child.kill("SIGKILL");
			await this.run.exited;
		}
	}
}
