/**
 * What `ps` prints, read alike from macOS's (BSD, adv_cmds) and Linux's (procps). pi runs it as
 * `LC_ALL=C TZ=UTC0 ps -A -ww -o pid=,ppid=,uid=,stat=,lstart=,ucomm=`: `=` drops the headers, every column but
 * the last is cut to its width (none here can outgrow it), `lstart` is `strftime("%c")`, in the C locale
 * `Mon Oct  6 22:35:28 2025` (the day padded with a space) in the zone `TZ` names: UTC, so a repeated daylight
 * saving hour cannot read twice. `ucomm` is the kernel's name of the executable (not argv[0], which a process
 * sets): last, because it may hold a space.
 */

/** The columns of one listing, in the order parsed below. */
export const PS_LISTING_COLUMNS = "pid=,ppid=,uid=,stat=,lstart=,ucomm=";

/** One process as `ps` lists it. */
export interface ListedProcess {
	pid: number;
	parentPid: number;
	/** The effective uid. */
	uid: number;
	/** Unix seconds, whole: `lstart` has one-second resolution. */
	startSeconds: number;
	/** The kernel's name of the executable (macOS: at most 16 bytes; Linux: 15). */
	name: string;
	/** A zombie (`Z`): exited, not reaped yet. */
	exited: boolean;
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const WEEKDAYS = new Set(["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]);

/** `Mon Oct  6 22:35:28 2025` (as its five words) in UTC → unix seconds; undefined when it is not that shape. */
export function lstartSeconds(words: readonly string[]): number | undefined {
	const [weekday, monthName, day, time, year] = words;
	const month = MONTHS.indexOf(monthName ?? "");
	const clock = /^(\d{2}):(\d{2}):(\d{2})$/.exec(time ?? "");
	if (
		!WEEKDAYS.has(weekday ?? "") ||
		month < 0 ||
		!clock ||
		!/^\d{1,2}$/.test(day ?? "") ||
		!/^\d{4}$/.test(year ?? "")
	)
		return undefined;
	const [hours, minutes, seconds] = clock.slice(1).map(Number) as [number, number, number];
	const millis = Date.UTC(Number(year), month, Number(day), hours, minutes, seconds);
	const date = new Date(millis);
	// 31 Feb is no date: Date.UTC would roll it into March. No second 60 either: ps formats a time_t, which has none.
	return date.getUTCDate() === Number(day) && hours < 24 && minutes < 60 && seconds < 60 ? millis / 1000 : undefined;
}

/** A listing's lines read; `unreadable` counts lines of another shape (a `ps` that prints something else). */
export function parsePsListing(text: string): { processes: ListedProcess[]; unreadable: number } {
	const processes: ListedProcess[] = [];
	let unreadable = 0;
	for (const line of text.split("\n")) {
		if (line.trim() === "") continue;
		const listed = parseListedLine(line);
		if (listed) processes.push(listed);
		else unreadable++;
	}
	return { processes, unreadable };
}

function parseListedLine(line: string): ListedProcess | undefined {
	const words = line.trim().split(/\s+/);
	const [pid, parentPid, uid] = words.slice(0, 3).map((word) => (/^\d+$/.test(word) ? Number(word) : Number.NaN));
	if (!Number.isSafeInteger(pid) || !Number.isSafeInteger(parentPid) || !Number.isSafeInteger(uid)) return undefined;
	// A Mac's state may be no word at all: the unentitled ps (adv_cmds 199+ installs `ps_lowpriv` as /bin/ps) reads
	// no task, so the state's letter is a space (`mach_state_table[0]`) and only flags follow, if any.
	const blankState = WEEKDAYS.has(words[3] ?? "");
	const stat = blankState ? "" : (words[3] as string);
	const startSeconds = lstartSeconds(words.slice(blankState ? 3 : 4));
	// The name is the rest of the line after the date, as printed (one space at least before it).
	const name = line.trim().replace(blankState ? /^(\S+\s+){8}/ : /^(\S+\s+){9}/, "");
	if (words.length < (blankState ? 9 : 10) || startSeconds === undefined || name === "") return undefined;
	// A state is a letter; `?` where ps could not read the task (ps/tasks.c `STATE_MAX`); a flag (`+`, `<`) after
	// a state that was a space.
	if (!blankState && !/^[A-Za-z?+<]/.test(stat)) return undefined;
	return {
		pid: pid as number,
		parentPid: parentPid as number,
		uid: uid as number,
		startSeconds,
		name,
		exited: stat.startsWith("Z"),
	};
}

/**
 * `ps -ww -o pid=,command=`: each pid's arguments joined by spaces. Where an argument held a space the boundary
 * is lost (macOS's exact argv needs `sysctl(KERN_PROCARGS2)`, which Node cannot call): launch arguments are a
 * display and a hint, never trust.
 */
export function parseCommandLines(text: string, maxArgs: number): Map<number, string[]> {
	const commands = new Map<number, string[]>();
	for (const line of text.split("\n")) {
		const match = /^\s*(\d+)\s+(.*)$/.exec(line);
		if (match) commands.set(Number(match[1]), (match[2] as string).split(/\s+/).filter(Boolean).slice(0, maxArgs));
	}
	return commands;
}

/**
 * The variables `names` from a `ps` line that shows the environment after the command (procps `e`, macOS
 * `-E`): `KEY=value` words. A value with a space reads cut at it: the test scope and the few paths read this way
 * hold none.
 */
export function environmentWords(words: readonly string[], names: readonly string[]): Record<string, string> {
	const found: Record<string, string> = {};
	for (const word of words) {
		const equals = word.indexOf("=");
		if (equals <= 0) continue;
		const key = word.slice(0, equals);
		if (names.includes(key)) found[key] = word.slice(equals + 1);
	}
	return found;
}
