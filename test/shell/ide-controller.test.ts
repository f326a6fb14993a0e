import { chmodSync, mkdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { IdeController } from "../../src/shell/ide-controller.ts";
import type { ConnectionMemory } from "../../src/shell/session-memory.ts";
import { FakeEditor } from "../support/fake-editor.ts";
import { projectState, type StateOverrides, selection } from "../support/fixtures.ts";
import { tempDir } from "../support/temp-dir.ts";
import { waitFor } from "../support/wait-for.ts";

let cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
	for (const cleanup of cleanups.reverse()) await cleanup();
	cleanups = [];
});

function workspace() {
	const tmp = tempDir("controller");
	cleanups.push(tmp.cleanup);
	const project = join(tmp.path, "proj");
	const stateDir = join(tmp.path, "state");
	mkdirSync(join(project, "src"), { recursive: true });
	mkdirSync(stateDir, { mode: 0o700 });
	return { root: tmp.path, project, stateDir };
}

function harness(options: { project: string; stateDir: string; memory?: ConnectionMemory; autoconnect?: boolean }) {
	const widgets: (string | undefined)[] = [];
	const notices: string[] = [];
	const memory = options.memory ?? { suppressed: false };
	const controller = new IdeController({
		stateDir: options.stateDir,
		cwd: options.project,
		uid: process.getuid?.() ?? 0,
		memory,
		autoconnect: options.autoconnect ?? true,
		showWidget: (text) => widgets.push(text),
		notify: (message) => notices.push(message),
	});
	cleanups.push(() => controller.stop());
	return { controller, widgets, notices, memory, widget: () => widgets.at(-1) };
}

function editor(stateDir: string): FakeEditor {
	const fake = FakeEditor.spawn(stateDir);
	cleanups.push(() => fake.kill());
	return fake;
}

const now = () => Date.now() / 1000;

function live(controller: IdeController, pid: number) {
	const found = controller.liveEditors().find((editor) => editor.pid === pid);
	if (!found) throw new Error(`editor ${pid} is not live`);
	return found;
}
const at = (project: string, overrides: StateOverrides = {}) => projectState(project, overrides);

describe("IdeController with real editors and a real state dir", () => {
	test("auto-connects to the only editor in the best tier and shows what it sees", async () => {
		const { project, stateDir } = workspace();
		const nvim = editor(stateDir);
		nvim.write(at(project));
		const other = editor(stateDir);
		other.write(at(`${project}/src`)); // tier 1 only: must not cause a tie with the tier-0 editor
		const pi = harness({ project, stateDir });
		await pi.controller.start();
		expect(pi.memory.connected?.pid).toBe(nvim.pid);
		expect(pi.widget()).toBe("in main.ts");
		nvim.write(at(project, { buffer: { name: "b.ts", selection: selection(1, 5, "x", now()) } }));
		await waitFor("widget follows the write", () => pi.widget() === "5 lines selected in b.ts");
	});

	test("a tie waits for /ide; a pick is kept when a better editor appears", async () => {
		const { project, stateDir } = workspace();
		const first = editor(stateDir);
		const second = editor(stateDir);
		first.write(at(`${project}/src`));
		second.write(at(`${project}/src`));
		const pi = harness({ project, stateDir });
		await pi.controller.start();
		expect(pi.memory.connected).toBeUndefined();
		const picked = pi.controller.pickable(false).find((e) => e.pid === second.pid);
		if (!picked) throw new Error("second editor not offered");
		pi.controller.connect(picked, "picked with /ide");
		const exact = editor(stateDir);
		exact.write(at(project));
		await waitFor("the exact editor is seen", () => pi.controller.liveEditors().some((e) => e.pid === exact.pid));
		expect(pi.memory.connected?.pid).toBe(second.pid);
		expect(pi.controller.pickable(false).map((e) => e.pid)).toEqual([exact.pid]);
	});

	test("kill -9 of the connected editor clears the widget, says so, then auto-connects the remaining one", async () => {
		const { project, stateDir } = workspace();
		const a = editor(stateDir);
		const b = editor(stateDir);
		a.write(at(project));
		b.write(at(project, { buffer: { name: "other.ts" } }));
		const pi = harness({ project, stateDir });
		await pi.controller.start();
		pi.controller.connect(live(pi.controller, a.pid), "picked");
		await waitFor("widget", () => pi.widget() === "in main.ts");
		await a.kill("SIGKILL");
		await waitFor("widget switches to the remaining editor", () => pi.widget() === "in other.ts", 3000);
		expect(pi.widgets).toContain(undefined);
		expect(pi.notices.some((n) => n.includes(`nvim ${a.pid} is gone`))).toBe(true);
		expect(pi.memory.connected?.pid).toBe(b.pid);
	});

	test("the editor deleting its file disconnects", async () => {
		const { project, stateDir } = workspace();
		const nvim = editor(stateDir);
		nvim.write(at(project));
		const pi = harness({ project, stateDir });
		await pi.controller.start();
		expect(pi.widget()).toBe("in main.ts");
		nvim.removeFile();
		await waitFor("widget cleared", () => pi.widgets.length > 1 && pi.widget() === undefined);
		expect(pi.memory.connected).toBeUndefined();
	});

	test("the widget drops 'selected' when the selection turns stale, with no write", async () => {
		const { project, stateDir } = workspace();
		const nvim = editor(stateDir);
		const selectedAt = now() - 59.7;
		nvim.write(at(project, { buffer: { selection: selection(3, 4, "x", selectedAt) } }));
		const pi = harness({ project, stateDir });
		await pi.controller.start();
		expect(pi.widget()).toBe("2 lines selected in main.ts");
		await waitFor("stale flip", () => pi.widget() === "in main.ts", 3000);
		expect(now()).toBeGreaterThan(selectedAt + 60);
	});

	test("the connection survives a session replacement through the shared memory, even with a tie", async () => {
		const { project, stateDir } = workspace();
		const a = editor(stateDir);
		const b = editor(stateDir);
		a.write(at(project));
		b.write(at(project));
		const memory: ConnectionMemory = { suppressed: false };
		const first = harness({ project, stateDir, memory });
		await first.controller.start();
		const pick = first.controller.liveEditors().find((e) => e.pid === b.pid);
		if (!pick) throw new Error("b not live");
		first.controller.connect(pick, "picked");
		await first.controller.stop();
		const second = harness({ project, stateDir, memory });
		await second.controller.start();
		expect(second.memory.connected?.pid).toBe(b.pid);
		expect(second.widget()).toBe("in main.ts");
	});

	test("autoconnect off: nothing connects on its own, /ide still can", async () => {
		const { project, stateDir } = workspace();
		const nvim = editor(stateDir);
		nvim.write(at(project));
		const pi = harness({ project, stateDir, autoconnect: false });
		await pi.controller.start();
		expect(pi.memory.connected).toBeUndefined();
		expect(await pi.controller.promptBlock()).toBeUndefined();
		pi.controller.connect(live(pi.controller, nvim.pid), "picked");
		expect(await pi.controller.promptBlock()).toContain(`File: ${project}/src/main.ts`);
	});

	test("/ide off pauses auto-connect until a pick", async () => {
		const { project, stateDir } = workspace();
		const nvim = editor(stateDir);
		nvim.write(at(project));
		const pi = harness({ project, stateDir });
		await pi.controller.start();
		pi.controller.disconnect(true);
		nvim.write(at(project, { buffer: { name: "again.ts" } }));
		await waitFor("write seen", () => pi.controller.liveEditors()[0]?.state.active_buffer?.name === "again.ts");
		pi.controller.reconcile();
		expect(pi.memory.connected).toBeUndefined();
		expect(pi.widget()).toBeUndefined();
	});

	test("an untrusted dir is not read and the warning names path and fix", async () => {
		const { project, stateDir } = workspace();
		const nvim = editor(stateDir);
		nvim.write(at(project));
		chmodSync(stateDir, 0o755);
		const pi = harness({ project, stateDir });
		await pi.controller.start();
		expect(pi.memory.connected).toBeUndefined();
		expect(pi.notices).toEqual([
			`pi-ide: not reading editor state: ${stateDir} has mode 0755; run: chmod 700 ${stateDir}`,
		]);
		expect(pi.controller.statusText()).toContain("NOT trusted");
		chmodSync(stateDir, 0o700);
		await waitFor("trusted again and connected", () => pi.memory.connected?.pid === nvim.pid, 3000);
	});

	test("a missing state dir is created 0700 so editors can start later", async () => {
		const { root, project } = workspace();
		const stateDir = join(root, "not-yet", "pi-ide");
		const pi = harness({ project, stateDir });
		await pi.controller.start();
		expect(statSync(stateDir).mode & 0o777).toBe(0o700);
		const nvim = editor(stateDir);
		nvim.write(at(project));
		await waitFor("late editor connects", () => pi.memory.connected?.pid === nvim.pid);
	});

	test("stop is idempotent and start twice is one start", async () => {
		const { project, stateDir } = workspace();
		const pi = harness({ project, stateDir });
		await Promise.all([pi.controller.start(), pi.controller.start()]);
		await Promise.all([pi.controller.stop(), pi.controller.stop()]);
		await pi.controller.stop();
	});
});
