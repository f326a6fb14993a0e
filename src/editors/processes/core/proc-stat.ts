/**
 * One line of Linux's `/proc/<pid>/stat`. The command name (field 2) sits in parentheses and may itself hold
 * spaces and parentheses, so the fields after it are counted from its last `)`: field 3 is the first there.
 */

export interface ProcStat {
	/** Field 2: the command name, as `/proc/<pid>/comm` has it (at most 15 bytes). */
	name: string;
	/** Field 3: R, S, D, T, Z (a zombie: exited, not yet reaped by its parent), X (dead), ... */
	state: string;
	/** Field 4: the parent's pid (0 for the first process). */
	parentPid: number;
	/** Field 22: clock ticks from boot to the process's start. */
	startTicks: number;
}

export function parseProcStat(line: string): ProcStat | undefined {
	const open = line.indexOf("(");
	const close = line.lastIndexOf(")");
	if (open < 0 || close < open) return undefined;
	const fields = line
		.slice(close + 1)
		.trim()
		.split(/\s+/);
	const state = fields[0] ?? "";
	const parentPid = Number(fields[4 - 3]);
	const startTicks = Number(fields[22 - 3]);
	if (!/^[A-Za-z]$/.test(state) || !Number.isSafeInteger(startTicks) || startTicks < 0) return undefined;
	if (!Number.isSafeInteger(parentPid) || parentPid < 0) return undefined;
	return { name: line.slice(open + 1, close), state, parentPid, startTicks };
}

/** An exited process whose parent has not reaped it yet, or one being torn down: it runs no more. */
export function hasExited(stat: ProcStat): boolean {
	return stat.state === "Z" || stat.state === "X" || stat.state === "x";
}

/** Its parent, the parent's parent, ... up to the first process (a loop in the table ends the walk). */
export function ancestors(pid: number, parentOf: (pid: number) => number | undefined): number[] {
	const found: number[] = [];
	for (let next = parentOf(pid); next !== undefined && next > 0 && !found.includes(next); next = parentOf(next))
		found.push(next);
	return found;
}

/** Every process below `root` in a table of pid → parent pid (children, theirs, ...), nearest first. */
export function descendants(root: number, parentOf: ReadonlyMap<number, number>): number[] {
	const children = new Map<number, number[]>();
	for (const [pid, parent] of parentOf) children.set(parent, [...(children.get(parent) ?? []), pid]);
	const found: number[] = [];
	const queue = [root];
	for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
		for (const child of children.get(next) ?? []) {
			if (child === root || found.includes(child)) continue;
			found.push(child);
			queue.push(child);
		}
	}
	return found;
}
