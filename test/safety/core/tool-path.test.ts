import { homedir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, test } from "vitest";
import { resolveToolPath } from "../../../src/safety/core/tool-path.ts";
import { PACKAGE_ROOT } from "../../support/pi-cli.ts";
import { pi1Toolchain } from "../../support/pi1-toolchain.ts";

const CWD = "/home/dev/proj";
const HOME = homedir();

const CASES: [string, string][] = [
	["src/main.ts", `${CWD}/src/main.ts`],
	["./src/../src/main.ts", `${CWD}/src/main.ts`],
	["/abs/file.ts", "/abs/file.ts"],
	["@src/main.ts", `${CWD}/src/main.ts`],
	["@/abs/file.ts", "/abs/file.ts"],
	["~", HOME],
	["~/notes/a.md", `${HOME}/notes/a.md`],
	["src/my\u00A0file.ts", `${CWD}/src/my file.ts`],
	["src/narrow\u202Fspace.ts", `${CWD}/src/narrow space.ts`],
	["../other/x.ts", "/home/dev/other/x.ts"],
	["~user/x", `${CWD}/~user/x`],
];

describe("resolveToolPath: where pi's write/edit tools write for the model's raw path", () => {
	test.each(CASES)("%j -> %s", (raw, expected) => {
		expect(resolveToolPath(raw, CWD, HOME)).toBe(expected);
	});

	test("file:// URLs (pi 1.x) are paths", () => {
		expect(resolveToolPath("file:///etc/hosts", CWD, HOME)).toBe("/etc/hosts");
	});

	const pi1 = pi1Toolchain();
	const agreesWith = async (module: string) => {
		const { resolveToCwd } = (await import(pathToFileURL(module).href)) as {
			resolveToCwd: (path: string, cwd: string) => string;
		};
		for (const [raw] of CASES) expect(resolveToolPath(raw, CWD, HOME), raw).toBe(resolveToCwd(raw, CWD));
	};
	test("agrees with pi 0.73's own resolveToCwd on every case", async () => {
		await agreesWith(join(PACKAGE_ROOT, "node_modules/@mariozechner/pi-coding-agent/dist/core/tools/path-utils.js"));
	});
	test.skipIf(pi1.cli === undefined)(
		"agrees with pi 1.x's own resolveToCwd on every case (needs the pi 1.x toolchain)",
		async () => {
			await agreesWith(join(pi1.cli ?? "", "..", "core/tools/path-utils.js"));
		},
	);
});
