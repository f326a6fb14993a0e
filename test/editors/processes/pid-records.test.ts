import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { afterEach, describe, expect, test } from "vitest";
import { PidRecords } from "../../../src/editors/processes/pid-records.ts";

/** The starts pi keeps for the synchronous questions, against a real child: `kill(pid, 0)` says whether it runs. */
describe("the starts recorded of pids pi has seen", () => {
	const children: ChildProcess[] = [];
	afterEach(() => {
		for (const child of children.splice(0)) child.kill("SIGKILL");
	});
	const start = () => {
		const child = spawn("sleep", ["30"], { stdio: "ignore" });
		children.push(child);
		return child;
	};
	const STARTED = 1_759_741_331;

	test("a running child: its start as noted, and it runs as the process of that start (within a second)", () => {
		const pid = start().pid as number;
		const records = new PidRecords();
		expect(records.startOf(pid)).toBeUndefined();
		records.note(pid, STARTED);
		expect(records.size).toBe(1);
		expect(records.startOf(pid)).toBe(STARTED);
		expect(records.runs(pid)).toBe(true);
		expect(records.runs(pid, STARTED)).toBe(true);
		expect(records.runs(pid, STARTED + 1)).toBe(true);
		expect(records.runs(pid, STARTED - 1)).toBe(true);
	});

	test("a start two seconds off or more is another process on a reused pid: it does not run", () => {
		const pid = start().pid as number;
		const records = new PidRecords();
		records.note(pid, STARTED);
		expect(records.runs(pid, STARTED + 2)).toBe(false);
		expect(records.runs(pid, STARTED - 3600)).toBe(false);
		expect(records.size).toBe(1);
	});

	test("noted again (a listing that found a new start): the newest counts", () => {
		const pid = start().pid as number;
		const records = new PidRecords();
		records.note(pid, STARTED);
		records.note(pid, STARTED + 60);
		expect(records.startOf(pid)).toBe(STARTED + 60);
		expect(records.runs(pid, STARTED)).toBe(false);
		expect(records.size).toBe(1);
	});

	test("a live pid never noted runs, whatever start is asked: nothing to tell it by", () => {
		const records = new PidRecords();
		expect(records.runs(process.pid)).toBe(true);
		expect(records.runs(process.pid, STARTED)).toBe(true);
		expect(records.startOf(process.pid)).toBeUndefined();
		expect(records.size).toBe(0);
	});

	test("once killed (and reaped), the record is dropped by the first question that finds it gone", async () => {
		const child = start();
		const pid = child.pid as number;
		const records = new PidRecords();
		records.note(pid, STARTED);
		child.kill("SIGKILL");
		await once(child, "exit");
		expect(records.size).toBe(1);
		expect(records.startOf(pid)).toBeUndefined();
		expect(records.size).toBe(0);

		records.note(pid, STARTED);
		expect(records.runs(pid, STARTED)).toBe(false);
		expect(records.size).toBe(0);
		expect(records.runs(pid)).toBe(false);
	});

	test("pid 0 and negative pids address process groups: never running", () => {
		const records = new PidRecords();
		records.note(0, STARTED);
		expect(records.runs(0)).toBe(false);
		expect(records.runs(-1)).toBe(false);
		expect(records.startOf(0)).toBeUndefined();
		expect(records.size).toBe(0);
	});
});
