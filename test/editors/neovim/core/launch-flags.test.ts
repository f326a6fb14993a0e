import { describe, expect, test } from "vitest";
import { neovimOpenedArgs } from "../../../../src/editors/neovim/core/launch-flags.ts";

describe("the launch args that name what Neovim was opened on", () => {
	test.each([
		[["nvim"], []],
		[["nvim", "--clean", "src/main.ts"], ["src/main.ts"]],
		[["nvim", "-u", "NONE", "--listen", "/tmp/s", "."], ["."]],
		[
			["nvim", "+10", "-c", "set nu", "a.ts", "b.ts"],
			["a.ts", "b.ts"],
		],
		[["nvim", "--", "-weird-name"], ["-weird-name"]],
		[["nvim", "--embed"], []],
	])("%j", (argv, opened) => expect(neovimOpenedArgs(argv)).toEqual(opened));
});
