import { type ChildProcess, spawn } from "node:child_process";
import { join } from "node:path";
import { createInterface } from "node:readline";
import type { ListedEditor } from "../../src/editors/core/editor.ts";
import type { ZedReport } from "../../src/editors/zed/core/status.ts";
import { waitFor } from "./wait-for.ts";

const RUNNER = join(import.meta.dirname, "zed-source-runner.ts");
const REPO = join(import.meta.dirname, "..", "..");

export type RunnerLine =
	| { kind: "listed"; editors: ListedEditor[]; reads?: ZedReport["reads"] }
	| { kind: "event"; event: { kind: string; label?: string } }
	| { kind: "started"; report: ZedReport }
	| { kind: "report"; report: ZedReport }
	| { kind: "flushed"; editors: ListedEditor[] }
	| { kind: "notice"; message: string }
	| { kind: "closed" };

/** The real ZedSource in a child on a Node with node:sqlite: what it lists, as it lists it. */
export class ZedSourceProcess {
	readonly lines: RunnerLine[] = [];
	private readonly child: ChildProcess;

	private constructor(node: string, args: string[], backend?: "proc" | "ps") {
		this.child = spawn(node, ["--import", "jiti/register", RUNNER, ...args], {
			cwd: REPO,
			stdio: ["pipe", "pipe", "inherit"],
			env: backend ? { ...process.env, PI_IDE_PROCESS_FACTS: backend } : process.env,
		});
		createInterface({ input: this.child.stdout as NodeJS.ReadableStream }).on("line", (line) =>
			this.lines.push(JSON.parse(line) as RunnerLine),
		);
	}

	/**
	 * `testScope`: the fixture's `PI_IDE_TEST_PROC_SCOPE`, so that only its Zeds are seen. `platform`: what the
	 * source is told it runs on (Linux by default); `backend`: how it asks about processes (the run's by default).
	 */
	static async start(
		node: string,
		dataHome: string,
		home: string,
		testScope: string,
		options: { platform?: string; backend?: "proc" | "ps" } = {},
	): Promise<ZedSourceProcess> {
		const args = [dataHome, home, testScope, ...(options.platform ? [options.platform] : [])];
		const runner = new ZedSourceProcess(node, args, options.backend);
		await waitFor("the Zed source to start", () => runner.lines.some((line) => line.kind === "started"), 20_000);
		return runner;
	}

	/** The editors it listed last. */
	editors(): ListedEditor[] {
		for (let index = this.lines.length - 1; index >= 0; index--) {
			const line = this.lines[index];
			if (line?.kind === "listed" || line?.kind === "flushed") return line.editors;
		}
		return [];
	}

	async report(key = ""): Promise<{ report: ZedReport; facts?: unknown }> {
		const before = this.lines.length;
		this.send({ cmd: "report", key });
		return waitFor("a report", () =>
			this.lines.slice(before).find((line): line is Extract<RunnerLine, { kind: "report" }> => line.kind === "report"),
		);
	}

	events(): string[] {
		return this.lines.flatMap((line) =>
			line.kind === "event" ? [`${line.event.kind} ${line.event.label ?? ""}`.trim()] : [],
		);
	}

	async close(): Promise<void> {
		if (this.child.exitCode !== null) return;
		this.send({ cmd: "close" });
		await waitFor("the runner to close", () => this.lines.some((line) => line.kind === "closed"), 5000).catch(() => {});
		this.child.kill();
	}

	private send(command: Record<string, unknown>): void {
		this.child.stdin?.write(`${JSON.stringify(command)}\n`);
	}
}
