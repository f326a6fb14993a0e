import { describe, expect, test } from "vitest";
import type { FsFacts } from "../../../../src/editors/core/path-trust.ts";
import {
	chooseServerSocket,
	dirOf,
	type SocketFacts,
	serverSocketDirs,
} from "../../../../src/editors/emacs/core/server-sockets.ts";

const UID = 1000;
const DIR: FsFacts = { kind: "directory", uid: UID, mode: 0o40700, size: 0 };
const SOCKET: FsFacts = { kind: "socket", uid: UID, mode: 0o140700, size: 0 };

const facts = (path: string, change: Partial<SocketFacts> = {}): SocketFacts => ({
	path,
	socket: SOCKET,
	dir: DIR,
	heldTwice: false,
	...change,
});

describe("whether pi may speak to a listening socket of an Emacs", () => {
	test.each<[string, Partial<SocketFacts>, string | undefined]>([
		["Emacs's own: a socket of this uid in a 0700 dir of this uid", {}, undefined],
		["a socket whose mode has group bits (the dir guards it)", { socket: { ...SOCKET, mode: 0o140755 } }, undefined],
		["held twice", { heldTwice: true }, "another listening socket was bound to the same path"],
		["its dir open to the group", { dir: { ...DIR, mode: 0o40750 } }, "/run/user/1000/emacs has mode 0750"],
		["its dir of another uid", { dir: { ...DIR, uid: 0 } }, "/run/user/1000/emacs is owned by uid 0"],
		["its dir a symlink", { dir: { ...DIR, kind: "symlink" } }, "/run/user/1000/emacs is a symlink"],
		["its dir gone", { dir: { ...DIR, kind: "missing" } }, "/run/user/1000/emacs does not exist"],
		["its file gone (unlinked)", { socket: { ...SOCKET, kind: "missing" } }, "its socket file is gone"],
		["a symlink at the path", { socket: { ...SOCKET, kind: "symlink" } }, "a symlink, not a socket"],
		["a file at the path", { socket: { ...SOCKET, kind: "file" } }, "a file, not a socket"],
		[
			"a socket of another uid",
			{ socket: { ...SOCKET, uid: 0 } },
			"the socket is owned by uid 0, not by you (uid 1000)",
		],
	])("%s", (_name, change, reason) => {
		const choice = chooseServerSocket([facts("/run/user/1000/emacs/server", change)], UID);
		if (reason === undefined) expect(choice).toEqual({ socket: "/run/user/1000/emacs/server", refused: [] });
		else {
			expect(choice.socket).toBeUndefined();
			expect(choice.refused).toHaveLength(1);
			expect(choice.refused[0]?.reason).toContain(reason);
		}
	});

	test("no listening socket: no server, nothing refused", () => {
		expect(chooseServerSocket([], UID)).toEqual({ refused: [] });
	});

	test.each<[string, string[], string]>([
		[
			"a dir Emacs names goes first",
			["/home/u/my-server", "/run/user/1000/emacs/server"],
			"/run/user/1000/emacs/server",
		],
		["the /tmp fallback's name (emacs<uid>)", ["/home/u/a", "/tmp/emacs1000/server"], "/tmp/emacs1000/server"],
		["then by path", ["/run/user/1000/emacs/work", "/run/user/1000/emacs/server"], "/run/user/1000/emacs/server"],
		["an absolute server-name alone is used", ["/home/u/sockets/main"], "/home/u/sockets/main"],
	])("which: %s", (_name, paths, chosen) => {
		expect(
			chooseServerSocket(
				paths.map((path) => facts(path)),
				UID,
			).socket,
		).toBe(chosen);
	});

	test("a refused socket is listed while a usable one is chosen", () => {
		const choice = chooseServerSocket(
			[facts("/run/user/1000/emacs/server", { heldTwice: true }), facts("/home/u/sockets/other")],
			UID,
		);
		expect(choice.socket).toBe("/home/u/sockets/other");
		expect(choice.refused.map((entry) => entry.path)).toEqual(["/run/user/1000/emacs/server"]);
	});
});

describe("a socket's dir", () => {
	test.each([
		["/run/user/1000/emacs/server", "/run/user/1000/emacs"],
		["/server", "/"],
		["server", "/"],
	])("%s → %s", (path, dir) => expect(dirOf(path)).toBe(dir));
});

describe("the dirs an Emacs's server socket appears in", () => {
	const MAC_TMPDIR = "/var/folders/40/x7q9m1zs0bl1_hc8f1b7w2w80000gn/T/";
	const MAC_T = "/var/folders/40/x7q9m1zs0bl1_hc8f1b7w2w80000gn/T";
	test.each<[string, { XDG_RUNTIME_DIR?: string; TMPDIR?: string }, string, string[]]>([
		[
			"XDG_RUNTIME_DIR and the /tmp fallback",
			{ XDG_RUNTIME_DIR: "/run/user/1000" },
			"linux",
			["/run/user/1000/emacs", "/tmp/emacs1000"],
		],
		["TMPDIR instead of /tmp", { TMPDIR: "/var/tmp/" }, "linux", ["/var/tmp/emacs1000"]],
		["both", { XDG_RUNTIME_DIR: "/run/user/1000/", TMPDIR: "/t" }, "linux", ["/run/user/1000/emacs", "/t/emacs1000"]],
		["a relative value is no dir", { XDG_RUNTIME_DIR: "run", TMPDIR: "tmp" }, "linux", ["/tmp/emacs1000"]],
		["nothing set", {}, "linux", ["/tmp/emacs1000"]],
		["TMPDIR of / alone", { TMPDIR: "/" }, "linux", ["/emacs1000"]],
		// A Mac: $TMPDIR/emacs<uid> for an Emacs of the user's session, /tmp/emacs<uid> for a launchd daemon.
		["a Mac", { TMPDIR: MAC_TMPDIR }, "darwin", [`${MAC_T}/emacs501`, "/tmp/emacs501"]],
		[
			"a Mac with XDG_RUNTIME_DIR set by hand",
			{ XDG_RUNTIME_DIR: "/Users/andy/.run", TMPDIR: MAC_TMPDIR },
			"darwin",
			["/Users/andy/.run/emacs", `${MAC_T}/emacs501`, "/tmp/emacs501"],
		],
		["a Mac without TMPDIR: /tmp once", {}, "darwin", ["/tmp/emacs501"]],
		[
			"a double slash inside TMPDIR is one",
			{ TMPDIR: "/var/folders/40/x//T//" },
			"darwin",
			["/var/folders/40/x/T/emacs501", "/tmp/emacs501"],
		],
	])("%s", (_name, env, platform, dirs) => {
		const uid = platform === "darwin" ? 501 : 1000;
		expect(serverSocketDirs(env, uid, platform)).toEqual(dirs);
	});
});
