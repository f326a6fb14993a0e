import { describe, expect, test } from "vitest";
import {
	enclosingNeovimAddress,
	isNeovimServerName,
	isRuntimeDirNews,
	neovimRuntimeDirs,
	neovimUserDirName,
	type RuntimeDirEnv,
} from "../../../../src/editors/neovim/core/runtime-dirs.ts";

/** `<holds> <dir>`, as the table reads best. */
const dirsOf = (env: RuntimeDirEnv, platform: string, user = "andy") =>
	neovimRuntimeDirs(env, platform, user).map(({ dir, holds }) => `${holds} ${dir}`);

const MAC_TMPDIR = "/var/folders/40/x7q9m1zs0bl1_hc8f1b7w2w80000gn/T/";
const MAC_T = "/var/folders/40/x7q9m1zs0bl1_hc8f1b7w2w80000gn/T";

describe("where a Neovim's server appears", () => {
	test.each<[string, RuntimeDirEnv, string, string[]]>([
		[
			"Linux with XDG_RUNTIME_DIR: the sockets there, /tmp and its nvim.<user> for older Neovims and ssh logins",
			{ XDG_RUNTIME_DIR: "/run/user/1000" },
			"linux",
			["servers /run/user/1000", "servers /tmp", "neovim-dirs /tmp/nvim.andy"],
		],
		[
			"Linux without XDG_RUNTIME_DIR: Neovim 0.8+ makes /tmp/nvim.<user>/XXXXXX per Neovim",
			{},
			"linux",
			["servers /tmp", "neovim-dirs /tmp/nvim.andy"],
		],
		[
			"Linux with TMPDIR: that root only, as before",
			{ TMPDIR: "/home/andy/tmp/" },
			"linux",
			["servers /home/andy/tmp", "neovim-dirs /home/andy/tmp/nvim.andy"],
		],
		[
			"a Mac: $TMPDIR (its trailing slash dropped) and its nvim.<user>; /tmp for a Neovim launchd started",
			{ TMPDIR: MAC_TMPDIR },
			"darwin",
			[`servers ${MAC_T}`, `neovim-dirs ${MAC_T}/nvim.andy`, "servers /tmp", "neovim-dirs /tmp/nvim.andy"],
		],
		[
			"a Mac with XDG_RUNTIME_DIR set by hand: that dir too (Neovim uses it even when it does not exist)",
			{ XDG_RUNTIME_DIR: "/Users/andy/.run", TMPDIR: MAC_TMPDIR },
			"darwin",
			[
				"servers /Users/andy/.run",
				`servers ${MAC_T}`,
				`neovim-dirs ${MAC_T}/nvim.andy`,
				"servers /tmp",
				"neovim-dirs /tmp/nvim.andy",
			],
		],
		["a Mac without TMPDIR: /tmp once", {}, "darwin", ["servers /tmp", "neovim-dirs /tmp/nvim.andy"]],
		[
			"a double slash in TMPDIR is one dir",
			{ TMPDIR: "/var/folders/40/x//T//" },
			"darwin",
			[
				"servers /var/folders/40/x/T",
				"neovim-dirs /var/folders/40/x/T/nvim.andy",
				"servers /tmp",
				"neovim-dirs /tmp/nvim.andy",
			],
		],
		[
			"relative or empty values are not used (they would follow pi's cwd)",
			{ XDG_RUNTIME_DIR: "run", TMPDIR: "" },
			"linux",
			["servers /tmp", "neovim-dirs /tmp/nvim.andy"],
		],
		["Windows: named pipes, no dir to watch", { TMPDIR: "C:\\Temp" }, "win32", []],
	])("%s", (_name, env, platform, expected) => expect(dirsOf(env, platform)).toEqual(expected));
});

describe("the nvim.<user> dir's name, as vim_mktempdir makes it", () => {
	test.each([
		["andy", "nvim.andy"],
		["DOMAIN\\andy", "nvim.DOMAIN_andy"],
		["a/b", "nvim.a_b"],
		["501", "nvim.501"],
		// Read into 40 bytes: 39 of the name survive.
		["x".repeat(45), `nvim.${"x".repeat(39)}`],
		["é".repeat(25), `nvim.${"é".repeat(19)}`],
	])("%s → %s", (user, name) => expect(neovimUserDirName(user)).toBe(name));
});

describe("which entries of a watched dir are news", () => {
	test.each<[string, "servers" | "neovim-dirs", string, boolean]>([
		["a random dir in nvim.<user> (one Neovim's temp dir)", "neovim-dirs", "aB3xYz", true],
		["anything in nvim.<user>", "neovim-dirs", "whatever", true],
		["a 0.7 temp dir in $TMPDIR", "servers", "nvimegTUh6", true],
		["nvim.<user> made in $TMPDIR", "servers", "nvim.andy", true],
		["a socket in $XDG_RUNTIME_DIR", "servers", "nvim.4242.0", true],
		["a socket of an NVIM_APPNAME", "servers", "lazyvim.4242.1", true],
		["another program's entry in $TMPDIR", "servers", "com.apple.launchd.abc", false],
		["pi's state dir in /tmp", "servers", "pi-ide", false],
	])("%s: %s", (_name, holds, entry, expected) => expect(isRuntimeDirNews(holds, entry)).toBe(expected));
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
