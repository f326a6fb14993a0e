import { afterEach, describe, expect, test } from "vitest";
import { ControllerHarness } from "../support/controller-harness.ts";
import { projectState } from "../support/fixtures.ts";
import { waitFor } from "../support/wait-for.ts";

/**
 * The guard fails closed, on a real state dir, a real watcher and a real editor process: what the editor last
 * validly said is unsaved stays guarded through a torn write, a rejected state and a bad list entry.
 */
const harnesses: ControllerHarness[] = [];
afterEach(async () => {
	for (const h of harnesses.splice(0)) await h.cleanup();
});

async function connectedEditor() {
	const pi = new ControllerHarness();
	harnesses.push(pi);
	const editor = pi.editor();
	const main = `${pi.project}/src/main.ts`;
	const other = `${pi.project}/src/other.ts`;
	editor.write(projectState(pi.project, { buffer: { modified: true }, unsaved_files: [other] }));
	await pi.controller.start();
	expect(pi.connectedPid()).toBe(editor.pid);
	return { pi, editor, main, other };
}

const guarded = async (pi: ControllerHarness) => (await pi.controller.unsavedAfterPendingRead()).map((b) => b.file);

describe("the unsaved guard keeps the editor's last valid list", () => {
	test("a torn write (invalid JSON) after `modified: true`: still blocked", async () => {
		const { pi, editor, main, other } = await connectedEditor();
		expect(await guarded(pi)).toEqual([main, other]);
		editor.write('{"pid": 1, "cwd": "/x", "timestamp": 1, "app": "nvim", "active_buf');
		await waitFor("the torn write is rejected", () => pi.statusOf(`${editor.pid}.json`)?.includes("rejected") === true);
		expect(await guarded(pi)).toEqual([main, other]);
	});

	test("a state that fails the schema: still blocked; a valid state saying saved lifts it", async () => {
		const { pi, editor, main, other } = await connectedEditor();
		editor.write({ ...projectState(pi.project), cwd: "relative/dir" });
		await waitFor("rejected", () => pi.statusOf(`${editor.pid}.json`)?.includes("rejected") === true);
		expect(await guarded(pi)).toEqual([main, other]);
		editor.write(projectState(pi.project, { buffer: { modified: false } }));
		await waitFor("the saved state is read", async () => (await guarded(pi)).length === 0);
	});

	test("one bad `unsaved_files` entry costs only that entry, named in /ide status", async () => {
		const { pi, editor, main, other } = await connectedEditor();
		editor.write({
			...projectState(pi.project, { buffer: { modified: true } }),
			unsaved_files: [other, "relative.ts", 7],
		});
		await waitFor(
			"the entries are named",
			() => pi.statusOf(`${editor.pid}.json`)?.includes("2 of 3 entries") === true,
		);
		expect(await guarded(pi)).toEqual([main, other]);
	});

	test("`unsaved_files` that is no list at all keeps the list before it", async () => {
		const { pi, editor, main, other } = await connectedEditor();
		editor.write({ ...projectState(pi.project, { buffer: { modified: true } }), unsaved_files: "everything" });
		await waitFor("left out", () => pi.statusOf(`${editor.pid}.json`)?.includes("unsaved_files left out") === true);
		expect(await guarded(pi)).toEqual([main, other]);
	});

	test("the editor goes: nothing of it is guarded any more", async () => {
		const { pi, editor } = await connectedEditor();
		editor.write("{ torn");
		await waitFor("rejected", () => pi.statusOf(`${editor.pid}.json`)?.includes("rejected") === true);
		await editor.kill();
		// Seen at the next liveness check (the benchmark measures how soon); a loaded machine may take a few seconds.
		await waitFor("disconnected", () => pi.connectedPid() === undefined, 15_000);
		expect(await guarded(pi)).toEqual([]);
	});
});
