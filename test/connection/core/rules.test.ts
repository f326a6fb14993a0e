import { describe, expect, test } from "vitest";
import {
	autoConnectTarget,
	bestTier,
	CONNECTION_END_TEXT,
	type ConnectionEnd,
	connectionEnd,
	connectionEndNotice,
	connectReason,
	editorMatch,
	promptGoneReason,
} from "../../../src/connection/core/rules.ts";
import type { EditorFacts } from "../../../src/editors/core/editor.ts";
import type { Tier } from "../../../src/editors/core/tiers.ts";
import { noticeText } from "../../../src/shared/core/notice-texts.ts";
import { editorReading } from "../../support/fixtures.ts";

const editor = (pid: number, tier: Tier | undefined) => ({ key: `pid:${pid}`, match: { tier } });

describe("a hidden workspace is never connected on its own", () => {
	test.each([
		["the only exact match is hidden: nobody", [{ ...editor(1, 0), hidden: true }], undefined],
		["a hidden one beside a visible one: the visible one", [{ ...editor(1, 0), hidden: true }, editor(2, 0)], "pid:2"],
		[
			"hidden in the best tier, one visible in a weaker: the visible one",
			[{ ...editor(1, 0), hidden: true }, editor(2, 1)],
			"pid:2",
		],
	])("%s", (_name, editors, target) => {
		expect(autoConnectTarget(editors)?.key).toBe(target);
	});
});

describe("the Neovim pi runs in ($NVIM) is the editor meant", () => {
	test.each([
		["beside another exact match: the enclosing one", [editor(1, 0), { ...editor(2, 1), enclosing: true }], "pid:2"],
		["alone, in no tier: still the one", [{ ...editor(3, undefined), enclosing: true }], "pid:3"],
		["no enclosing one: the tier rule", [editor(1, 0), editor(2, 1)], "pid:1"],
	])("%s", (_name, editors, target) => {
		expect(autoConnectTarget(editors)?.key).toBe(target);
	});

	test("it matches in tier 0, whatever its paths say", () => {
		const paths = { cwd: "/elsewhere", argvDirs: [] };
		expect(editorMatch({ paths, enclosing: true }, "/p")).toEqual({
			tier: 0,
			evidence: "pi runs in its terminal ($NVIM)",
		});
		expect(editorMatch({ paths }, "/p").tier).toBeUndefined();
	});
});

describe("bestTier and autoConnectTarget", () => {
	test.each([
		["nobody", [], undefined, [], undefined],
		["one exact match", [editor(1, 0)], 0, ["pid:1"], "pid:1"],
		["exact match beats weaker matches", [editor(1, 1), editor(2, 0), editor(3, 1)], 0, ["pid:2"], "pid:2"],
		[
			"two exact matches tie: wait for /ide",
			[editor(1, 0), editor(2, 0), editor(3, 1)],
			0,
			["pid:1", "pid:2"],
			undefined,
		],
		["one tier-1 match", [editor(1, 1), editor(2, undefined)], 1, ["pid:1"], "pid:1"],
		["two tier-1 matches tie", [editor(1, 1), editor(2, 1)], 1, ["pid:1", "pid:2"], undefined],
		["only unrelated editors", [editor(1, undefined), editor(2, undefined)], undefined, [], undefined],
	])("%s", (_name, editors, tier, keys, target) => {
		const best = bestTier(editors);
		expect(best.tier).toBe(tier);
		expect(best.editors.map((e) => e.key)).toEqual(keys);
		expect(autoConnectTarget(editors)?.key).toBe(target);
	});
});

describe("an editor connected only when picked (byHand) is never taken on its own", () => {
	const byHand = (pid: number, tier: Tier | undefined) => ({ ...editor(pid, tier), byHand: true });
	test.each([
		["the only exact match, byHand: nobody", [byHand(1, 0)], undefined],
		["a byHand one beside a plain exact match: a tie, nobody", [byHand(1, 0), editor(2, 0)], undefined],
		[
			"byHand in the best tier, a plain one in a weaker: nobody (the weaker tier is not offered)",
			[byHand(1, 0), editor(2, 1)],
			undefined,
		],
		["byHand in a weaker tier: the plain exact match", [editor(1, 0), byHand(2, 1)], "pid:1"],
		["byHand in no tier: the plain one", [byHand(1, undefined), editor(2, 1)], "pid:2"],
		["byHand set false: as a plain one", [{ ...editor(1, 0), byHand: false }], "pid:1"],
		[
			"the enclosing one, byHand: nobody, although another matches exactly",
			[{ ...byHand(1, undefined), enclosing: true }, editor(2, 0)],
			undefined,
		],
		["the enclosing one alone, byHand: nobody", [{ ...byHand(1, 0), enclosing: true }], undefined],
		[
			"the enclosing one, plain, beside a byHand exact match: the enclosing one",
			[{ ...editor(1, undefined), enclosing: true }, byHand(2, 0)],
			"pid:1",
		],
		[
			"two enclosing (one byHand): the tier rule, which takes the plain exact match",
			[{ ...byHand(1, 1), enclosing: true }, { ...editor(2, 1), enclosing: true }, editor(3, 0)],
			"pid:3",
		],
		[
			"a hidden byHand one and a visible plain one: the visible one",
			[{ ...byHand(1, 0), hidden: true }, editor(2, 0)],
			"pid:2",
		],
	])("%s", (_name, editors, target) => {
		expect(autoConnectTarget(editors)?.key).toBe(target);
	});

	test.each<[string, "ide-server" | "neovim" | "emacs" | undefined, string]>([
		["an IDE server names $CLAUDE_CODE_SSE_PORT", "ide-server", "pi runs in its terminal ($CLAUDE_CODE_SSE_PORT)"],
		["a Neovim names $NVIM", "neovim", "pi runs in its terminal ($NVIM)"],
		[
			"an Emacs names $INSIDE_EMACS and its ancestry",
			"emacs",
			"pi runs in its terminal ($INSIDE_EMACS, and that Emacs is among pi's ancestors)",
		],
		["no origin: $NVIM", undefined, "pi runs in its terminal ($NVIM)"],
	])("the enclosing editor's evidence: %s", (_name, origin, evidence) => {
		const paths = { cwd: "/elsewhere", argvDirs: [] };
		expect(editorMatch({ paths, enclosing: true, ...(origin && { origin }) }, "/p")).toEqual({ tier: 0, evidence });
	});

	test("an IDE server that is not enclosing is scored by its paths", () => {
		expect(editorMatch({ paths: { cwd: "/p", argvDirs: [] }, origin: "ide-server" }, "/p").tier).toBe(0);
		expect(
			editorMatch({ paths: { cwd: "/elsewhere", argvDirs: [] }, origin: "ide-server" }, "/p").tier,
		).toBeUndefined();
	});
});

const reading = editorReading;

describe("why a connection ends, and what a prompt gets", () => {
	test.each<
		[string, EditorFacts | undefined, ReturnType<typeof connectionEnd> | "n/a", ReturnType<typeof promptGoneReason>]
	>([
		["nothing under the key any more", undefined, "n/a", "disconnected"],
		["file removed", { origin: "state-file", listed: false, alive: true }, "file-removed", "disconnected"],
		[
			"process gone, file left",
			{ origin: "state-file", listed: true, alive: false, reading: reading("/p/a.ts") },
			"process-gone",
			"disconnected",
		],
		[
			"a dead pid's file, never read",
			{ origin: "state-file", listed: true, alive: false },
			"process-gone",
			"disconnected",
		],
		["Zed quit: its rows stay", { listed: true, alive: false, origin: "zed" }, "app-quit", "disconnected"],
		["a Zed window closed", { listed: false, alive: true, origin: "zed" }, "workspace-closed", "disconnected"],
		[
			"a Zed schema pi cannot read: still connected, nothing sent",
			{ listed: true, alive: true, origin: "zed", rejection: "table editors has no contents" },
			undefined,
			"rejected",
		],
		[
			"latest write rejected: still connected",
			{ origin: "state-file", listed: true, alive: true, rejection: "torn" },
			undefined,
			"rejected",
		],
		[
			"no named buffer",
			{ origin: "state-file", listed: true, alive: true, reading: reading(null) },
			undefined,
			"no-file",
		],
		[
			"a named file",
			{ origin: "state-file", listed: true, alive: true, reading: reading("/p/a.ts") },
			undefined,
			undefined,
		],
		[
			"an IDE server's lockfile removed",
			{ origin: "ide-server", listed: false, alive: true },
			"lockfile-removed",
			"disconnected",
		],
		[
			"an IDE server's process ended",
			{ origin: "ide-server", listed: true, alive: false },
			"ide-server-gone",
			"disconnected",
		],
		[
			"an IDE server closed pi's connection (another client took it)",
			{ origin: "ide-server", listed: true, alive: true, ended: "closed-by-editor", rejection: "closed 1005" },
			"closed-by-editor",
			"disconnected",
		],
		[
			"pi could not connect to an IDE server",
			{ origin: "ide-server", listed: true, alive: true, ended: "connect-failed", rejection: "HTTP 400" },
			"connect-failed",
			"disconnected",
		],
		[
			"an Emacs's connection to pi closed (kill -9, C-x C-c)",
			{ origin: "emacs", listed: false, alive: false },
			"emacs-closed",
			"disconnected",
		],
		[
			"ended wins over unlisted and dead",
			{ origin: "ide-server", listed: false, alive: false, ended: "closed-by-editor" },
			"closed-by-editor",
			"disconnected",
		],
		[
			"ended with a reading still held",
			{ origin: "ide-server", listed: true, alive: true, ended: "connect-failed", reading: reading("/p/a.ts") },
			"connect-failed",
			"disconnected",
		],
	])("%s", (_name, facts, end, gone) => {
		if (facts) expect(connectionEnd(facts)).toBe(end);
		expect(promptGoneReason(facts)).toBe(gone);
	});

	test.each<[ConnectionEnd, string]>([
		[
			"closed-by-editor",
			"pi-ide: disconnected from vscode 5150: the editor closed pi's connection; another client may have taken it; /ide reconnects",
		],
		[
			"connect-failed",
			"pi-ide: disconnected from vscode 5150: pi could not connect to the IDE server (/ide status says why; /ide tries again)",
		],
		["lockfile-removed", "pi-ide: vscode 5150 is gone; disconnected"],
		["ide-server-gone", "pi-ide: vscode 5150 is gone; disconnected"],
		["process-gone", "pi-ide: vscode 5150 is gone; disconnected"],
		["server-closed", "pi-ide: vscode 5150 is gone; disconnected"],
		["emacs-closed", "pi-ide: vscode 5150 is gone; disconnected"],
	])("the notice when a connection ends: %s", (end, notice) => {
		expect(connectionEndNotice("vscode 5150", end)).toBe(notice);
	});

	test("each end has its own words, one line each", () => {
		const words = Object.values(CONNECTION_END_TEXT);
		expect(new Set(words).size).toBe(words.length);
		for (const text of words) expect(text).toMatch(/^\S[^\n]*$/);
	});
});

describe("notice texts", () => {
	const notices = [
		noticeText.notReading("/s has mode 0755; run: chmod 700 /s"),
		noticeText.stoppedReading("gone"),
		noticeText.watcherProblem("watcher failed"),
		noticeText.gone("nvim 12"),
		noticeText.rejectedWrite("nvim 12", "not valid JSON"),
		noticeText.paused,
		noticeText.connected("nvim 12  ~/p"),
		noticeText.editorGone,
		noticeText.unknownArgument("x"),
	];
	test.each(notices)("one line that says it is pi-ide's: %s", (text) => {
		expect(text).toMatch(/^pi-ide: \S/);
		expect(text).not.toContain("\n");
	});

	test("a rejected write's reason comes from the editor's file: its escapes never reach the terminal", () => {
		const text = noticeText.rejectedWrite("nvim 12", "not valid JSON\u001b[2J\u001b]0;owned\u0007");
		expect(text).not.toMatch(/[\u0000-\u001f]/);
		expect(text).toContain("nvim 12");
		expect(text).toContain("not valid JSON");
	});

	test("an unknown argument is quoted cut to 40 characters", () => {
		const text = noticeText.unknownArgument(`${"x".repeat(40)}TAIL`);
		expect(text).toContain(`"${"x".repeat(40)}"`);
		expect(text).not.toContain("TAIL");
	});

	test("why pi connected: the tier and its evidence; /ide and /ide all told apart", () => {
		const auto = connectReason.auto({ tier: 1, evidence: "argv names the project" });
		expect(auto).toContain("tier 1");
		expect(auto).toContain("(argv names the project)");
		expect(connectReason.picked(true)).not.toBe(connectReason.picked(false));
	});
});
