import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { isProcessAlive } from "../../../src/editors/processes/liveness.ts";
import { runTool, type ToolAnswer } from "../../../src/editors/processes/process-tools.ts";
import { ManualClock } from "../../support/clocks.ts";
import { waitFor } from "../../support/wait-for.ts";
import { fakeToolDirs } from "./fake-tools.ts";

/** The one runner of `ps` and `lsof`, on stand-ins first on the PATH: what each way of failing is told as. */
describe("running ps and lsof", () => {
	let fakes: ReturnType<typeof fakeToolDirs>;
	beforeAll(() => {
		fakes = fakeToolDirs();
	});
	afterEach(() => fakes.restore());
	afterAll(() => fakes.cleanup());

	test("its output, run in the C locale and UTC whatever pi's own are, with the arguments given", async () => {
		process.env.LC_ALL = "fr_FR.UTF-8";
		process.env.TZ = "Europe/Paris";
		try {
			fakes.use({ ps: 'echo "$LC_ALL $LANG $TZ"; echo "$@"; echo "warned" >&2' });
			expect(await runTool("ps", ["-A", "-ww", "-o", "pid=,ucomm="])).toEqual({
				ok: true,
				text: "C C UTC0\n-A -ww -o pid=,ucomm=\n",
				stderr: "warned\n",
			});
		} finally {
			delete process.env.LC_ALL;
			delete process.env.TZ;
		}
	});

	test.each<[string, "ps" | "lsof", string, ToolAnswer]>([
		[
			"ps exiting 2 with a complaint: its first line",
			"ps",
			'echo "ps: illegal option -- Z" >&2; echo "usage: ps [-AaCcEefhjlMmrSTvwXx]" >&2; exit 2',
			{ ok: false, reason: "ps failed (exit 2): ps: illegal option -- Z" },
		],
		["ps exiting 2 saying nothing", "ps", "exit 2", { ok: false, reason: "ps failed (exit 2)" }],
		[
			"a very long complaint: cut",
			"ps",
			`echo "${"e".repeat(300)}" >&2; exit 3`,
			{ ok: false, reason: `ps failed (exit 3): ${"e".repeat(120)}` },
		],
		[
			"ps exiting 1 with nothing (`-p` of a pid that is gone): none",
			"ps",
			"exit 1",
			{ ok: true, text: "", stderr: "" },
		],
		[
			"ps exiting 1 with output: a failure",
			"ps",
			'echo " 8123     1   501 S    Mon Oct  6 09:02:11 2025     nvim"; exit 1',
			{ ok: false, reason: "ps failed (exit 1)" },
		],
		["lsof exiting 1 with nothing: none", "lsof", "exit 1", { ok: true, text: "", stderr: "" }],
		[
			"lsof exiting 1 with output (one of the pids asked had gone): kept",
			"lsof",
			'printf "p4242\\nf12\\nn/tmp/x.sock\\n"; exit 1',
			{ ok: true, text: "p4242\nf12\nn/tmp/x.sock\n", stderr: "" },
		],
		[
			"lsof exiting 2 with output: a failure",
			"lsof",
			'echo "p1"; exit 2',
			{ ok: false, reason: "lsof failed (exit 2)" },
		],
		["killed by a signal", "ps", "kill -9 $$", { ok: false, reason: "ps failed (killed by SIGKILL)" }],
		["an exit 0 with nothing: none", "lsof", "exit 0", { ok: true, text: "", stderr: "" }],
	])("%s", async (_case, tool, script, answer) => {
		fakes.use({ [tool]: script });
		expect(await runTool(tool, [])).toEqual(answer);
	});

	test("a tool that is not on the PATH", async () => {
		fakes.use({ lsof: "exit 0" }, false);
		expect(await runTool("ps", ["-A"])).toEqual({ ok: false, reason: "ps is not installed (not on PATH)" });
		fakes.use({}, false);
		expect(await runTool("lsof", ["-v"])).toEqual({ ok: false, reason: "lsof is not installed (not on PATH)" });
	});

	test("more output than a listing could be: given up", async () => {
		fakes.use({ ps: "/usr/bin/head -c 9000000 /dev/zero" });
		expect(await runTool("ps", [])).toEqual({ ok: false, reason: "ps printed more than 8388608 bytes" });
	});

	test("at the deadline: no answer, not what it printed so far, though it ignores SIGTERM; then it is killed", async () => {
		const pidFile = join(fakes.root, "stuck.pid");
		fakes.use({ lsof: `trap '' TERM\necho "$$" > ${pidFile}\nprintf "p1\\nf3\\nn/tmp/partial\\n"\nexec sleep 30` });
		const clock = new ManualClock();
		let answer: ToolAnswer | undefined;
		void runTool("lsof", [], clock).then((value) => {
			answer = value;
		});
		const pid = await waitFor(
			"the stuck lsof's pid",
			() => existsSync(pidFile) && Number(readFileSync(pidFile, "utf8")),
		);
		clock.advance(2999);
		await new Promise((resolve) => setImmediate(resolve));
		expect(answer).toBeUndefined();
		clock.advance(1);
		expect(await waitFor("the answer", () => answer)).toEqual({
			ok: false,
			reason: "lsof gave no answer within 3000 ms",
		});
		await waitFor("the stuck lsof killed", () => !isProcessAlive(pid));
		expect(clock.pendingTimers).toBe(0);
	});

	test("an answer before the deadline leaves no timer behind", async () => {
		fakes.use({ ps: "echo ok" });
		const clock = new ManualClock();
		expect(await runTool("ps", [], clock)).toEqual({ ok: true, text: "ok\n", stderr: "" });
		expect(clock.pendingTimers).toBe(0);
	});
});
