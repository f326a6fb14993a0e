import { describe, expect, test } from "vitest";
import type { NotSent } from "../../../src/editors/core/ask-methods.ts";
import type { BridgeErrorCode } from "../../../src/pi-bridge/core/bridge-messages.ts";
import type { BridgeSocketFacts } from "../../../src/pi-bridge/core/bridge-status.ts";
import {
	APPROVAL_DIFF_MAX_CHARS,
	APPROVAL_DIFF_MAX_LINES,
	bridgeStatusLines,
	cappedDiff,
	endText,
	errorCodeOf,
	startText,
} from "../../../src/pi-bridge/core/bridge-texts.ts";

describe("the code the plugin gets for an ask not sent", () => {
	test.each<[NotSent | undefined, BridgeErrorCode]>([
		["off", "no_active_pi"],
		["noModel", "no_active_pi"],
		["ending", "stale_context"],
		["compacting", "send_failed"],
		["noStart", "send_failed"],
		["noUi", "send_failed"],
		["failed", "send_failed"],
		[undefined, "send_failed"],
	])("%s → %s", (kind, code) => {
		expect(errorCodeOf(kind)).toBe(code);
	});
});

describe("agent_start's and agent_end's messages", () => {
	test.each<[string, { name?: string; id?: string } | undefined, string | undefined, string]>([
		["the model's name", { name: "Claude Sonnet 4", id: "claude-sonnet-4" }, undefined, "Claude Sonnet 4 is working"],
		["its id when it has no name", { id: "gpt-5" }, undefined, "gpt-5 is working"],
		["no model", undefined, undefined, "the model is working"],
		["thinking off: not said", { name: "M" }, "off", "M is working"],
		["a thinking level", { name: "M" }, "high", "M is working (thinking: high)"],
		["a name with an escape sequence: made safe", { name: "M\u001b[31mX" }, undefined, "MX is working"],
	])("start: %s", (_name, model, thinking, text) => {
		expect(startText(model, thinking)).toBe(text);
	});

	test("start: a very long name is cut", () => {
		expect(startText({ name: "n".repeat(500) }, undefined)).toBe(`${"n".repeat(77)}... is working`);
	});

	test.each<[string, Parameters<typeof endText>[0], string]>([
		["nothing changed", { files: [], aborted: false }, "done"],
		["one file", { files: ["/p/src/a.ts"], aborted: false }, "done, changed a.ts"],
		["three files", { files: ["/p/a.ts", "/p/b.ts", "/p/c.ts"], aborted: false }, "done, changed a.ts, b.ts, c.ts"],
		[
			"five files: three named, the rest counted",
			{ files: ["/p/a", "/p/b", "/p/c", "/p/d", "/p/e"], aborted: false },
			"done, changed a, b, c and 2 more",
		],
		["an error", { files: ["/p/a.ts"], error: "429 rate limited", aborted: false }, "error: 429 rate limited"],
		["stopped by the user, whatever else", { files: ["/p/a.ts"], error: "aborted", aborted: true }, "stopped"],
	])("end: %s", (_name, run, text) => {
		expect(endText(run)).toBe(text);
	});
});

const MARKER = `\n[diff cut at 200 lines / 32 KB: the whole change is in pi]\n`;
const numbered = (count: number) => Array.from({ length: count }, (_, index) => `+line ${index + 1}`);

describe("the diff an approval carries: pi-bridge.ext's caps", () => {
	test("a short diff: as it is", () => {
		const diff = "--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n";
		expect(cappedDiff(diff)).toBe(diff);
	});

	test("exactly 200 lines, without a final newline: as it is", () => {
		const diff = numbered(APPROVAL_DIFF_MAX_LINES).join("\n");
		expect(cappedDiff(diff)).toBe(diff);
	});

	test("exactly 200 lines ending in a newline (as a patch does): as it is, no marker", () => {
		const diff = `${numbered(APPROVAL_DIFF_MAX_LINES).join("\n")}\n`;
		expect(cappedDiff(diff)).toBe(diff);
	});

	test("201 lines: the first 200, then the marker", () => {
		const lines = numbered(APPROVAL_DIFF_MAX_LINES + 1);
		expect(cappedDiff(`${lines.join("\n")}\n`)).toBe(`${lines.slice(0, 200).join("\n")}${MARKER}`);
	});

	test("exactly 32 KB: as it is", () => {
		const diff = "x".repeat(APPROVAL_DIFF_MAX_CHARS);
		expect(cappedDiff(diff)).toBe(diff);
	});

	test("a few lines past 32 KB: the first 32 KB, then the marker", () => {
		const line = "+".padEnd(1000, "y");
		const diff = `${Array(40).fill(line).join("\n")}\n`;
		expect(diff.length).toBeGreaterThan(APPROVAL_DIFF_MAX_CHARS);
		expect(cappedDiff(diff)).toBe(`${diff.slice(0, APPROVAL_DIFF_MAX_CHARS)}${MARKER}`);
	});

	test("both caps: 200 lines, then 32 KB of them", () => {
		const diff = Array(500).fill("+".padEnd(300, "z")).join("\n");
		const capped = cappedDiff(diff);
		expect(capped).toBe(`${diff.slice(0, APPROVAL_DIFF_MAX_CHARS)}${MARKER}`);
		expect(capped.split("\n").length).toBeLessThanOrEqual(APPROVAL_DIFF_MAX_LINES + 2);
	});
});

const facts = (state: BridgeSocketFacts["state"], more: Partial<BridgeSocketFacts> = {}): BridgeSocketFacts => ({
	path: "/home/ada/.pi/agent/pi-bridge/sockets/0123456789abcdef.sock",
	state,
	clients: 2,
	prompts: 5,
	approvals: "on",
	questions: "off (PI_BRIDGE_UI_PROMPT_MIRROR=0)",
	...more,
});
const PATH = "/home/ada/.pi/agent/pi-bridge/sockets/0123456789abcdef.sock";

describe("/ide status's lines for the socket", () => {
	test.each<[string, BridgeSocketFacts, string[]]>([
		[
			"serving: where, and its counts",
			facts({ kind: "serving" }),
			[
				`pi-bridge.nvim's socket: served at ${PATH}`,
				"  2 connected, 5 prompts, approvals on, questions off (PI_BRIDGE_UI_PROMPT_MIRROR=0)",
			],
		],
		[
			"off: why",
			facts({ kind: "off", reason: "turned off in settings" }),
			["pi-bridge.nvim's socket: off (turned off in settings)"],
		],
		["idle: not bound yet", facts({ kind: "idle" }), [`pi-bridge.nvim's socket: not bound yet (${PATH})`]],
		[
			"aside: another owner, and where",
			facts({ kind: "aside", reason: "another pi serves it" }),
			[`pi-bridge.nvim's socket: not served: another pi serves it (${PATH})`],
		],
		[
			"failed: why",
			facts({ kind: "failed", reason: "cannot listen: EACCES" }),
			["pi-bridge.nvim's socket: not served: cannot listen: EACCES"],
		],
		[
			"serving with a last problem",
			facts({ kind: "serving" }, { lastProblem: "a malformed prompt (/context/mode: must be equal to constant)" }),
			[
				`pi-bridge.nvim's socket: served at ${PATH}`,
				"  2 connected, 5 prompts, approvals on, questions off (PI_BRIDGE_UI_PROMPT_MIRROR=0)",
				"  last problem: a malformed prompt (/context/mode: must be equal to constant)",
			],
		],
		[
			"a last problem with an escape sequence from a client: made safe",
			facts({ kind: "idle" }, { lastProblem: "bad\u001b]0;title\u0007 line" }),
			[`pi-bridge.nvim's socket: not bound yet (${PATH})`, "  last problem: bad line"],
		],
	])("%s", (_name, socketFacts, lines) => {
		expect(bridgeStatusLines(socketFacts)).toEqual(lines);
	});
});
