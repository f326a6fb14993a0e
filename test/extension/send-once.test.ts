import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { EDITOR_EVENT_CHANNEL } from "../../src/index.ts";
import { goneLine, unchangedLine } from "../../src/prompt/core/editor-block.ts";
import { projectState, type StateOverrides, selection } from "../support/fixtures.ts";
import { contentText, type SdkSession } from "../support/sdk-session.ts";
import { useSdkWorkspace } from "../support/sdk-workspace.ts";
import { waitFor } from "../support/wait-for.ts";

const ws = useSdkWorkspace("send-once");
const now = () => Math.floor(Date.now() / 1000);

/** About 16 KiB of distinct lines; the marker line counts the copies the model holds. */
const MARKER = "const marker = 'the selected text';";
const BIG_SELECTION = [MARKER, ...Array.from({ length: 560 }, (_, i) => `const line${i} = ${i} * 2;`)].join("\n");

const lastCall = (pi: SdkSession) => (pi.contexts.at(-1)?.messages ?? []).map(contentText);
const copiesInLastCall = (pi: SdkSession) => lastCall(pi).join("\n").split(MARKER).length - 1;
const lastMessage = (pi: SdkSession) => lastCall(pi).at(-1);

/** A session with one editor; `write` changes its state and resolves once the extension has seen it. */
async function start(settings?: object) {
	if (settings) {
		mkdirSync(ws.agentDir, { recursive: true });
		writeFileSync(join(ws.agentDir, "settings.json"), JSON.stringify(settings));
	}
	const nvim = ws.editor();
	const stateOf = (overrides: StateOverrides = {}) => ({ ...projectState(ws.project, overrides), pid: nvim.pid });
	nvim.write(stateOf());
	const pi = await ws.session();
	const widgets: (string | undefined)[] = [];
	pi.events.on(EDITOR_EVENT_CHANNEL, (editor) => widgets.push((editor as { widget?: string } | undefined)?.widget));
	const write = async (overrides: StateOverrides, widget: string) => {
		nvim.write(stateOf(overrides));
		await waitFor(`widget "${widget}"`, () => widgets.at(-1) === widget);
	};
	const selectAll = (selectedAt = now()) =>
		write({ buffer: { selection: selection(1, 561, BIG_SELECTION, selectedAt) } }, "561 lines selected in main.ts");
	return { nvim, pi, write, selectAll };
}

/** Whether the latest compaction kept the message that carried the selection (pi's own session data). */
function selectionMessageKept(pi: SdkSession): boolean {
	const branch = pi.session.sessionManager.getBranch();
	const compaction = branch.findLast((entry) => entry.type === "compaction");
	if (compaction?.type !== "compaction") throw new Error("no compaction happened");
	const carrier = branch.findIndex(
		(entry) => entry.type === "custom_message" && JSON.stringify(entry.content).includes(MARKER),
	);
	const firstKept = branch.findIndex((entry) => entry.id === compaction.firstKeptEntryId);
	if (carrier < 0 || firstKept < 0) throw new Error("carrier or first kept entry not on the branch");
	return firstKept <= carrier;
}

describe("send once, through a real AgentSession", () => {
	test("a 16 KiB selection kept fresh over three prompts is in the model's context once", async () => {
		const { pi, selectAll } = await start();
		await selectAll();
		for (const prompt of ["first", "second", "third"]) await pi.session.prompt(prompt);
		expect(copiesInLastCall(pi)).toBe(1);
		expect(lastMessage(pi)).toBe(unchangedLine());
	});

	test("the short line when nothing changed; only the cursor line when the cursor moved", async () => {
		const { pi, write } = await start();
		await pi.session.prompt("one");
		expect(lastMessage(pi)).toContain(`File: ${ws.project}/src/main.ts`);
		await pi.session.prompt("two");
		expect(lastMessage(pi)).toBe(unchangedLine());
		await write({ buffer: { cursor: { line: 77, column: 3 } } }, "in main.ts");
		await waitFor("cursor seen", async () => {
			await pi.session.prompt("three");
			return lastMessage(pi)?.includes("Cursor: line 77, column 3");
		});
		expect(lastMessage(pi)).not.toContain("File:");
	});

	test("a compaction that kept the selection changes nothing; one that dropped it sends it again", async () => {
		const { pi, selectAll } = await start({ compaction: { enabled: false, keepRecentTokens: 3000 } });
		await pi.session.prompt("before the selection");
		await selectAll();
		await pi.session.prompt("look at this");
		await pi.session.prompt("and again");
		await pi.session.compact();
		expect(selectionMessageKept(pi)).toBe(true);
		await pi.session.prompt("after a compaction that kept it");
		expect(copiesInLastCall(pi)).toBe(1);
		expect(lastMessage(pi)).toBe(unchangedLine());
		// Several more turns push it out of the kept window; the next compaction summarises it away.
		for (const filler of ["a", "b", "c"]) await pi.session.prompt(`filler ${filler} ${"z".repeat(8000)}`);
		await pi.session.compact();
		expect(selectionMessageKept(pi)).toBe(false);
		await pi.session.prompt("after a compaction that dropped it");
		expect(copiesInLastCall(pi)).toBe(1);
		expect(lastMessage(pi)).toContain(`File: ${ws.project}/src/main.ts`);
		expect(lastMessage(pi)).toContain(MARKER);
	});

	test("navigating the tree to before the block sends it again", async () => {
		const { pi, selectAll } = await start();
		await pi.session.prompt("first, no selection");
		const branchPoint = pi.session.sessionManager.getLeafId();
		await selectAll();
		await pi.session.prompt("with the selection");
		expect(copiesInLastCall(pi)).toBe(1);
		if (!branchPoint) throw new Error("no leaf");
		await pi.session.navigateTree(branchPoint, { summarize: false });
		await pi.session.prompt("on the other branch");
		expect(copiesInLastCall(pi)).toBe(1);
		expect(lastMessage(pi)).toContain(MARKER);
	});

	test("the editor going away is said once", async () => {
		const { nvim, pi } = await start();
		await pi.session.prompt("one");
		await nvim.kill();
		await pi.session.prompt("two");
		expect(lastMessage(pi)).toBe(goneLine("disconnected"));
		await pi.session.prompt("three");
		expect(lastCall(pi).filter((text) => text === goneLine("disconnected"))).toHaveLength(1);
		expect(lastMessage(pi)).toBe("three");
	});
});
