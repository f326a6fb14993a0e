import { chmodSync, mkdirSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { LIVENESS_CHECK_MS, RECHECK_EVERY_TICKS } from "../../src/shared/core/timing.ts";
import { resourceCount } from "../../src/shared/process-memory.ts";
import { controllerBlock } from "../support/blocks.ts";
import { ManualClock } from "../support/clocks.ts";
import { ControllerHarness, type HarnessOptions } from "../support/controller-harness.ts";
import { clientFixtureText, projectState, type StateOverrides, selection } from "../support/fixtures.ts";
import { waitFor } from "../support/wait-for.ts";

const harnesses: ControllerHarness[] = [];
afterEach(async () => {
	for (const h of harnesses.splice(0).reverse()) await h.cleanup();
});

function harness(options: HarnessOptions = {}): ControllerHarness {
	const h = new ControllerHarness(options);
	harnesses.push(h);
	return h;
}

const now = () => Date.now() / 1000;
const at = (project: string, overrides: StateOverrides = {}) => projectState(project, overrides);

describe("IdeController with real editors and a real state dir", () => {
	test("auto-connects to the only editor in the best tier and shows what it sees", async () => {
		const pi = harness();
		const { project } = pi;
		const nvim = pi.editor();
		nvim.write(at(project));
		const other = pi.editor();
		other.write(at(`${project}/src`)); // tier 1 only: must not cause a tie with the tier-0 editor
		await pi.controller.start();
		expect(pi.connectedPid()).toBe(nvim.pid);
		expect(pi.widget()).toBe("in main.ts");
		nvim.write(at(project, { buffer: { name: "b.ts", selection: selection(1, 5, "x", now()) } }));
		await waitFor("widget follows the write", () => pi.widget() === "5 lines selected in b.ts");
	});

	test("a tie waits for /ide; a pick is kept when a better editor appears", async () => {
		const pi = harness();
		const { project } = pi;
		const first = pi.editor();
		const second = pi.editor();
		first.write(at(`${project}/src`));
		second.write(at(`${project}/src`));
		await pi.controller.start();
		expect(pi.memory.connected).toBeUndefined();
		const picked = pi.controller.pickable(false).find((e) => e.pid === second.pid);
		if (!picked) throw new Error("second editor not offered");
		pi.controller.connect(picked, "picked with /ide");
		const exact = pi.editor();
		exact.write(at(project));
		await waitFor("the exact editor is seen", () => pi.controller.liveEditors().some((e) => e.pid === exact.pid));
		expect(pi.connectedPid()).toBe(second.pid);
		expect(pi.controller.pickable(false).map((e) => e.pid)).toEqual([exact.pid]);
	});

	test("kill -9 of the connected editor: pi says so and auto-connects the remaining one", async () => {
		const pi = harness();
		const { project } = pi;
		const a = pi.editor();
		const b = pi.editor();
		a.write(at(project));
		b.write(at(project, { buffer: { name: "other.ts" } }));
		await pi.controller.start();
		pi.controller.connect(pi.live(a.pid), "picked");
		await waitFor("widget", () => pi.widget() === "in main.ts");
		await a.kill("SIGKILL");
		await waitFor("widget switches to the remaining editor", () => pi.widget() === "in other.ts", 3000);
		expect(pi.notices.some((n) => n.includes(`nvim ${a.pid} is gone`))).toBe(true);
		expect(pi.connectedPid()).toBe(b.pid);
	});

	test("idle ticks change nothing; the tick after a kill -9 ends the connection (the clock moved by hand)", async () => {
		const clock = new ManualClock(now());
		const pi = harness({ clock });
		const nvim = pi.editor();
		nvim.write(at(pi.project));
		await pi.controller.start();
		expect(pi.widget()).toBe("in main.ts");
		const renders = pi.widgets.length;
		clock.advance(LIVENESS_CHECK_MS * RECHECK_EVERY_TICKS * 2);
		expect(pi.widgets).toHaveLength(renders);
		await nvim.kill("SIGKILL");
		expect(pi.connectedPid()).toBe(nvim.pid);
		clock.advance(LIVENESS_CHECK_MS);
		expect(pi.connectedPid()).toBeUndefined();
		expect(pi.widget()).toBeUndefined();
		expect(pi.notices.some((n) => n.includes(`nvim ${nvim.pid} is gone`))).toBe(true);
	});

	test("the editor deleting its file disconnects", async () => {
		const pi = harness();
		const { project } = pi;
		const nvim = pi.editor();
		nvim.write(at(project));
		await pi.controller.start();
		expect(pi.widget()).toBe("in main.ts");
		nvim.removeFile();
		await waitFor("widget cleared", () => pi.widgets.length > 1 && pi.widget() === undefined);
		expect(pi.memory.connected).toBeUndefined();
	});

	test("the widget drops 'selected' when the selection turns stale, with no write", async () => {
		// The clock moves only when the test moves it: "fresh" holds however slow the machine is, and the
		// expiry timer is seen to fire at its time, not before.
		const clock = new ManualClock(now());
		const pi = harness({ clock });
		const { project } = pi;
		const nvim = pi.editor();
		const selectedAt = clock.nowSeconds() - 59.7;
		nvim.write(at(project, { buffer: { selection: selection(3, 4, "x", selectedAt) } }));
		await pi.controller.start();
		expect(pi.widget()).toBe("2 lines selected in main.ts");
		const rendersBefore = pi.widgets.length;
		clock.advance(250);
		expect(pi.widgets).toHaveLength(rendersBefore);
		// The expiry timer, armed for 0.3 s, renders again with no write.
		clock.advance(100);
		expect(pi.widget()).toBe("in main.ts");
	});

	test("the connection survives a session replacement through the shared memory, even with a tie", async () => {
		const first = harness();
		const { project } = first;
		const a = first.editor();
		const b = first.editor();
		a.write(at(project));
		b.write(at(project));
		await first.controller.start();
		first.controller.connect(first.live(b.pid), "picked");
		const second = await first.replaced();
		await second.controller.start();
		expect(second.connectedPid()).toBe(b.pid);
		expect(second.widget()).toBe("in main.ts");
	});

	test("autoconnect off: nothing connects on its own, /ide still can", async () => {
		const pi = harness({ autoconnect: false });
		const { project } = pi;
		const nvim = pi.editor();
		nvim.write(at(project));
		await pi.controller.start();
		expect(pi.memory.connected).toBeUndefined();
		expect(await controllerBlock(pi.controller)).toBeUndefined();
		pi.controller.connect(pi.live(nvim.pid), "picked");
		expect(await controllerBlock(pi.controller)).toContain(`File: ${project}/src/main.ts`);
	});

	test("/ide off pauses auto-connect until a pick", async () => {
		const pi = harness();
		const { project } = pi;
		const nvim = pi.editor();
		nvim.write(at(project));
		await pi.controller.start();
		pi.controller.disconnect({ pauseAutoConnect: true });
		nvim.write(at(project, { buffer: { name: "again.ts" } }));
		// Seeing the write means the reconcile it queued has run (it runs before the next timer fires).
		await waitFor("write seen", () => pi.controller.liveEditors()[0]?.state.active_buffer?.name === "again.ts");
		expect(pi.memory.connected).toBeUndefined();
		expect(pi.widget()).toBeUndefined();
	});

	test("an untrusted dir is not read and the warning names path and fix", async () => {
		const pi = harness();
		const { project, stateDir } = pi;
		const nvim = pi.editor();
		nvim.write(at(project));
		chmodSync(stateDir, 0o755);
		await pi.controller.start();
		expect(pi.memory.connected).toBeUndefined();
		expect(pi.notices).toEqual([
			`pi-ide: not reading editor state: ${stateDir} has mode 0755; run: chmod 700 ${stateDir}`,
		]);
		expect(pi.controller.statusText()).toContain("NOT trusted");
		chmodSync(stateDir, 0o700);
		await waitFor("trusted again and connected", () => pi.connectedPid() === nvim.pid, 3000);
	});

	test("a missing state dir is created 0700 so editors can start later", async () => {
		const pi = harness({ createStateDir: false, stateDirName: "not-yet/pi-ide" });
		const { project, stateDir } = pi;
		await pi.controller.start();
		expect(statSync(stateDir).mode & 0o777).toBe(0o700);
		const nvim = pi.editor();
		nvim.write(at(project));
		await waitFor("late editor connects", () => pi.connectedPid() === nvim.pid);
	});

	test.each([
		["a .env", (project: string) => ({ file: `${project}/.env`, name: ".env" }), ".env"],
		[
			"a config.txt linked to .env",
			(project: string) => {
				writeFileSync(`${project}/.env`, "A=1\n");
				symlinkSync(`${project}/.env`, `${project}/config.txt`);
				return { file: `${project}/config.txt`, name: "config.txt" };
			},
			`${"config.txt"}`,
		],
		[
			"a .env linked to secrets/prod.txt",
			(project: string) => {
				mkdirSync(`${project}/secrets`);
				writeFileSync(`${project}/secrets/prod.txt`, "A=1\n");
				symlinkSync(`${project}/secrets/prod.txt`, `${project}/.env`);
				return { file: `${project}/.env`, name: ".env" };
			},
			".env",
		],
	])("%s: the widget says the selection is not sent; /ide status names the pattern", async (_name, setup, shown) => {
		const pi = harness();
		const { project } = pi;
		const buffer = setup(project);
		const nvim = pi.editor();
		nvim.write(at(project, { buffer: { ...buffer, selection: selection(1, 5, "A=1", now()) } }));
		await pi.controller.start();
		expect(pi.widget()).toBe(`5 lines selected in ${shown} (not sent)`);
		expect(pi.controller.statusText()).toMatch(
			/Connected file is a secret file: .* matches "\.env"; no selection text is sent/,
		);
		const block = await controllerBlock(pi.controller);
		expect(block).toContain('text withheld: .env matches the secret-file pattern ".env"');
		expect(block).not.toContain("A=1");
	});

	test("stop is idempotent and start twice is one start", async () => {
		const pi = harness();
		const before = { ...resourceCount() };
		await Promise.all([pi.controller.start(), pi.controller.start()]);
		expect(resourceCount()).toEqual({ ...before, watchers: before.watchers + 1, timers: before.timers + 1 });
		await Promise.all([pi.controller.stop(), pi.controller.stop()]);
		await pi.controller.stop();
		expect(resourceCount()).toEqual(before);
	});

	test("a rejected write of the connected editor: widget and block gone at once, still connected, one notice per reason", async () => {
		const pi = harness();
		const { project } = pi;
		const nvim = pi.editor();
		nvim.write(at(project));
		await pi.controller.start();
		expect(pi.widget()).toBe("in main.ts");
		chmodSync(nvim.file, 0o666);
		await waitFor("widget cleared", () => pi.widget() === undefined);
		expect(await controllerBlock(pi.controller)).toBeUndefined();
		expect(pi.connectedPid()).toBe(nvim.pid);
		const notice = `pi-ide: nvim ${nvim.pid} wrote a state pi cannot use (writable by group or others (mode 0666); chmod 600 it); no editor context until its next valid write`;
		await waitFor("notice after the trailing re-read", () => pi.notices.includes(notice));
		expect(pi.controller.statusText()).toContain(
			"; sending nothing: its latest write was rejected (writable by group or others (mode 0666); chmod 600 it)",
		);
		// The same reason again is no news; another reason is.
		chmodSync(nvim.file, 0o600);
		await waitFor("back", () => pi.widget() === "in main.ts");
		chmodSync(nvim.file, 0o666);
		await waitFor("cleared again", () => pi.widget() === undefined);
		nvim.write("{ torn");
		await waitFor("second reason noticed", () => pi.notices.some((n) => n.includes("(not valid JSON")));
		expect(pi.notices.filter((n) => n === notice)).toHaveLength(1);
		nvim.write(at(project, { buffer: { name: "valid-again.ts" } }));
		await waitFor("a valid write brings it back", () => pi.widget() === "in valid-again.ts");
		expect(await controllerBlock(pi.controller)).toContain(`File: ${project}/src/main.ts`);
	});

	test("a torn write followed at once by the completed one is no news", async () => {
		const pi = harness();
		const { project } = pi;
		const nvim = pi.editor();
		nvim.write(at(project));
		await pi.controller.start();
		for (let round = 1; round <= 5; round++) {
			const complete = JSON.stringify({ ...at(project, { buffer: { name: `r${round}.ts` } }), pid: nvim.pid });
			writeFileSync(nvim.file, complete.slice(0, 30));
			writeFileSync(nvim.file, complete);
			await waitFor(`round ${round}`, () => pi.widget() === `in r${round}.ts`);
		}
		// A notice is given when a file's reads settle; the view waits for every read still pending or due, so
		// once it returns every settle of these writes has happened.
		await pi.controller.viewAfterPendingRead();
		expect(pi.notices).toEqual([]);
	});

	test.each([
		["VS Code closes its last tab", "vscode-client/no-editor"],
		["VS Code switches to an untitled document", "vscode-client/untitled"],
		["Obsidian has no note open", "obsidian-client/no-note"],
	] as const)(
		"%s: the previous file is gone at once, no block, status says no named buffer",
		async (_name, fixture) => {
			const obsidian = fixture.startsWith("obsidian");
			const pi = harness({ projectDirName: obsidian ? "vault" : "proj" });
			const { root, project } = pi;
			const home = root;
			const vault = join(root, "vault");
			mkdirSync(join(vault, "Notes"), { recursive: true });
			const ed = pi.editor();
			ed.write(
				clientFixtureText(obsidian ? "obsidian-client/note" : "vscode-client/named-file", { home, pid: ed.pid }),
			);
			await pi.controller.start();
			expect(pi.widget()).toBe(obsidian ? "in foo.md" : "in main.ts");
			expect(await controllerBlock(pi.controller)).toContain(
				obsidian ? `File: ${vault}/Notes/foo.md` : `File: ${project}/src/main.ts`,
			);
			ed.write(clientFixtureText(fixture, { home, pid: ed.pid }));
			await waitFor("widget cleared", () => pi.widget() === undefined);
			expect(await controllerBlock(pi.controller)).toBeUndefined();
			expect(pi.connectedPid()).toBe(ed.pid);
			const row = pi.controller
				.statusText()
				.split("\n")
				.find((line) => line.includes(`${ed.pid}.json:`));
			expect(row).toContain("no named buffer");
			expect(pi.notices).toEqual([]);
		},
	);
});
