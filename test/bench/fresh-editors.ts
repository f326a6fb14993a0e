import { type ChildProcess, spawn } from "node:child_process";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { writeAtomic } from "../support/fake-editor.ts";

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** Editors come in batches of this many, live together for a moment, then go. */
const BATCH = 25;

/**
 * Editors that come and go, each with a pid pi has never seen: every batch is new `sleep` processes (cheap,
 * where a Node per editor is not), their state files written as clients write them, then removed and the
 * processes ended. Only so does growth per new editor show: the same pids again meet what pi already holds.
 */
export class FreshEditors {
	private readonly pids = new Set<number>();

	constructor(private readonly stateDir: string) {}

	/** How many distinct pids have come so far. */
	get distinctPids(): number {
		return this.pids.size;
	}

	/** `count` editors, `BATCH` at a time; `state` is the file each writes. */
	async comeAndGo(count: number, state: (pid: number, index: number) => string): Promise<void> {
		for (let first = 0; first < count; first += BATCH) {
			const batch: ChildProcess[] = [];
			for (let index = first; index < Math.min(count, first + BATCH); index++) {
				const child = spawn("sleep", ["600"], { stdio: "ignore" });
				const pid = child.pid;
				if (pid === undefined) throw new Error("could not spawn an editor process");
				this.pids.add(pid);
				batch.push(child);
				writeAtomic(join(this.stateDir, `${pid}.json`), state(pid, index));
			}
			await sleep(10);
			for (const child of batch) rmSync(join(this.stateDir, `${child.pid}.json`), { force: true });
			await Promise.all(batch.map(end));
		}
	}
}

function end(child: ChildProcess): Promise<void> {
	if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
	const exited = new Promise<void>((done) => child.once("exit", () => done()));
	child.kill("SIGKILL");
	return exited;
}
