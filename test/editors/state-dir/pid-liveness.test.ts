import { spawn, spawnSync } from "node:child_process";
import { describe, expect, test } from "vitest";
import { PidLiveness } from "../../../src/editors/state-dir/pid-liveness.ts";
import { testProcessFacts } from "../../support/process-facts.ts";
import { waitFor } from "../../support/wait-for.ts";

const proc = testProcessFacts("proc");

/** A pid that ran and exited (reaped), so `kill(pid, 0)` finds nothing there now. */
const deadPid = (): number => spawnSync("true").pid as number;

describe("the pids a state dir's files name", () => {
	test("alive or dead as kill(pid, 0) finds it; a pid believed alive that died is told once", async () => {
		const pids = new PidLiveness(proc, () => {});
		expect(pids.isAlive(deadPid())).toBe(false);
		const editor = spawn("sleep", ["30"], { stdio: "ignore" });
		const pid = editor.pid as number;
		expect(pids.isAlive(pid)).toBe(true);
		expect(pids.checkBelievedAlive()).toBe(false);
		const exited = new Promise((settle) => editor.once("exit", settle));
		editor.kill("SIGKILL");
		await exited;
		expect(pids.checkBelievedAlive()).toBe(true);
		expect(pids.isAlive(pid)).toBe(false);
		expect(pids.checkBelievedAlive()).toBe(false);
	});

	test("a pid whose process started after the file was written is reused; the answer kept per write", () => {
		const pids = new PidLiveness(proc, () => {});
		const startedLongAgo = 1;
		expect(pids.isReused(process.pid, startedLongAgo)).toBe(true);
		expect(pids.isReused(process.pid, Date.now() / 1000 + 60)).toBe(false);
	});

	test("where asking spawns ps, a start not known yet is asked once in the background; learned is told, then it decides", async () => {
		const ps = testProcessFacts("ps");
		let learned = 0;
		const pids = new PidLiveness(ps, () => learned++);
		const startedLongAgo = 1;
		expect(pids.isReused(process.pid, startedLongAgo)).toBe("asking");
		expect(pids.isReused(process.pid, startedLongAgo)).toBe("asking");
		await waitFor("the start learned in the background", () => learned > 0 || undefined);
		expect(learned).toBe(1);
		expect(pids.isReused(process.pid, startedLongAgo)).toBe(true);
		expect(pids.isReused(process.pid, Date.now() / 1000 + 60)).toBe(false);
	});

	test("the starts of the pids a dir's files name found out in one ask, before the first listing", async () => {
		const ps = testProcessFacts("ps");
		const pids = new PidLiveness(ps, () => {});
		const editor = spawn("sleep", ["30"], { stdio: "ignore" });
		try {
			await pids.learnStarts([editor.pid as number, process.pid]);
			expect(pids.isReused(process.pid, 1)).toBe(true);
			expect(pids.isReused(editor.pid as number, Date.now() / 1000 + 60)).toBe(false);
		} finally {
			editor.kill("SIGKILL");
		}
	});

	test("records of pids no file names are dropped once they outgrow the files", () => {
		const pids = new PidLiveness(proc, () => {});
		const others = [deadPid(), deadPid(), deadPid()];
		for (const pid of others) pids.isAlive(pid);
		pids.isAlive(process.pid);
		let asked = 0;
		const named = () => {
			asked++;
			return new Set([process.pid]);
		};
		pids.forgetOthers(10, named);
		expect(asked).toBe(0);
		pids.forgetOthers(1, named);
		expect(asked).toBe(1);
		pids.forgetOthers(1, named);
		expect(asked).toBe(1);
	});
});
