import { describe, expect, test } from "vitest";
import {
	environmentWords,
	type ListedProcess,
	lstartSeconds,
	parseCommandLines,
	parsePsListing,
} from "../../../../src/editors/processes/core/ps-listing.ts";

/**
 * Lines as `ps -A -ww -o pid=,ppid=,uid=,stat=,lstart=,ucomm=` prints them under `LC_ALL=C TZ=UTC0`.
 *
 * procps-ng 4.0.2 (Debian), copied from a run on this machine: `lstart` a `ctime()` shape, the day padded.
 * Linux's `comm` is cut at 15 bytes (`Code Helper (Renderer)` reads `Code Helper (Re`).
 *
 * macOS (adv_cmds-237 `ps/print.c`, `ps/keyword.c`), built with its widths: `pid`, `ppid` and `uid`
 * right-justified in 5 columns, `stat` left-justified in 4, `lstart` `strftime("%c")` left-justified in 28,
 * `ucomm` (`p_comm`, at most MAXCOMLEN = 16 bytes) left-justified in 16, so the line ends in spaces; columns
 * joined by one space (`printf '%5d %5d %5d %-4s %-28s %-16s\n'`). A state is `?` where ps could not read the
 * task (`ps/tasks.c`: `STATE_MAX`); in the unentitled build (`ps_lowpriv`, which `xcodescripts/install-ps.sh`
 * installs as /bin/ps) no task is read and the state's letter is a space, leaving the flags or nothing.
 */
const PROCPS = {
	kernelThread: "    4     2     0 I<   Tue Dec  1 21:52:57 2026 kworker/R-rcu_gp",
	sessionLeader: "18983 18982     0 Ss   Wed Dec  2 01:27:47 2026 bash",
	nameWithSpaces: "19898     1     0 S    Wed Dec  2 01:27:57 2026 Code Helper (Re",
	zombie: "19901 19899     0 Z    Wed Dec  2 01:27:57 2026 sleep",
};
const MACOS = {
	emacs: " 8123     1   501 S    Mon Oct  6 09:02:11 2025     Emacs-arm64-11  ",
	helper: " 8200  8123   501 S    Mon Oct  6 09:02:11 2025     Code Helper (Ren",
	foreground: " 9001  8999   501 Ss+  Thu Oct 16 08:00:05 2025     nvim            ",
	zombie: " 9100  9001   501 Z    Thu Oct 16 08:00:05 2025     nvim            ",
	foregroundZombie: " 9101  9001   501 Z+   Thu Oct 16 08:00:05 2025     nvim            ",
	raisedPriority: " 9200     1   501 R<   Thu Oct 16 08:00:05 2025     zed             ",
	taskUnread: " 9300     1   501 ?    Thu Oct 16 08:00:05 2025     cli             ",
	// The unentitled build (`ps_lowpriv`, PS_ENTITLEMENT_ENFORCED) reads no task: the state's letter is a space.
	noState: " 8123     1   501      Mon Oct  6 09:02:11 2025     Emacs-arm64-11  ",
	noStateForeground: " 9001  8999   501  +   Thu Oct 16 08:00:05 2025     nvim            ",
	noStateLeader: " 9002  8999   501  s+  Thu Oct 16 08:00:05 2025     nvim            ",
	noStateRaised: " 9003     1   501  <   Thu Oct 16 08:00:05 2025     zed             ",
};

const listed = (
	pid: number,
	parentPid: number,
	uid: number,
	startSeconds: number,
	name: string,
	exited = false,
): ListedProcess => ({ pid, parentPid, uid, startSeconds, name, exited });

describe("a line of ps's listing", () => {
	test.each<[string, string, ListedProcess]>([
		["procps: a kernel thread, stat with a flag", PROCPS.kernelThread, listed(4, 2, 0, 1796161977, "kworker/R-rcu_gp")],
		["procps: a session leader (Ss)", PROCPS.sessionLeader, listed(18983, 18982, 0, 1796174867, "bash")],
		["procps: a name with spaces", PROCPS.nameWithSpaces, listed(19898, 1, 0, 1796174877, "Code Helper (Re")],
		["procps: a zombie", PROCPS.zombie, listed(19901, 19899, 0, 1796174877, "sleep", true)],
		["macOS: a bundle's binary, padded", MACOS.emacs, listed(8123, 1, 501, 1759741331, "Emacs-arm64-11")],
		["macOS: a name with spaces, cut at 16", MACOS.helper, listed(8200, 8123, 501, 1759741331, "Code Helper (Ren")],
		["macOS: foreground session leader (Ss+)", MACOS.foreground, listed(9001, 8999, 501, 1760601605, "nvim")],
		["macOS: a zombie (Z)", MACOS.zombie, listed(9100, 9001, 501, 1760601605, "nvim", true)],
		[
			"macOS: a zombie in the foreground (Z+)",
			MACOS.foregroundZombie,
			listed(9101, 9001, 501, 1760601605, "nvim", true),
		],
		["macOS: raised priority (R<)", MACOS.raisedPriority, listed(9200, 1, 501, 1760601605, "zed")],
		["macOS: a task ps could not read (?)", MACOS.taskUnread, listed(9300, 1, 501, 1760601605, "cli")],
		["macOS unentitled: no state at all", MACOS.noState, listed(8123, 1, 501, 1759741331, "Emacs-arm64-11")],
		["macOS unentitled: a flag alone (+)", MACOS.noStateForeground, listed(9001, 8999, 501, 1760601605, "nvim")],
		["macOS unentitled: flags alone (s+)", MACOS.noStateLeader, listed(9002, 8999, 501, 1760601605, "nvim")],
		["macOS unentitled: raised priority alone (<)", MACOS.noStateRaised, listed(9003, 1, 501, 1760601605, "zed")],
	])("%s", (_case, line, process) => {
		expect(parsePsListing(line)).toEqual({ processes: [process], unreadable: 0 });
	});

	test.each([
		["a header line (ps without `=`)", "  PID  PPID   UID STAT STARTED                  UCOMM"],
		["a locale's date (LC_ALL not C)", "  501     1   501 S    jeu.  6 oct. 22:35:28 2025 Emacs"],
		["a German one", "  501     1   501 S    Mo  6 Okt 22:35:28 2025 Emacs"],
		["an hour 24", " 8123     1   501 S    Mon Oct  6 24:00:00 2025     Emacs"],
		["31 February", " 8123     1   501 S    Tue Feb 31 10:00:00 2026     Emacs"],
		["a negative pid", "   -1     0     0 S    Mon Oct  6 09:02:11 2025 launchd"],
		["a pid that is no number", "  abc     1   501 S    Mon Oct  6 09:02:11 2025 nvim"],
		["a parent that is no number", " 8123     x   501 S    Mon Oct  6 09:02:11 2025 nvim"],
		["a uid that is no number", " 8123     1   alice S    Mon Oct  6 09:02:11 2025 nvim"],
		["a state that is no letter", " 8123     1   501 -    Mon Oct  6 09:02:11 2025 nvim"],
		["no name after the date", " 8123     1   501 S    Mon Oct  6 09:02:11 2025"],
		["no state and no name", " 8123     1   501      Mon Oct  6 09:02:11 2025"],
		["a state column of two words", " 8123     1   501 S s  Mon Oct  6 09:02:11 2025 nvim"],
		["the columns of another listing", "  PID TTY          TIME CMD"],
		["cut short", " 8123     1   501"],
	])("another shape: %s", (_case, line) => {
		expect(parsePsListing(line)).toEqual({ processes: [], unreadable: 1 });
	});

	test("a whole listing: blank lines are nothing, each other line one process or one line skipped", () => {
		const text = ["", MACOS.emacs, "garbage", "", MACOS.zombie, "  PID  PPID", PROCPS.sessionLeader, ""].join("\n");
		const { processes, unreadable } = parsePsListing(text);
		expect(processes.map((process) => process.pid)).toEqual([8123, 9100, 18983]);
		expect(unreadable).toBe(2);
	});
});

describe("lstart in UTC as unix seconds", () => {
	test.each<[string, string, number | undefined]>([
		["a day padded with a space", "Mon Oct  6 22:35:28 2025", 1759790128],
		["the epoch", "Thu Jan  1 00:00:00 1970", 0],
		["a day of two digits", "Thu Oct 16 08:00:05 2025", 1760601605],
		["a day written with a zero", "Mon Oct 06 22:35:28 2025", 1759790128],
		["29 February of a leap year", "Sat Feb 29 12:00:00 2020", 1582977600],
		["the last second of a year", "Wed Dec 31 23:59:59 2025", 1767225599],
		["the weekday is a word checked, not matched to the date", "Fri Oct  6 22:35:28 2025", 1759790128],
		["29 February of another year", "Mon Feb 29 12:00:00 2021", undefined],
		["31 February", "Tue Feb 31 10:00:00 2026", undefined],
		["day 0", "Tue Oct  0 10:00:00 2026", undefined],
		["an hour 24", "Mon Oct  6 24:00:00 2025", undefined],
		["minute 60", "Mon Oct  6 10:60:00 2025", undefined],
		["second 60 (a time_t has no leap second to print)", "Mon Oct  6 10:59:60 2025", undefined],
		["second 60 at the end of a year", "Wed Dec 31 23:59:60 2025", undefined],
		["an hour of one digit", "Mon Oct  6 9:02:11 2025", undefined],
		["a month in lower case", "Mon oct  6 09:02:11 2025", undefined],
		["a weekday of another language", "Lun Oct  6 09:02:11 2025", undefined],
		["a year of two digits", "Mon Oct  6 09:02:11 25", undefined],
		["a locale's order", "jeu. 6 oct. 22:35:28 2025", undefined],
		["four words", "Mon Oct  6 09:02:11", undefined],
	])("%s", (_case, text, seconds) => {
		expect(lstartSeconds(text.split(/\s+/))).toBe(seconds);
	});
});

describe("each pid's command line (`ps -ww -o pid=,command=`)", () => {
	test("procps, copied from a run here; arguments split at spaces and capped", () => {
		const text = "19977 sleep 30\n18983 bash /dev/fd/3\n";
		expect(parseCommandLines(text, 64)).toEqual(
			new Map([
				[19977, ["sleep", "30"]],
				[18983, ["bash", "/dev/fd/3"]],
			]),
		);
		expect(parseCommandLines(text, 1).get(18983)).toEqual(["bash"]);
	});

	test("macOS: right-justified pids; an argument with a space reads as two (the boundary is lost)", () => {
		const text = [
			" 8123 /Applications/Emacs.app/Contents/MacOS/Emacs-arm64-11 --fg-daemon",
			"  731 /Applications/Zed Preview.app/Contents/MacOS/zed",
		].join("\n");
		expect(parseCommandLines(text, 64)).toEqual(
			new Map([
				[8123, ["/Applications/Emacs.app/Contents/MacOS/Emacs-arm64-11", "--fg-daemon"]],
				[731, ["/Applications/Zed", "Preview.app/Contents/MacOS/zed"]],
			]),
		);
	});

	test("lines of no pid are skipped; a pid with nothing after it has no arguments", () => {
		expect(parseCommandLines("  PID COMMAND\nnonsense\n\n  42 \n", 64)).toEqual(new Map([[42, []]]));
	});
});

describe("variables from a line that shows the environment after the command", () => {
	// `LC_ALL=C ps eww -o pid=,command= -p <pid>` on procps, copied from a run here (a child started with `env -i`).
	const procpsLine = "19977 sleep 30 PATH=/usr/bin:/bin PI_IDE_TEST_PROC_SCOPE=abc HOME=/root FOO=two words".split(
		/\s+/,
	);
	// macOS `ps -E -ww -o pid=,command=` (adv_cmds print.c: the environment's strings joined on after the arguments).
	const macLine = " 8123 /usr/local/bin/nvim --embed TMPDIR=/var/folders/x1/T/ PI_IDE_TEST_PROC_SCOPE=s1"
		.trim()
		.split(/\s+/);

	test.each<[string, readonly string[], readonly string[], Record<string, string>]>([
		["procps: the scope", procpsLine, ["PI_IDE_TEST_PROC_SCOPE"], { PI_IDE_TEST_PROC_SCOPE: "abc" }],
		["procps: several", procpsLine, ["HOME", "PATH"], { HOME: "/root", PATH: "/usr/bin:/bin" }],
		["procps: a value with a space reads cut at it", procpsLine, ["FOO"], { FOO: "two" }],
		["procps: a variable it does not have", procpsLine, ["XDG_RUNTIME_DIR"], {}],
		[
			"macOS: the scope and TMPDIR",
			macLine,
			["TMPDIR", "PI_IDE_TEST_PROC_SCOPE"],
			{ TMPDIR: "/var/folders/x1/T/", PI_IDE_TEST_PROC_SCOPE: "s1" },
		],
		["a word that starts with = names nothing", ["=x", "A=1"], ["", "A"], { A: "1" }],
		["an empty value", ["A="], ["A"], { A: "" }],
		["a value holding =", ["A=b=c"], ["A"], { A: "b=c" }],
		["an argument that looks like one, the environment after it wins", ["nvim", "A=arg", "A=env"], ["A"], { A: "env" }],
	])("%s", (_case, words, names, found) => {
		expect(environmentWords(words, names)).toEqual(found);
	});
});
