import { describe, expect, test } from "vitest";
import { checkDirTrust, checkSocketTrust, type FsFacts } from "../../../src/editors/core/path-trust.ts";

const ME = 1000;
const facts = (overrides: Partial<FsFacts> = {}): FsFacts => ({
	kind: "file",
	uid: ME,
	mode: 0o100600,
	size: 300,
	...overrides,
});
const dir = (overrides: Partial<FsFacts> = {}) => facts({ kind: "directory", mode: 0o40700, ...overrides });

describe("checkDirTrust", () => {
	test.each([
		["0700 dir of mine", dir(), { ok: true }],
		["0755", dir({ mode: 0o40755 }), { ok: false, reason: "/s has mode 0755; run: chmod 700 /s" }],
		["0777", dir({ mode: 0o40777 }), { ok: false, reason: "/s has mode 0777; run: chmod 700 /s" }],
		["0710 (group may traverse)", dir({ mode: 0o40710 }), { ok: false, reason: "/s has mode 0710; run: chmod 700 /s" }],
		[
			"another uid",
			dir({ uid: 65534 }),
			{ ok: false, reason: "/s is owned by uid 65534, not by you (uid 1000); remove it" },
		],
		[
			"a symlink",
			facts({ kind: "symlink" }),
			{ ok: false, reason: "/s is a symlink; remove it and let an editor or pi create a real directory" },
		],
		["a regular file", facts(), { ok: false, reason: "/s is a file, not a directory; remove it" }],
		["missing", facts({ kind: "missing" }), { ok: false, reason: "/s does not exist and could not be created" }],
	])("%s", (_name, input, verdict) => {
		expect(checkDirTrust("/s", input, ME)).toEqual(verdict);
	});
});

describe("checkDirTrust on a Mac's paths: the dir's own lstat decides, whatever its parents are", () => {
	// `/tmp` → `/private/tmp` and `/var` → `/private/var` are the kernel's to follow: lstat of the dir sees the
	// dir. The path is only the message's (symlinked-parent.test.ts reads real dirs laid out so).
	test.each([
		["/tmp/pi-ide", dir(), { ok: true }],
		["/var/folders/40/x7q9m1zs0bl1_hc8f1b7w2w80000gn/T/pi-ide", dir(), { ok: true }],
		[
			"/tmp/pi-ide",
			facts({ kind: "symlink" }),
			{
				ok: false,
				reason: "/tmp/pi-ide is a symlink; remove it and let an editor or pi create a real directory",
			},
		],
		[
			"/tmp/pi-ide",
			dir({ mode: 0o40755 }),
			{ ok: false, reason: "/tmp/pi-ide has mode 0755; run: chmod 700 /tmp/pi-ide" },
		],
	])("%s", (path, input, verdict) => {
		expect(checkDirTrust(path, input, ME)).toEqual(verdict);
	});
});

describe("checkSocketTrust: the VS Code client's channel", () => {
	const socket = (overrides: Partial<FsFacts> = {}) => facts({ kind: "socket", mode: 0o140600, size: 0, ...overrides });
	test.each([
		["0600 socket of mine", socket(), { ok: true }],
		["0700 (the owner's bits are the owner's)", socket({ mode: 0o140700 }), { ok: true }],
		[
			"0666",
			socket({ mode: 0o140666 }),
			{ ok: false, reason: "open to group or others (mode 0666); the client makes it 0600" },
		],
		[
			"0640 (group may read)",
			socket({ mode: 0o140640 }),
			{ ok: false, reason: "open to group or others (mode 0640); the client makes it 0600" },
		],
		["another uid", socket({ uid: 65534 }), { ok: false, reason: "owned by uid 65534, not by you (uid 1000)" }],
		["a symlink", facts({ kind: "symlink" }), { ok: false, reason: "a symlink, not a socket" }],
		["a regular file", facts(), { ok: false, reason: "a file, not a socket" }],
		["a fifo", facts({ kind: "fifo" }), { ok: false, reason: "a fifo, not a socket" }],
		["missing", facts({ kind: "missing" }), { ok: false, reason: "no socket" }],
	])("%s", (_name, input, verdict) => {
		expect(checkSocketTrust(input, ME)).toEqual(verdict);
	});
});
