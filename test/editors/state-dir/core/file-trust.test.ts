import { describe, expect, test } from "vitest";
import type { FsFacts } from "../../../../src/editors/core/path-trust.ts";
import { checkFileTrust, MAX_STATE_FILE_BYTES } from "../../../../src/editors/state-dir/core/file-trust.ts";

const ME = 1000;
const facts = (overrides: Partial<FsFacts> = {}): FsFacts => ({
	kind: "file",
	uid: ME,
	mode: 0o100600,
	size: 300,
	...overrides,
});

describe("checkFileTrust", () => {
	test.each([
		["0600 file of mine", facts(), { ok: true }],
		["0644 file of mine", facts({ mode: 0o100644 }), { ok: true }],
		["exactly the size cap", facts({ size: MAX_STATE_FILE_BYTES }), { ok: true }],
		[
			"one byte over the cap",
			facts({ size: MAX_STATE_FILE_BYTES + 1 }),
			{ ok: false, reason: `${MAX_STATE_FILE_BYTES + 1} bytes, over the 16777216-byte limit for a state file` },
		],
		[
			"group-writable",
			facts({ mode: 0o100660 }),
			{ ok: false, reason: "writable by group or others (mode 0660); chmod 600 it" },
		],
		[
			"world-writable",
			facts({ mode: 0o100666 }),
			{ ok: false, reason: "writable by group or others (mode 0666); chmod 600 it" },
		],
		["another uid", facts({ uid: 65534 }), { ok: false, reason: "owned by uid 65534, not by you (uid 1000)" }],
		["a symlink", facts({ kind: "symlink" }), { ok: false, reason: "a symlink, not a regular file" }],
		["a FIFO", facts({ kind: "fifo" }), { ok: false, reason: "a fifo, not a regular file" }],
		["a socket", facts({ kind: "socket" }), { ok: false, reason: "a socket, not a regular file" }],
		["a directory", facts({ kind: "directory" }), { ok: false, reason: "a directory, not a regular file" }],
		["vanished", facts({ kind: "missing" }), { ok: false, reason: "file vanished" }],
	])("%s", (_name, input, verdict) => {
		expect(checkFileTrust(input, ME)).toEqual(verdict);
	});
});
