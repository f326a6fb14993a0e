import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import type { ApprovalRequest, ApproverDecision, TurnApprovals } from "../../src/review/approvals.ts";
import type { ChoicesMirror } from "../../src/review/choices-mirror.ts";
import type { ReviewStanding } from "../../src/settings/core/settings.ts";
import { tempDir } from "../support/temp-dir.ts";
import { gateRig, waitUntil } from "./gate-rig.ts";

/** pi-bridge.nvim's picker as the review sees it: each request waits for the test's decision or its withdrawal. */
class ScriptedApprovals implements TurnApprovals {
	readonly asked: { request: ApprovalRequest; signal: AbortSignal }[] = [];
	private pending: ((decision: ApproverDecision | undefined) => void)[] = [];
	/** The running turn is the plugin's. */
	pluginTurn = true;

	approver() {
		if (!this.pluginTurn) return undefined;
		return {
			name: "Neovim (pi-bridge)",
			ask: (request: ApprovalRequest, signal: AbortSignal) =>
				new Promise<ApproverDecision | undefined>((done) => {
					this.asked.push({ request, signal });
					this.pending.push(done);
					signal.addEventListener("abort", () => done(undefined), { once: true });
				}),
		};
	}

	async decide(decision: ApproverDecision | undefined): Promise<void> {
		await waitUntil(() => this.pending.length > 0);
		this.pending.shift()?.(decision);
	}
}

/** The review's choices mirror, counting what it is asked: the plugin's turns must not use it. */
function countingMirror(): ChoicesMirror & { chosen: number } {
	const mirror = {
		chosen: 0,
		choose: () => {
			mirror.chosen++;
			return undefined;
		},
		unmirrored: <T>(ui: T) => ui,
	};
	return mirror as ChoicesMirror & { chosen: number };
}

const OFF_BY_DEFAULT: ReviewStanding = { on: false, source: "default" };

describe("the plugin's approvals join the review's race for its turns", () => {
	const dir = tempDir("review-approvals");
	const file = (name: string, text: string) => {
		const path = join(dir.path, name);
		writeFileSync(path, text);
		return path;
	};
	const setup = (standing: ReviewStanding = OFF_BY_DEFAULT) => {
		const approvals = new ScriptedApprovals();
		const mirror = countingMirror();
		return { approvals, mirror, ...gateRig(dir.path, { standing, approvals, mirror }) };
	};

	test("review off by default: the plugin is asked (the whole change), pi's select too, no editor's diff; yes accepts", async () => {
		const { approvals, host, ui, call, mirror } = setup();
		const path = file("yes.ts", "old\n");
		const { result } = call("write", { path: "yes.ts", content: "new\n" });
		await waitUntil(() => approvals.asked.length === 1 && ui.titles.length === 1);
		expect(approvals.asked[0]?.request).toEqual({ tool: "write", file: path, before: "old\n", proposed: "new\n" });
		expect(ui.titles[0]).toContain("asked in Neovim (pi-bridge)");
		await approvals.decide("yes");
		expect(await result).toBeUndefined();
		expect(ui.withdrawn).toBe(1);
		expect(host.requests).toEqual([]);
		expect(mirror.chosen).toBe(0);
	});

	test("no rejects, and the model reads where", async () => {
		const { approvals, call } = setup();
		const path = file("no.ts", "old\n");
		const { result } = call("write", { path: "no.ts", content: "new\n" });
		await approvals.decide("no");
		expect(await result).toMatchObject({
			block: true,
			reason: expect.stringContaining("rejected this write of no.ts in Neovim (pi-bridge)"),
		});
		expect(readFileSync(path, "utf8")).toBe("old\n");
	});

	test("all accepts this file for the rest of the session, not every file (the review's accept all)", async () => {
		const { approvals, call } = setup();
		file("all.ts", "a\n");
		file("other.ts", "o\n");
		const first = call("write", { path: "all.ts", content: "b\n" });
		await approvals.decide("all");
		expect(await first.result).toBeUndefined();
		expect(await call("write", { path: "all.ts", content: "c\n" }).result).toBeUndefined();
		expect(approvals.asked).toHaveLength(1);
		const other = call("write", { path: "other.ts", content: "p\n" });
		await waitUntil(() => approvals.asked.length === 2);
		await approvals.decide("yes");
		expect(await other.result).toBeUndefined();
	});

	test("the plugin's all is for its turns: a turn typed into pi with review on is reviewed; /ide review on asks again", async () => {
		const { approvals, host, ui, call, gate } = setup({ on: true, source: "global" });
		file("mine.ts", "a\n");
		const first = call("write", { path: "mine.ts", content: "b\n" });
		await approvals.decide("all");
		expect(await first.result).toBeUndefined();
		approvals.pluginTurn = false;
		const typed = call("write", { path: "mine.ts", content: "c\n" });
		await waitUntil(() => host.requests.length === 2);
		expect(approvals.asked).toHaveLength(1);
		await ui.choose("Accept");
		expect(await typed.result).toBeUndefined();
		approvals.pluginTurn = true;
		gate.askAgain();
		const again = call("write", { path: "mine.ts", content: "d\n" });
		await waitUntil(() => approvals.asked.length === 2);
		await approvals.decide("yes");
		expect(await again.result).toBeUndefined();
	});

	test("answered in pi first: the plugin's request is withdrawn", async () => {
		const { approvals, ui, call } = setup();
		file("pi.ts", "x\n");
		const { result } = call("write", { path: "pi.ts", content: "y\n" });
		await waitUntil(() => approvals.asked.length === 1);
		await ui.choose("Accept");
		expect(await result).toBeUndefined();
		expect(approvals.asked[0]?.signal.aborted).toBe(true);
	});

	test("nobody left to answer in the plugin (its connections closed): pi's select decides", async () => {
		const { approvals, ui, call } = setup();
		file("gone.ts", "x\n");
		const { result } = call("write", { path: "gone.ts", content: "y\n" });
		await approvals.decide(undefined);
		await ui.choose("Reject");
		expect(await result).toMatchObject({ block: true, reason: expect.stringContaining("in pi") });
	});

	test("review on: the connected editor's diff opens too, and the plugin's answer closes it", async () => {
		const { approvals, host, call, mirror } = setup({ on: true, source: "global" });
		file("on.ts", "x\n");
		const { result } = call("write", { path: "on.ts", content: "y\n" });
		await waitUntil(() => host.requests.length === 1 && approvals.asked.length === 1);
		await approvals.decide("yes");
		expect(await result).toBeUndefined();
		expect(host.closed).toBe(1);
		expect(mirror.chosen).toBe(0);
	});

	test.each<[string, ReviewStanding]>([
		["/ide review off", { on: false, source: "process" }],
		['a global "review": false', { on: false, source: "global" }],
	])("%s turns the plugin's approvals off too: nothing asked, nothing blocked", async (_name, standing) => {
		const { approvals, ui, call } = setup(standing);
		file("off.ts", "x\n");
		expect(await call("write", { path: "off.ts", content: "y\n" }).result).toBeUndefined();
		expect(approvals.asked).toEqual([]);
		expect(ui.titles).toEqual([]);
	});
});
