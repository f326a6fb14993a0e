import { describe, expect, test } from "vitest";
import {
	enclosingNeovimAddress,
	isNeovimServerName,
	listeningSockets,
	socketInode,
} from "../../../../src/editors/neovim/core/unix-sockets.ts";

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
	const sockets = listeningSockets(TABLE);
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
	test("an empty or unreadable table lists nothing", () => expect(listeningSockets("").size).toBe(0));
});

describe("a process's fd link", () => {
	test.each([
		["socket:[57581]", 57581],
		["pipe:[123]", undefined],
		["/tmp/nvimBUlDRU/0", undefined],
		["socket:[x]", undefined],
	])("%s", (link, inode) => expect(socketInode(link)).toBe(inode));
});

describe("the Neovim pi runs in, from its environment", () => {
	test.each([
		["$NVIM (0.7+)", { NVIM: "/tmp/nvimX/0" }, "/tmp/nvimX/0"],
		["$NVIM_LISTEN_ADDRESS (older)", { NVIM_LISTEN_ADDRESS: "/tmp/nvimY/0" }, "/tmp/nvimY/0"],
		["$NVIM first", { NVIM: "/a/0", NVIM_LISTEN_ADDRESS: "/b/0" }, "/a/0"],
		["a TCP address is never used", { NVIM: "127.0.0.1:6666" }, undefined],
		["nothing set", {}, undefined],
	])("%s", (_name, env, address) => expect(enclosingNeovimAddress(env)).toBe(address));
});

describe("what Neovim creates for its server, by name", () => {
	test.each([
		["nvimBUlDRU", true],
		["nvim.4242.0", true],
		["nvim.root", true],
		["vim-server", false],
		["pi-ide", false],
	])("%s", (name, expected) => expect(isNeovimServerName(name)).toBe(expected));
});
