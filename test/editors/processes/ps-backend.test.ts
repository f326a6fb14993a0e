import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { PsBackend } from "../../../src/editors/processes/ps-backend.ts";
import { backgroundFailures, forgetBackgroundFailures } from "../../../src/shared/background.ts";
import { NEOVIM_SCAN_DELAYS_MS } from "../../../src/shared/core/timing.ts";
import { waitFor } from "../../support/wait-for.ts";
import { MAC } from "./core/lsof-outputs.ts";
import { fakeToolDirs } from "./fake-tools.ts";

/**
 * The `ps` backend on stand-ins for `ps` and `lsof` first on the PATH: what it answers and what `/ide status`
 * is told when the tools are missing, failing or print something else. `backends.test.ts` runs it on the real
 * tools against a real process.
 */
const ME = 501;
const OTHER = 502;
const line = (pid: number, uid: number, stat: string, name: string) =>
	`${String(pid).padStart(5)} ${String(1).padStart(5)} ${String(uid).padStart(5)} ${stat.padEnd(4)} Mon Oct  6 09:02:11 2025     ${name.padEnd(16)}`;
const STARTED = 1759741331;
const isNvim = (name: string) => name === "nvim";

describe("the ps backend on stand-ins", () => {
	let fakes: ReturnType<typeof fakeToolDirs>;
	let log: string;
	const backend = (platform = "darwin") => new PsBackend("no /proc on darwin", platform, () => performance.now());
	/** A `ps` that logs its arguments, then prints `listing` (or, for an environment's question, `environment`). */
	const fakePs = (listing: string, environment = "") => {
		const listingFile = fakes.file(`listing-${Math.random()}`, listing);
		const environmentFile = fakes.file(`environment-${Math.random()}`, environment);
		return `echo "$@" >> ${log}\ncase "$*" in *eww*|*-E*) cat ${environmentFile} ;; *) cat ${listingFile} ;; esac`;
	};
	const calls = () => readFileSync(log, "utf8").trim().split("\n");

	beforeAll(() => {
		fakes = fakeToolDirs();
	});
	beforeEach(() => {
		log = fakes.file(`calls-${Math.random()}`, "");
		forgetBackgroundFailures();
	});
	afterEach(() => fakes.restore());
	afterAll(() => fakes.cleanup());

	test("a listing: this user's running processes by name, zombies and others' left out, starts recorded", async () => {
		const listing = [
			line(4242, ME, "Ss+", "nvim"),
			line(4300, ME, "Z", "nvim"),
			line(4400, OTHER, "S", "nvim"),
			line(4500, ME, "S", "zsh"),
		];
		fakes.use({ ps: fakePs(`${listing.join("\n")}\n`) });
		const facts = backend();
		expect(await facts.named(isNvim, ME, undefined)).toEqual([{ pid: 4242, startSeconds: STARTED, name: "nvim" }]);
		expect(calls()).toEqual(["-A -ww -o pid=,ppid=,uid=,stat=,lstart=,ucomm="]);
		expect(facts.status()).toEqual({
			backend: "ps",
			why: "no /proc on darwin",
			lastScanMs: expect.any(Number),
			unknown: [],
		});
		expect(await facts.ancestors(4242)).toEqual([1]);
	});

	test("a listing with some lines of another shape: those skipped and counted", async () => {
		const listing = [
			"  PID  PPID   UID STAT STARTED",
			line(4242, ME, "S", "nvim"),
			"garbage",
			"jeu.  6 oct.",
			line(4243, ME, "?", "nvim"),
		];
		fakes.use({ ps: fakePs(listing.join("\n")) });
		const facts = backend();
		expect(await facts.named(isNvim, ME, undefined)).toEqual([
			{ pid: 4242, startSeconds: STARTED, name: "nvim" },
			{ pid: 4243, startSeconds: STARTED, name: "nvim" },
		]);
		expect(facts.status().unknown).toEqual(["3 lines of ps's listing were of another shape: skipped"]);
	});

	test("a ps that prints nonsense: no process, and why", async () => {
		fakes.use({ ps: fakePs("Segmentation fault\n<html><body>ps</body></html>\n") });
		const facts = backend();
		expect(await facts.named(isNvim, ME, undefined)).toBe("ps printed no process line pi can read");
		expect(facts.status().unknown).toEqual(["ps printed no process line pi can read"]);
		expect(await facts.ancestors(4242)).toEqual([]);
	});

	test("a ps that fails: its complaint is the answer and the reason", async () => {
		fakes.use({ ps: 'echo "ps: illegal option -- w" >&2; exit 2' });
		const facts = backend();
		expect(await facts.named(isNvim, ME, undefined)).toBe("ps failed (exit 2): ps: illegal option -- w");
		expect(await facts.startOf(4242)).toBeUndefined();
		expect(facts.status().unknown).toEqual(["ps failed (exit 2): ps: illegal option -- w"]);
	});

	test("no ps on the PATH", async () => {
		fakes.use({}, false);
		const facts = backend();
		expect(await facts.named(isNvim, ME, undefined)).toBe("ps is not installed (not on PATH)");
		expect(await facts.learnStarts([4242])).toBeUndefined();
		expect(facts.status().unknown).toEqual(["ps is not installed (not on PATH)"]);
	});

	test("scans asking at once share one listing; one asked after a dir event's wait lists anew", async () => {
		fakes.use({ ps: fakePs(`${line(4242, ME, "S", "nvim")}\n`) });
		let nowMs = 1000;
		const facts = new PsBackend("no /proc on darwin", "darwin", () => nowMs);
		await facts.named(isNvim, ME, undefined);
		nowMs += 20;
		await facts.named(isNvim, ME, undefined);
		expect(calls()).toHaveLength(1);
		// A Neovim's dir appears just after that listing; its scan runs 60 ms later and must see that Neovim.
		nowMs += NEOVIM_SCAN_DELAYS_MS[0];
		await facts.named(isNvim, ME, undefined);
		expect(calls()).toHaveLength(2);
	});

	test.each([
		["linux", "eww -o pid=,command= -p 4242,4243"],
		["darwin", "-E -ww -o pid=,command= -p 4242,4243"],
	])("in a test scope (%s): the environments asked in one ps, the scope's process kept", async (platform, asked) => {
		const environment = [" 4242 nvim --embed PI_IDE_TEST_PROC_SCOPE=mine", " 4243 nvim PI_IDE_TEST_PROC_SCOPE=theirs"];
		fakes.use({
			ps: fakePs(`${line(4242, ME, "S", "nvim")}\n${line(4243, ME, "S", "nvim")}\n`, environment.join("\n")),
		});
		const found = await backend(platform).named(isNvim, ME, "mine");
		expect(found).toEqual([{ pid: 4242, startSeconds: STARTED, name: "nvim" }]);
		expect(calls()[1]).toBe(asked);
	});

	test("lsof's answer read, its version asked once and shown", async () => {
		const lsofLog = join(fakes.root, `lsof-${Math.random()}`);
		fakes.use({
			lsof: `echo "$@" >> ${lsofLog}\ncase "$1" in -v) printf '%s\\n' '${MAC.version}' >&2 ;; *) printf '%s\\n' '${MAC.nvimSockets}' ;; esac`,
		});
		const facts = backend();
		const listening = await facts.listeningUnixPaths([4242]);
		expect(listening.byPid).toEqual(new Map([[4242, [MAC.nvimSocket]]]));
		expect([...listening.heldTwice]).toEqual([]);
		await facts.listeningUnixPaths([4242]);
		expect(await waitFor("lsof's version", () => facts.status().lsofVersion)).toBe("4.91");
		expect(readFileSync(lsofLog, "utf8").trim().split("\n").sort()).toEqual([
			"-nP -w -a -U -p 4242 -FpfnT",
			"-nP -w -a -U -p 4242 -FpfnT",
			"-v",
		]);
	});

	test("no lsof: nothing found, and why; no version", async () => {
		fakes.use({}, false);
		const facts = backend();
		expect((await facts.listeningUnixPaths([4242])).byPid).toEqual(new Map([[4242, []]]));
		expect(await facts.connectionServerUid(8765, 52001)).toBeUndefined();
		expect(facts.status().unknown).toEqual([
			"lsof is not installed (not on PATH)",
			"owner of port 8765 unknown to lsof",
		]);
		expect(facts.status().lsofVersion).toBeUndefined();
	});

	test("a start not known yet: asked in the background, `learned` told; a throw there is recorded, not raised", async () => {
		fakes.use({ ps: fakePs(`${line(process.pid, ME, "S", "node")}\n`) });
		const facts = backend();
		let told = 0;
		const learned = () => {
			told++;
			throw new Error("a listener that fails");
		};
		expect(facts.knownStart(process.pid, learned)).toBe("asking");
		expect(facts.knownStart(process.pid, learned)).toBe("asking");
		await waitFor("the start learned", () => told === 1);
		expect(facts.knownStart(process.pid)).toBe(STARTED);
		expect(calls()).toEqual([`-ww -o pid=,ppid=,uid=,stat=,lstart=,ucomm= -p ${process.pid}`]);
		await waitFor("the failure recorded", () => backgroundFailures().length === 1);
		expect(backgroundFailures()[0]).toMatchObject({
			task: "process start",
			lastReason: "Error: a listener that fails",
		});
	});
});
