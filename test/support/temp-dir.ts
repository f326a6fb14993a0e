import { mkdtempSync, readdirSync, readFileSync, readlinkSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A fresh real directory; `cleanup` removes it. Real path, so tier comparisons see what pi sees. */
export function tempDir(prefix: string): { path: string; cleanup: () => void } {
	const path = realpathSync(mkdtempSync(join(tmpdir(), `${prefix}-`)));
	return { path, cleanup: () => removeDir(path) };
}

/** What a removal meets while another process still writes into the dir: a file made after its listing. */
const STILL_WRITTEN = new Set(["ENOTEMPTY", "EBUSY", "EEXIST"]);
const WRITERS_WAIT_MS = 5000;

/**
 * Removes `dir` and everything in it. A process the test started may still be writing there as it exits (pi
 * saving its session after tmux's kill-server, a pi stopped a moment ago): the removal then meets a file made
 * after it listed the dir. It then waits, up to 5 s, for every process working in the dir or holding a file in
 * it to let go (a tenth of a second at least), and tries once more; a second failure names what still held it.
 * Returns the processes it waited for (none when the first removal did it).
 */
export function removeDir(dir: string, waitMs = WRITERS_WAIT_MS): string[] {
	try {
		rmSync(dir, { recursive: true, force: true });
		return [];
	} catch (error) {
		if (!STILL_WRITTEN.has((error as NodeJS.ErrnoException).code ?? "")) throw error;
	}
	const deadline = Date.now() + waitMs;
	const waitedFor = writersInto(dir);
	let writers = waitedFor;
	do {
		sleepSync(100);
		writers = writersInto(dir);
	} while (writers.length > 0 && Date.now() < deadline);
	try {
		rmSync(dir, { recursive: true, force: true });
	} catch (error) {
		const held =
			writers.length > 0
				? `still held after ${waitMs} ms by ${writers.join("; ")}`
				: "no process held it: a writer that opens and closes each file";
		throw new Error(`could not remove ${dir} (tried twice): ${(error as Error).message}; ${held}`, { cause: error });
	}
	return waitedFor;
}

/** The processes (of any user /proc shows) whose cwd is in `dir` or holding a file in it: "pid (command)". */
export function writersInto(dir: string): string[] {
	const inside = (target: string) => target === dir || target.startsWith(`${dir}/`);
	const found: string[] = [];
	let pids: string[];
	try {
		pids = readdirSync("/proc").filter((name) => /^\d+$/.test(name) && Number(name) !== process.pid);
	} catch {
		return []; // no /proc: nothing to wait for
	}
	for (const pid of pids) {
		try {
			const links = [`/proc/${pid}/cwd`, ...readdirSync(`/proc/${pid}/fd`).map((fd) => `/proc/${pid}/fd/${fd}`)];
			if (!links.some((link) => inside(readLinkOrEmpty(link)))) continue;
			const command = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ").trim();
			found.push(`${pid} (${command.slice(0, 80) || "?"})`);
		} catch {
			// Gone between the listing and the look, or another user's process: not holding it as far as we can tell.
		}
	}
	return found;
}

function readLinkOrEmpty(link: string): string {
	try {
		return readlinkSync(link);
	} catch {
		return "";
	}
}

function sleepSync(ms: number): void {
	Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}
