import { type ChildProcess, spawn } from "node:child_process";
import { closeSync, existsSync, mkdirSync, openSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { removeDir, tempDir, writersInto } from "./temp-dir.ts";
import { waitFor } from "./wait-for.ts";

const children: ChildProcess[] = [];
afterEach(() => {
	for (const child of children.splice(0)) child.kill("SIGKILL");
});

function start(command: string, args: string[], cwd?: string): ChildProcess {
	const child = spawn(command, args, { cwd, stdio: "ignore" });
	children.push(child);
	return child;
}

describe("a temp dir's cleanup (test/support/temp-dir.ts)", () => {
	test("what works in the dir or holds a file in it is named; nothing else", async () => {
		const { path, cleanup } = tempDir("temp-dir-writers");
		try {
			mkdirSync(join(path, "sub"));
			const worker = start("sleep", ["30"], join(path, "sub"));
			const elsewhere = start("sleep", ["30"], "/");
			const fd = openSync(join(path, "held"), "w");
			try {
				await waitFor("the sleep in the dir", () => writersInto(path).some((w) => w.startsWith(`${worker.pid} `)));
				const writers = writersInto(path);
				expect(writers).toContainEqual(`${worker.pid} (sleep 30)`);
				expect(writers.some((w) => w.startsWith(`${elsewhere.pid} `))).toBe(false);
				// This process is never waited for: it is the one removing the dir.
				expect(writers.some((w) => w.startsWith(`${process.pid} `))).toBe(false);
			} finally {
				closeSync(fd);
			}
		} finally {
			for (const child of children) child.kill("SIGKILL");
			cleanup();
		}
		expect(existsSync(path)).toBe(false);
	});

	test("a process still writing into the dir as the removal runs: waited for, then removed", async () => {
		const { path } = tempDir("temp-dir-busy");
		// Works in the dir for 0.6 s, making its subdir again and a new file in it as fast as it can, as a pi
		// saving its session while it exits: the first removal meets a dir made after it emptied it.
		const writer = start(
			process.execPath,
			[
				"-e",
				`const fs = require("node:fs"); const end = Date.now() + 600; let n = 0;
				while (Date.now() < end) { fs.mkdirSync("out", { recursive: true }); fs.writeFileSync("out/f" + n++, "x"); }`,
			],
			path,
		);
		const exited = new Promise((done) => writer.once("exit", done));
		await waitFor("the writer at work", () => existsSync(join(path, "out", "f1")));
		const waitedFor = removeDir(path);
		expect(existsSync(path)).toBe(false);
		await exited;
		// The first removal may win the race; when it does not, the writer is what was waited for.
		for (const pid of waitedFor) expect(pid).toMatch(new RegExp(`^${writer.pid} `));
	});
});
