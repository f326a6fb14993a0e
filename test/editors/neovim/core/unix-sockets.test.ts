import { describe, expect, test } from "vitest";
import { enclosingNeovimAddress, isNeovimServerName } from "../../../../src/editors/neovim/core/unix-sockets.ts";

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
		["nvim.aB3xYz", true],
		// `<appname>.<pid>.<n>`: `$NVIM_APPNAME` names the socket (0.9+), its slashes made `-`.
		["lazyvim.4242.0", true],
		["my-config.4242.12", true],
		["astro.nvim.4242.0", true],
		["lazyvim.4242", false],
		["lazyvim.x.0", false],
		["vim-server", false],
		["pi-ide", false],
		["com.apple.launchd.Xz9Q", false],
	])("%s", (name, expected) => expect(isNeovimServerName(name)).toBe(expected));
});
