import { describe, expect, test } from "vitest";
import {
	connectionServerUid,
	listeningTcp,
	listeningUnixSockets,
	socketInode,
} from "../../../../src/editors/processes/core/proc-net.ts";

/** `/proc/net/unix` as Linux writes it, with a 0.7 server, a 0.9+ server, a client end and others. */
const TABLE = [
	"Num       RefCount Protocol Flags    Type St Inode Path",
	"00000000d6df70b6: 00000002 00000000 00010000 0001 01 57581 /tmp/nvimBUlDRU/0",
	"0000000012345678: 00000002 00000000 00010000 0001 01 60001 /run/user/1000/nvim.4242.0",
	"00000000aaaaaaaa: 00000003 00000000 00000000 0001 03 60002 /run/user/1000/nvim.4242.0",
	"00000000bbbbbbbb: 00000002 00000000 00010000 0001 01 60003 @/tmp/.X11-unix/X0",
	"00000000cccccccc: 00000002 00000000 00000000 0002 01 60004",
	"00000000dddddddd: 00000002 00000000 00010000 0001 01 60005 /tmp/dir with space/nvim.7.0",
	"garbage line",
	"",
].join("\n");

describe("listening unix sockets from /proc/net/unix", () => {
	const sockets = listeningUnixSockets(TABLE);
	test.each([
		["a 0.7 server (nvimXXXXXX/0)", 57581, "/tmp/nvimBUlDRU/0"],
		["a 0.9+ server (nvim.<pid>.0)", 60001, "/run/user/1000/nvim.4242.0"],
		["a connected end of the same path is not listening", 60002, undefined],
		["an abstract socket has no path to connect to", 60003, undefined],
		["an unnamed socket", 60004, undefined],
		["a path with spaces", 60005, "/tmp/dir with space/nvim.7.0"],
	])("%s", (_name, inode, path) => {
		expect(sockets.get(inode)).toBe(path);
	});
	test("only those", () => expect(sockets.size).toBe(3));
	test("an empty or unreadable table lists nothing", () => expect(listeningUnixSockets("").size).toBe(0));
});

describe("a process's fd link", () => {
	test.each([
		["socket:[57581]", 57581],
		["pipe:[123]", undefined],
		["/tmp/nvimBUlDRU/0", undefined],
		["socket:[x]", undefined],
	])("%s", (link, inode) => expect(socketInode(link)).toBe(inode));
});

/** `/proc/net/tcp` as Linux writes it: listeners on loopback and on every address, a connection, bad rows. */
const TCP = [
	"  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode",
	"   0: 0100007F:9C40 00000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 71001 1 0 100 0 0 10 0",
	"   1: 00000000:0016 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 71002 1 0 100 0 0 10 0",
	"   2: 0100007F:9C41 0100007F:D2F0 01 00000000:00000000 00:00000000 00000000  1000        0 71003 1 0 20 4 30 10 -1",
	"   3: 0101007F:1F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000  1001        0 71004 1 0 100 0 0 10 0",
	"   4: 0100007F:ZZZZ 00000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 71005 1",
	"   5: 0100007F:1F91 00000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 0 1",
	"garbage",
	"",
].join("\n");

/** `/proc/net/tcp6`: ::1, ::, an IPv4-mapped loopback and an IPv4-mapped public address. */
const TCP6 = [
	"  sl  local_address                         remote_address                        st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode",
	"   0: 00000000000000000000000001000000:A000 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 72001 1 0 100 0 0 10 0",
	"   1: 00000000000000000000000000000000:A001 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 72002 1 0 100 0 0 10 0",
	"   2: 0000000000000000FFFF00000100007F:A002 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 72003 1 0 100 0 0 10 0",
	"   3: 0000000000000000FFFF00000A00000A:A003 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 72004 1 0 100 0 0 10 0",
].join("\n");

describe("listening TCP sockets from /proc/net/tcp and tcp6", () => {
	test("IPv4: port, owner, inode; loopback told from every address; connections and bad rows left out", () => {
		expect(listeningTcp(TCP)).toEqual([
			{ port: 40000, loopback: true, uid: 1000, inode: 71001 },
			{ port: 22, loopback: false, uid: 0, inode: 71002 },
			{ port: 8080, loopback: true, uid: 1001, inode: 71004 },
		]);
	});
	test("IPv6: ::1 and ::ffff:127.0.0.1 are loopback, :: and a mapped 10.0.0.10 are not", () => {
		expect(listeningTcp(TCP6).map(({ port, loopback }) => [port, loopback])).toEqual([
			[40960, true],
			[40961, false],
			[40962, true],
			[40963, false],
		]);
	});
	test("an empty or unreadable table lists nothing", () => expect(listeningTcp("")).toEqual([]));
});

describe("whose listener took a loopback connection (/proc/net/tcp, ESTABLISHED)", () => {
	// pi's end 127.0.0.1:51000 -> 127.0.0.1:40123 (uid 0), the server's end (uid 65534), a listener, an outside peer.
	const TABLE = [
		"  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode",
		"   0: 0100007F:9CBB 00000000:0000 0A 00000000:00000000 00:00000000 00000000 65534        0 111 1",
		"   1: 0100007F:C738 0100007F:9CBB 01 00000000:00000000 00:00000000 00000000     0        0 222 1",
		"   2: 0100007F:9CBB 0100007F:C738 01 00000000:00000000 00:00000000 00000000 65534        0 333 1",
		"   3: 0A000001:9CBB 0A000002:C738 01 00000000:00000000 00:00000000 00000000  1000        0 444 1",
	].join("\n");
	const V6 = [
		"  sl  local_address                         remote_address                        st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode",
		"   0: 00000000000000000000000001000000:9CBB 00000000000000000000000001000000:C739 01 00000000:00000000 00:00000000 00000000  1000        0 555 1",
	].join("\n");
	test.each([
		["the server's end of pi's connection", TABLE, 40123, 51000, 65534],
		["no such connection", TABLE, 40123, 51001, undefined],
		["the other way round: pi's end, its uid", TABLE, 51000, 40123, 0],
		["IPv6 loopback", V6, 40123, 51001, 1000],
		["an empty table", "", 40123, 51000, undefined],
	] as const)("%s", (_name, table, serverPort, clientPort, uid) => {
		expect(connectionServerUid(table, serverPort, clientPort)).toBe(uid);
	});
});
