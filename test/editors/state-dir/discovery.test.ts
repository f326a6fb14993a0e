/**
 * Discovery across the state dirs an editor of this user may write to, on real dirs with real editor
 * processes: side dirs appearing and disappearing while pi runs, untrusted side dirs, one pid in two dirs,
 * the auto-connect rule over all dirs, reused pids, and the event log `/ide status` shows.
 */
import { spawn } from "node:child_process";
import { chmodSync, mkdirSync, rmSync, symlinkSync, utimesSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import type { DirPlan } from "../../../src/editors/state-dir/core/dir-plan.ts";
import { recentEvents } from "../../../src/shared/process-memory.ts";
import { controllerBlock } from "../../support/blocks.ts";
import { ControllerHarness, type HarnessOptions } from "../../support/controller-harness.ts";
import { FakeEditor, StateFileWriter } from "../../support/fake-editor.ts";
import { projectState, type StateOverrides } from "../../support/fixtures.ts";
import { testProcessFacts } from "../../support/process-facts.ts";
import { waitFor } from "../../support/wait-for.ts";

const harnesses: ControllerHarness[] = [];
// The event log is this pi process's: each test reads only its own.
beforeEach(() => {
	recentEvents().length = 0;
});
afterEach(async () => {
	for (const h of harnesses.splice(0).reverse()) await h.cleanup();
});

/** The protocol's dir (`xdg/pi-ide`, created by pi) and a side dir (`tmp/pi-ide`, only looked for). */
const TWO_DIRS = (root: string): DirPlan[] => [
	{ path: join(root, "xdg", "pi-ide"), role: "protocol" },
	{ path: join(root, "tmp", "pi-ide"), role: "side" },
];

function harness(options: HarnessOptions = {}): ControllerHarness & { protocolDir: string; sideDir: string } {
	const h = new ControllerHarness({ createStateDir: false, stateDirs: TWO_DIRS, ...options });
	harnesses.push(h);
	const [protocol, side] = TWO_DIRS(h.root) as [DirPlan, DirPlan];
	return Object.assign(h, { protocolDir: protocol.path, sideDir: side.path });
}

const at = (project: string, overrides: StateOverrides = {}) => projectState(project, overrides);
const statusLines = (h: ControllerHarness) => h.controller.statusText().split("\n");
/** The recorded events without their `hh:mm:ss ` time. */
const events = () => recentEvents().map((line) => line.slice(9));

describe("every place an editor may write", () => {
	test("a side dir that appears after pi started is watched; its editor connects within 3 s", async () => {
		const pi = harness();
		await pi.controller.start();
		expect(statusLines(pi)).toContain(
			`State dir ${pi.sideDir} (side dir, read but never created): not there; looked for every 2 s`,
		);
		mkdirSync(pi.sideDir, { recursive: true, mode: 0o700 });
		const nvim = pi.editor(pi.sideDir);
		nvim.write(at(pi.project));
		const written = performance.now();
		await waitFor("connected through the side dir", () => pi.widget() === "in main.ts", 3000);
		console.log(`side dir created, editor written -> connected: ${(performance.now() - written).toFixed(0)} ms`);
		expect(pi.connectedPid()).toBe(nvim.pid);
		expect(statusLines(pi)).toContain(
			`State dir ${pi.sideDir} (side dir, read but never created): trusted, 1 state file`,
		);
	});

	test("a side dir that disappears is dropped and looked for again; pi never creates one", async () => {
		const pi = harness();
		mkdirSync(pi.sideDir, { recursive: true, mode: 0o700 });
		const nvim = pi.editor(pi.sideDir);
		nvim.write(at(pi.project));
		await pi.controller.start();
		expect(pi.widget()).toBe("in main.ts");
		rmSync(pi.sideDir, { recursive: true });
		await waitFor("widget cleared", () => pi.widget() === undefined, 3000);
		await waitFor("the dir is looked for again", () =>
			statusLines(pi).includes(
				`State dir ${pi.sideDir} (side dir, read but never created): not there; looked for every 2 s`,
			),
		);
		expect(events()).toContain(`disconnected from nvim ${nvim.pid}: file removed (editor quit)`);
		expect(events()).toContain(`${pi.sideDir} disappeared; looking for it again`);
		mkdirSync(pi.sideDir, { mode: 0o700 });
		nvim.write(at(pi.project, { buffer: { name: "back.ts" } }));
		await waitFor("connected again", () => pi.widget() === "in back.ts", 3000);
		expect(events()).toContain(`${pi.sideDir} appeared; reading it`);
	});

	test.each([
		["world-writable", (dir: string) => mkdirSync(dir, { recursive: true, mode: 0o777 }), "has mode 0777"],
		[
			"a symlink to a good dir",
			(dir: string) => {
				mkdirSync(`${dir}-real`, { recursive: true, mode: 0o700 });
				symlinkSync(`${dir}-real`, dir);
			},
			"is a symlink",
		],
	])("an untrusted side dir (%s) is never read and raises no pop-up; status says why", async (_name, make, why) => {
		const pi = harness();
		make(pi.sideDir);
		chmodSync(pi.sideDir, 0o777);
		const planted = FakeEditor.spawn(pi.sideDir);
		planted.write(at(pi.project));
		const real = pi.editor(pi.protocolDir);
		mkdirSync(pi.protocolDir, { recursive: true, mode: 0o700 });
		real.write(at(pi.project, { buffer: { name: "real.ts" } }));
		try {
			await pi.controller.start();
			expect(pi.connectedPid()).toBe(real.pid);
			expect(pi.widget()).toBe("in real.ts");
			expect(pi.notices).toEqual([]);
			const line = statusLines(pi).find((l) => l.startsWith(`State dir ${pi.sideDir} `));
			expect(line).toContain(`NOT trusted: ${pi.sideDir} ${why}`);
			expect(pi.controller.liveEditors().map((editor) => editor.pid)).toEqual([real.pid]);
		} finally {
			await planted.kill();
		}
	});

	test("an untrusted protocol dir warns as before and rules out only its own editors", async () => {
		const pi = harness();
		mkdirSync(pi.protocolDir, { recursive: true, mode: 0o755 });
		mkdirSync(pi.sideDir, { recursive: true, mode: 0o700 });
		pi.editor(pi.protocolDir).write(at(pi.project, { buffer: { name: "ignored.ts" } }));
		const side = pi.editor(pi.sideDir);
		side.write(at(pi.project));
		await pi.controller.start();
		expect(pi.notices).toEqual([
			`pi-ide: not reading editor state: ${pi.protocolDir} has mode 0755; run: chmod 700 ${pi.protocolDir}`,
		]);
		expect(pi.connectedPid()).toBe(side.pid);
		expect(pi.widget()).toBe("in main.ts");
	});

	test("one editor per tier over all dirs: a tie across two dirs waits for /ide, which offers both", async () => {
		const pi = harness();
		mkdirSync(pi.protocolDir, { recursive: true, mode: 0o700 });
		mkdirSync(pi.sideDir, { recursive: true, mode: 0o700 });
		const a = pi.editor(pi.protocolDir);
		const b = pi.editor(pi.sideDir);
		a.write(at(pi.project));
		b.write(at(pi.project));
		await pi.controller.start();
		expect(pi.connectedPid()).toBeUndefined();
		expect(
			pi.controller
				.pickable(false)
				.map((editor) => editor.key)
				.sort(),
		).toEqual([`pid:${a.pid}`, `pid:${b.pid}`].sort());
	});

	test("the same pid in two dirs is one editor: the file written last wins", async () => {
		const pi = harness();
		mkdirSync(pi.protocolDir, { recursive: true, mode: 0o700 });
		mkdirSync(pi.sideDir, { recursive: true, mode: 0o700 });
		const nvim = pi.editor(pi.protocolDir);
		const twin = new StateFileWriter(pi.sideDir, nvim.pid);
		nvim.write(at(pi.project, { buffer: { name: "older.ts" } }));
		twin.write(at(pi.project, { buffer: { name: "newer.ts" } }));
		utimesSync(nvim.file, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
		await pi.controller.start();
		expect(pi.controller.liveEditors()).toHaveLength(1);
		expect(pi.connectedPid()).toBe(nvim.pid);
		expect(pi.widget()).toBe("in newer.ts");
		nvim.write(at(pi.project, { buffer: { name: "newest.ts" } }));
		await waitFor("the other copy is newer now", () => pi.widget() === "in newest.ts");
		expect(pi.controller.pickable(true)).toHaveLength(1);
	});
});

describe("a reused pid is a dead editor", () => {
	async function processStartedNow(): Promise<{ pid: number; kill: () => void; start: number }> {
		const child = spawn("sleep", ["60"], { stdio: "ignore" });
		const pid = child.pid as number;
		const start = await waitFor("the start time", () => testProcessFacts().startOf(pid));
		return { pid, start, kill: () => child.kill("SIGKILL") };
	}

	test("a state file older than the process now holding its pid: not connected, not offered, status says why", async () => {
		const pi = harness();
		mkdirSync(pi.protocolDir, { recursive: true, mode: 0o700 });
		const stranger = await processStartedNow();
		try {
			const file = new StateFileWriter(pi.protocolDir, stranger.pid);
			file.write(at(pi.project));
			// Written a minute before the process started: a dead editor's file whose pid was taken since.
			const writtenAt = new Date((stranger.start - 60) * 1000);
			utimesSync(file.file, writtenAt, writtenAt);
			await pi.controller.start();
			expect(pi.connectedPid()).toBeUndefined();
			expect(pi.controller.pickable(true)).toEqual([]);
			expect(await controllerBlock(pi.controller)).toBeUndefined();
			expect(pi.statusOf(`${stranger.pid}.json`)).toBe(
				`${stranger.pid}.json: dead: pid ${stranger.pid} now belongs to a process started after this file was written`,
			);
		} finally {
			stranger.kill();
		}
	});

	test("an idle editor (file written after its process started, untouched since) is never taken for one", async () => {
		const pi = harness();
		mkdirSync(pi.protocolDir, { recursive: true, mode: 0o700 });
		const editor = await processStartedNow();
		try {
			const file = new StateFileWriter(pi.protocolDir, editor.pid);
			file.write(at(pi.project));
			// Written a second after the process started (within the same second as its start rounds to).
			const writtenAt = new Date((editor.start + 1) * 1000);
			utimesSync(file.file, writtenAt, writtenAt);
			await pi.controller.start();
			expect(pi.connectedPid()).toBe(editor.pid);
			expect(pi.statusOf(`${editor.pid}.json`)).toMatch(/: live nvim \d+, tier 0/);
		} finally {
			editor.kill();
		}
	});
});

describe("the event log", () => {
	test("connected and why, disconnected and why, each with its time", async () => {
		const pi = harness();
		mkdirSync(pi.protocolDir, { recursive: true, mode: 0o700 });
		const a = pi.editor(pi.protocolDir);
		a.write(at(pi.project));
		await pi.controller.start();
		pi.controller.disconnect({ pauseAutoConnect: true });
		pi.controller.connect(pi.live(a.pid), "picked with /ide");
		await a.kill("SIGKILL");
		// Waits, not latency claims (the benchmark has those): a loaded machine may take seconds.
		await waitFor("disconnected", () => pi.connectedPid() === undefined, 15_000);
		const b = pi.editor(pi.protocolDir);
		b.write(at(pi.project));
		await waitFor("b connected", () => pi.connectedPid() === b.pid, 15_000);
		b.removeFile();
		await waitFor("b disconnected", () => pi.connectedPid() === undefined, 15_000);
		for (const line of recentEvents()) expect(line).toMatch(/^\d\d:\d\d:\d\d /);
		expect(events()).toEqual([
			`connected to nvim ${a.pid}: auto-connected: the only live editor in tier 0 (cwd equals the project)`,
			`disconnected from nvim ${a.pid}: /ide off`,
			`connected to nvim ${a.pid}: picked with /ide`,
			`disconnected from nvim ${a.pid}: process gone, its file left behind`,
			`connected to nvim ${b.pid}: auto-connected: the only live editor in tier 0 (cwd equals the project)`,
			`disconnected from nvim ${b.pid}: file removed (editor quit)`,
		]);
		const status = statusLines(pi);
		const recent = status.indexOf("Recent events:");
		expect(status.slice(recent + 1).join("\n")).toContain(
			`disconnected from nvim ${b.pid}: file removed (editor quit)`,
		);
	});
});
