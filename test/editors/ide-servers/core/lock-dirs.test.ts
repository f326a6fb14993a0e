import { describe, expect, test } from "vitest";
import {
	authHeaders,
	type LockDirEnv,
	type LockDirKind,
	type LockDirPlan,
	lockDirPlan,
} from "../../../../src/editors/ide-servers/core/lock-dirs.ts";

const HOME = "/home/dev";
const claudeHome: LockDirPlan = { path: "/home/dev/.claude/ide", kind: "claude", why: "~/.claude/ide" };
const piHome: LockDirPlan = { path: "/home/dev/.pi/ide", kind: "pi", why: "~/.pi/ide" };

describe("lockDirPlan: both Claude dirs (writers mostly ignore $CLAUDE_CONFIG_DIR) and pi-ide's", () => {
	test.each<[string, LockDirEnv, LockDirPlan[]]>([
		["nothing set", {}, [claudeHome, piHome]],
		[
			"$CLAUDE_CONFIG_DIR: its ide dir first, ~/.claude/ide still read",
			{ CLAUDE_CONFIG_DIR: "/cfg/claude" },
			[{ path: "/cfg/claude/ide", kind: "claude", why: "$CLAUDE_CONFIG_DIR/ide" }, claudeHome, piHome],
		],
		["a relative $CLAUDE_CONFIG_DIR is ignored", { CLAUDE_CONFIG_DIR: "cfg/claude" }, [claudeHome, piHome]],
		["an empty $CLAUDE_CONFIG_DIR is ignored", { CLAUDE_CONFIG_DIR: "" }, [claudeHome, piHome]],
		[
			"$CLAUDE_CONFIG_DIR naming ~/.claude: one entry, by the variable",
			{ CLAUDE_CONFIG_DIR: "/home/dev/.claude" },
			[{ path: "/home/dev/.claude/ide", kind: "claude", why: "$CLAUDE_CONFIG_DIR/ide" }, piHome],
		],
		[
			"$CLAUDE_CONFIG_DIR with a trailing slash collapses too",
			{ CLAUDE_CONFIG_DIR: "/home/dev/.claude/" },
			[{ path: "/home/dev/.claude/ide", kind: "claude", why: "$CLAUDE_CONFIG_DIR/ide" }, piHome],
		],
		[
			"$PI_IDE_LOCK_DIR replaces ~/.pi/ide",
			{ PI_IDE_LOCK_DIR: "/run/pi-ide" },
			[claudeHome, { path: "/run/pi-ide", kind: "pi", why: "$PI_IDE_LOCK_DIR" }],
		],
		["a relative $PI_IDE_LOCK_DIR is ignored", { PI_IDE_LOCK_DIR: "pi-ide" }, [claudeHome, piHome]],
		[
			"$PI_IDE_LOCK_DIR naming a Claude dir: read once, as Claude's",
			{ PI_IDE_LOCK_DIR: "/home/dev/.claude/ide" },
			[claudeHome],
		],
		[
			"both set",
			{ CLAUDE_CONFIG_DIR: "/cfg", PI_IDE_LOCK_DIR: "/locks" },
			[
				{ path: "/cfg/ide", kind: "claude", why: "$CLAUDE_CONFIG_DIR/ide" },
				claudeHome,
				{ path: "/locks", kind: "pi", why: "$PI_IDE_LOCK_DIR" },
			],
		],
	])("%s", (_name, env, plans) => {
		expect(lockDirPlan(env, HOME)).toEqual(plans);
	});
});

describe("authHeaders: Claude Code's header always; pi-ide's too in its own dir", () => {
	test.each<[LockDirKind, string | undefined, Record<string, string>]>([
		["claude", "tok-1", { "x-claude-code-ide-authorization": "tok-1" }],
		["pi", "tok-2", { "x-claude-code-ide-authorization": "tok-2", "x-pi-ide-authorization": "tok-2" }],
		["claude", undefined, {}],
		["pi", undefined, {}],
	])("%s, token %s", (kind, token, headers) => {
		expect(authHeaders(kind, token)).toEqual(headers);
	});
});
