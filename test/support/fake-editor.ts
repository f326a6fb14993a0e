import { type ChildProcess, spawn } from "node:child_process";
import { renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/**
 * A real live process standing in for an editor: its pid passes `kill(pid, 0)`. The test writes its state
 * file the way real clients do (tmp file, then rename). A `sleep`, not a Node: the hostile corpus's churn starts
 * 200 of them, which took 15 s as Node processes on two loaded cores and takes under 2 s as `sleep`s.
 */
export class FakeEditor {
	readonly process: ChildProcess;

	private constructor(
		readonly stateDir: string,
		child: ChildProcess,
	) {
		this.process = child;
	}

	static spawn(stateDir: string): FakeEditor {
		const child = spawn("sleep", ["infinity"], { stdio: "ignore" });
		if (child.pid === undefined) throw new Error("could not spawn a fake editor process");
		return new FakeEditor(stateDir, child);
	}

	get pid(): number {
		return this.process.pid as number;
	}

	get file(): string {
		return join(this.stateDir, `${this.pid}.json`);
	}

	/** Atomic write: `<pid>.json.tmp` then rename, as protocol v0.2 requires. */
	write(state: object | string): void {
		const text = typeof state === "string" ? state : JSON.stringify({ ...state, pid: this.pid });
		writeAtomic(this.file, text);
	}

	removeFile(): void {
		rmSync(this.file, { force: true });
	}

	/** `kill -9`: the file stays behind, nothing more is written. Resolves once the process is gone. */
	async kill(signal: NodeJS.Signals = "SIGKILL"): Promise<void> {
		if (this.process.exitCode !== null || this.process.signalCode !== null) return;
		const exited = new Promise<void>((done) => this.process.once("exit", () => done()));
		this.process.kill(signal);
		await exited;
	}
}

export function writeAtomic(path: string, text: string): void {
	writeFileSync(`${path}.tmp`, text);
	renameSync(`${path}.tmp`, path);
}

/** The state file of `pid` in `dir`, written as clients write it, for a process the test did not spawn as one. */
export class StateFileWriter {
	constructor(
		readonly stateDir: string,
		readonly pid: number,
	) {}

	get file(): string {
		return join(this.stateDir, `${this.pid}.json`);
	}

	write(state: object): void {
		writeAtomic(this.file, JSON.stringify({ ...state, pid: this.pid }));
	}
}
