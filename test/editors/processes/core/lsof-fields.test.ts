import { describe, expect, test } from "vitest";
import {
	acceptedConnectionUid,
	isLoopbackAddress,
	listeningUnixPaths,
	lsofRevision,
	nameOfDescriptor,
	parseLsofFields,
	tcpEnd,
	unixSocketPath,
} from "../../../../src/editors/processes/core/lsof-fields.ts";
import { LINUX, MAC } from "./lsof-outputs.ts";

const only = (text: string) => {
	const [process, ...others] = parseLsofFields(text);
	expect(others).toEqual([]);
	return process;
};

describe("lsof -F read by letter, whatever fields come", () => {
	test("Linux 4.95: each file its descriptor, name and state", () => {
		expect(parseLsofFields(LINUX.nvimListener)).toEqual([
			{ pid: 19998, files: [{ descriptor: "15", name: "/tmp/x.sock type=STREAM", state: "LISTEN" }] },
		]);
	});

	test("Linux 4.95 asked for no `f`: each name a file of its own, with no descriptor", () => {
		const files = only(LINUX.nodeSocketsNoFd)?.files;
		expect(files?.map((file) => [file.descriptor, file.name.slice(0, 14)])).toEqual([
			["", "/tmp/y.sock ty"],
			["", "type=STREAM"],
			["", "@pi-abstract@@"],
			["", "/tmp/y.sock ty"],
		]);
	});

	test("a uid, and the processes of one answer apart", () => {
		expect(parseLsofFields(MAC.connection)).toEqual([
			{ pid: 777, uid: 501, files: [{ descriptor: "23", name: "127.0.0.1:52001->127.0.0.1:8765" }] },
			{ pid: 8200, uid: 502, files: [{ descriptor: "44", name: "127.0.0.1:8765->127.0.0.1:52001" }] },
		]);
	});

	test("macOS 4.91: `f` comes though not asked for, no state for a unix socket", () => {
		expect(only(MAC.listenerNoFdAsked)).toEqual({ pid: 8200, uid: 501, files: [{ descriptor: "43", name: "*:8766" }] });
		expect(only(MAC.nvimSockets)?.files.every((file) => file.state === undefined)).toBe(true);
	});

	test.each([
		["nothing", "", []],
		["a blank line and fields of no kind read", "\nc nvim\nt unix\nk 3\n", []],
		["fields before any process", "u501\nf3\nn/tmp/a.sock\nTST=LISTEN", []],
		[
			"a state before any file",
			"p5\nTST=LISTEN\nf3\nn/tmp/a.sock",
			[{ pid: 5, files: [{ descriptor: "3", name: "/tmp/a.sock" }] }],
		],
		["a uid that is no number", "p5\nu alice", [{ pid: 5, files: [] }]],
		[
			"T fields other than the state",
			"p5\nf3\nn*:80\nTST=LISTEN\nTQR=0\nTQS=0",
			[{ pid: 5, files: [{ descriptor: "3", name: "*:80", state: "LISTEN" }] }],
		],
	])("%s", (_case, text, processes) => {
		expect(parseLsofFields(text)).toEqual(processes);
	});

	test("a pid of another shape keeps no process, and its files go to no other", () => {
		const text = ["p5", "f3", "n/tmp/mine.sock", "pxyz", "f4", "n/tmp/theirs.sock", "p-1", "f5", "n/tmp/x.sock"].join(
			"\n",
		);
		expect(parseLsofFields(text)).toEqual([{ pid: 5, files: [{ descriptor: "3", name: "/tmp/mine.sock" }] }]);
	});
});

describe("a unix socket's name → its path", () => {
	test.each([
		["Linux: bound", "/tmp/x.sock type=STREAM", "/tmp/x.sock"],
		["Linux: a datagram socket", "/run/user/1000/bus type=DGRAM", "/run/user/1000/bus"],
		["Linux: a path with spaces", "/tmp/a b/x.sock type=SEQPACKET", "/tmp/a b/x.sock"],
		["Linux: unbound", "type=STREAM", undefined],
		["Linux: abstract", `@pi-abstract${"@".repeat(96)} type=STREAM`, undefined],
		["macOS: bound", MAC.nvimSocket, MAC.nvimSocket],
		["macOS: /tmp as bound, not resolved", "/tmp/emacs501/server", "/tmp/emacs501/server"],
		["macOS: unbound, connected", "->0x5e2f1b7c9a0d4e61", undefined],
		["macOS: unbound, unconnected", "->(none)", undefined],
		["macOS: no address", "no address", undefined],
		["empty", "", undefined],
	])("%s", (_case, name, path) => {
		expect(unixSocketPath(name)).toBe(path);
	});
});

describe("the unix socket paths a process listens on", () => {
	test.each([
		[
			"Linux: the LISTEN ones, not the accepted connection of the same path nor the unbound",
			LINUX.nodeSockets,
			["/tmp/y.sock"],
		],
		["Linux: Neovim's --listen socket", LINUX.nvimListener, ["/tmp/x.sock"]],
		["Linux without T: every bound path counts, once (why pi asks -FpfnT)", LINUX.nodeSocketsNoFd, ["/tmp/y.sock"]],
		["macOS: no state, the listener and what it accepted are one path", MAC.nvimSockets, [MAC.nvimSocket]],
	])("%s", (_case, text, paths) => {
		expect(listeningUnixPaths(only(text) ?? { pid: 0, files: [] })).toEqual(paths);
	});

	test("macOS: several processes, each its own paths, sorted; `no address` is none", () => {
		const [emacs, nvim] = parseLsofFields(MAC.twoProcesses);
		expect(emacs && listeningUnixPaths(emacs)).toEqual([MAC.emacsSocket]);
		expect(nvim && listeningUnixPaths(nvim)).toEqual([MAC.nvimSocket]);
		const files = ["/tmp/b", "/tmp/a", "/tmp/b"].map((name, fd) => ({ descriptor: String(fd), name }));
		expect(listeningUnixPaths({ pid: 1, files })).toEqual(["/tmp/a", "/tmp/b"]);
	});

	test("Linux: a socket in another state (a listener being closed) is not listening", () => {
		const files = [{ descriptor: "3", name: "/tmp/a.sock type=STREAM", state: "UNCONNECTED" }];
		expect(listeningUnixPaths({ pid: 1, files })).toEqual([]);
	});
});

describe("a TCP name → its local end", () => {
	test.each([
		["IPv4 loopback", "127.0.0.1:36361", { address: "127.0.0.1", port: 36361 }],
		["IPv6 loopback in brackets", "[::1]:46003", { address: "::1", port: 46003 }],
		["every address", "*:41423", { address: "*", port: 41423 }],
		["a connection: its local end", "127.0.0.1:46534->127.0.0.1:36361", { address: "127.0.0.1", port: 46534 }],
		["an IPv6 connection", "[::1]:8765->[::1]:52001", { address: "::1", port: 8765 }],
		["a zone", "[fe80::1%lo0]:8765", { address: "fe80::1%lo0", port: 8765 }],
		["a service name (lsof without -P)", "127.0.0.1:http", undefined],
		["no port", "[::1]", undefined],
		["a unix socket's name", "/tmp/x.sock type=STREAM", undefined],
		["nothing", "", undefined],
	])("%s", (_case, name, end) => {
		expect(tcpEnd(name)).toEqual(end);
	});

	test.each([
		["Linux: 127.0.0.1", LINUX.listenerLoopback, [{ address: "127.0.0.1", port: 36361 }]],
		["Linux: ::1", LINUX.listenerIpv6Loopback, [{ address: "::1", port: 46003 }]],
		["Linux: every address", LINUX.listenerAnyAddress, [{ address: "*", port: 41423 }]],
		["Linux: 0.0.0.0 shows as *", LINUX.listenerZeroes, [{ address: "*", port: 38799 }]],
		[
			"macOS: localhost, both families",
			MAC.listenerLocalhost,
			[
				{ address: "127.0.0.1", port: 8765 },
				{ address: "::1", port: 8765 },
			],
		],
	])("a listener, %s", (_case, text, ends) => {
		expect(only(text)?.files.map((file) => tcpEnd(file.name))).toEqual(ends);
	});
});

describe("a loopback address: this machine only", () => {
	test.each([
		["127.0.0.1", true],
		["127.1.2.3", true],
		["127.255.255.254", true],
		["::1", true],
		["::ffff:127.0.0.1", true],
		["::FFFF:127.0.0.1", true],
		["*", false],
		["0.0.0.0", false],
		["::", false],
		["10.0.0.1", false],
		["128.0.0.1", false],
		["1127.0.0.1", false],
		["::ffff:10.0.0.1", false],
		["::2", false],
		["fe80::1", false],
		["localhost", false],
		["", false],
	])("%s: %s", (address, loopback) => {
		expect(isLoopbackAddress(address)).toBe(loopback);
	});
});

describe("the uid behind the server end of pi's loopback connection", () => {
	test.each([
		["Linux: both ends in one process", LINUX.connectionWithin, 36361, 46534, 0],
		["Linux: an IPv6 listener's accepted end, printed as IPv4", LINUX.connectionAccepted, 41423, 45770, 0],
		["macOS: the server's, not pi's own end", MAC.connection, 8765, 52001, 502],
		["another server port", MAC.connection, 8766, 52001, undefined],
		["a listener only: nothing accepted yet", MAC.listenerLocalhost, 8765, 52001, undefined],
		["nothing", "", 8765, 52001, undefined],
	])("%s", (_case, text, serverPort, clientPort, uid) => {
		expect(acceptedConnectionUid(parseLsofFields(text), serverPort, clientPort)).toBe(uid);
	});

	test("a peer that is not loopback is not pi's connection", () => {
		const text = ["p8200", "u502", "f44", "n10.0.0.5:8765->10.0.0.9:52001"].join("\n");
		expect(acceptedConnectionUid(parseLsofFields(text), 8765, 52001)).toBeUndefined();
	});
});

describe("a process's binary and working dir", () => {
	test.each([
		["Linux: Neovim", LINUX.nvimTxtCwd, "/usr/bin/nvim", "/tmp"],
		["Linux: a binary removed while it runs", LINUX.deletedTxt, "/tmp/pst/gone-sleep (deleted)", "/tmp"],
		[
			"macOS: the executable comes first among the mapped files",
			MAC.emacsTxtCwd,
			"/Applications/Emacs.app/Contents/MacOS/Emacs-arm64-11",
			"/Users/alice/project",
		],
		["macOS: what darwin may not read is a reason, not a path", MAC.unreadableTxtCwd, undefined, undefined],
	])("%s", (_case, text, executable, cwd) => {
		const process = only(text);
		expect(nameOfDescriptor(process, "txt")).toBe(executable);
		expect(nameOfDescriptor(process, "cwd")).toBe(cwd);
	});

	test("no process, or none of that descriptor", () => {
		expect(nameOfDescriptor(undefined, "cwd")).toBeUndefined();
		expect(nameOfDescriptor(only(LINUX.nvimListener), "cwd")).toBeUndefined();
	});
});

describe("lsof -v's revision", () => {
	test.each([
		["Linux 4.95 (stderr, copied)", LINUX.version, "4.95.0"],
		["macOS 4.91 (the 4.92 tree's usage.c)", MAC.version, "4.91"],
		["a newer one", "lsof version information:\n    revision: 4.99.3\n", "4.99.3"],
		[
			"a usage text whose only revision is a URL",
			"lsof 4.91\n latest revision: ftp://lsof.itap.purdue.edu/",
			undefined,
		],
		["nothing", "", undefined],
	])("%s", (_case, text, revision) => {
		expect(lsofRevision(text)).toBe(revision);
	});
});
