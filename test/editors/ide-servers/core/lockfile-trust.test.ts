import { describe, expect, test } from "vitest";
import type { FsFacts } from "../../../../src/editors/core/path-trust.ts";
import { MAX_LOCKFILE_BYTES } from "../../../../src/editors/ide-servers/core/lockfile.ts";
import {
	checkLockDirTrust,
	checkLockfileTrust,
	type LockTrust,
} from "../../../../src/editors/ide-servers/core/lockfile-trust.ts";

const ME = 1000;
const DIR = "/home/dev/.claude/ide";
const dir = (facts: Partial<FsFacts> = {}): FsFacts => ({
	kind: "directory",
	uid: ME,
	mode: 0o40755,
	size: 4096,
	...facts,
});
const file = (facts: Partial<FsFacts> = {}): FsFacts => ({
	kind: "file",
	uid: ME,
	mode: 0o100644,
	size: 180,
	...facts,
});

describe("a lock dir is read when nobody else can put a lockfile in it", () => {
	test.each<[string, FsFacts, LockTrust]>([
		["missing", { kind: "missing", uid: -1, mode: 0, size: 0 }, { ok: false, reason: "not there (yet)" }],
		["a symlink", dir({ kind: "symlink", mode: 0o120777 }), { ok: false, reason: `${DIR} is a symlink: not read` }],
		["a file", dir({ kind: "file", mode: 0o100644 }), { ok: false, reason: `${DIR} is a file, not a directory` }],
		["a fifo", dir({ kind: "fifo" }), { ok: false, reason: `${DIR} is a fifo, not a directory` }],
		["another uid's", dir({ uid: 0 }), { ok: false, reason: "owned by uid 0, not by you (uid 1000)" }],
		[
			"0775: group-writable",
			dir({ mode: 0o40775 }),
			{ ok: false, reason: `writable by group or others (mode 0775); run: chmod 755 ${DIR}` },
		],
		[
			"0757: others-writable",
			dir({ mode: 0o40757 }),
			{ ok: false, reason: `writable by group or others (mode 0757); run: chmod 755 ${DIR}` },
		],
		[
			"1777 (sticky, like /tmp): writable all the same",
			dir({ mode: 0o41777 }),
			{ ok: false, reason: `writable by group or others (mode 0777); run: chmod 755 ${DIR}` },
		],
		["0755 as Anthropic's extension makes it", dir({ mode: 0o40755 }), { ok: true }],
		["0700 as claudecode.nvim makes it", dir({ mode: 0o40700 }), { ok: true }],
		["0555 read-only", dir({ mode: 0o40555 }), { ok: true }],
	])("%s", (_name, facts, verdict) => {
		expect(checkLockDirTrust(DIR, facts, ME)).toEqual(verdict);
	});
});

describe("a lockfile is this user's regular file nobody else may change, small enough to be one", () => {
	test.each<[string, FsFacts, LockTrust]>([
		["removed", { kind: "missing", uid: -1, mode: 0, size: 0 }, { ok: false, reason: "removed" }],
		["a symlink", file({ kind: "symlink", mode: 0o120777 }), { ok: false, reason: "a symlink, not a regular file" }],
		["a fifo", file({ kind: "fifo", mode: 0o10644 }), { ok: false, reason: "a fifo, not a regular file" }],
		[
			"a directory",
			file({ kind: "directory", mode: 0o40755 }),
			{ ok: false, reason: "a directory, not a regular file" },
		],
		["a device", file({ kind: "device" }), { ok: false, reason: "a device, not a regular file" }],
		["another uid's", file({ uid: 1001 }), { ok: false, reason: "owned by uid 1001, not by you (uid 1000)" }],
		["0664", file({ mode: 0o100664 }), { ok: false, reason: "writable by group or others (mode 0664)" }],
		["0646", file({ mode: 0o100646 }), { ok: false, reason: "writable by group or others (mode 0646)" }],
		["0644 as VS Code and monet write it", file({ mode: 0o100644 }), { ok: true }],
		["0600 as claudecode.nvim writes it", file({ mode: 0o100600 }), { ok: true }],
		["exactly 64 KiB", file({ size: MAX_LOCKFILE_BYTES }), { ok: true }],
		[
			"over 64 KiB",
			file({ size: MAX_LOCKFILE_BYTES + 1 }),
			{ ok: false, reason: "65537 bytes, over the 65536-byte limit for a lockfile" },
		],
		["empty (a write under way): read, and the parse decides", file({ size: 0 }), { ok: true }],
	])("%s", (_name, facts, verdict) => {
		expect(checkLockfileTrust(facts, ME)).toEqual(verdict);
	});
});
