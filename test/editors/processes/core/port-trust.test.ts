import { describe, expect, test } from "vitest";
import {
	checkPortListeners,
	type PortListener,
	type PortTrust,
} from "../../../../src/editors/processes/core/port-trust.ts";

const ME = 1000;

describe("a lockfile's port is spoken to when this user listens on it on loopback, and nobody else", () => {
	const mine = (loopback: boolean): PortListener => ({ loopback, uid: ME });
	test.each<[string, PortListener[], PortTrust]>([
		[
			"nothing listens: a stale lockfile",
			[],
			{ ok: false, reason: "nothing listens on port 40123 (a stale lockfile)" },
		],
		[
			"a stranger's socket",
			[{ loopback: true, uid: 1001 }],
			{ ok: false, reason: "port 40123 is listened on by uid 1001" },
		],
		[
			"two listeners, one a stranger's (a second bind on another address)",
			[mine(true), { loopback: false, uid: 0 }],
			{ ok: false, reason: "port 40123 is listened on by uid 0" },
		],
		[
			"the stranger listed first",
			[{ loopback: true, uid: 1002 }, mine(true)],
			{ ok: false, reason: "port 40123 is listened on by uid 1002" },
		],
		["mine on every address only", [mine(false)], { ok: false, reason: "port 40123 listens on no loopback address" }],
		["mine on loopback", [mine(true)], { ok: true }],
		["mine on 127.0.0.1 and ::1", [mine(true), mine(true)], { ok: true }],
		["mine on loopback and on every address", [mine(false), mine(true)], { ok: true }],
	])("%s", (_name, listeners, verdict) => {
		expect(checkPortListeners(40123, listeners, ME)).toEqual(verdict);
	});
});
