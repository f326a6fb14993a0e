import { execFileSync } from "node:child_process";
import { readFileSync, statSync } from "node:fs";
import { builtinModules } from "node:module";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { PACKAGE_ROOT } from "../../support/pi-cli.ts";
import { tempDir } from "../../support/temp-dir.ts";

/** `npm run build:vscode` (what `npm pack` runs): one bundle with no dependencies, a small .vsix. */
describe("the VS Code client's build", () => {
	const scope: (() => void)[] = [];
	afterEach(() => {
		for (const cleanup of scope.splice(0)) cleanup();
	});
	const client = join(PACKAGE_ROOT, "clients", "vscode");
	test("bundles to one file that needs only vscode and Node's own modules; the .vsix is under 100 KB", () => {
		const out = tempDir("vsix");
		scope.push(out.cleanup);
		const printed = execFileSync(process.execPath, [join(client, "build.mjs"), out.path], { encoding: "utf8" }).trim();
		expect(printed).toBe(join(out.path, "pi-ide-context-vscode.vsix"));
		expect(statSync(printed).size).toBeLessThan(100 * 1024);
		const bundle = readFileSync(join(out.path, "vscode-client", "dist", "extension.cjs"), "utf8");
		const required = [...bundle.matchAll(/require\("([^"]+)"\)/g)].map((match) => match[1] as string);
		const allowed = new Set(["vscode", ...builtinModules, ...builtinModules.map((name) => `node:${name}`)]);
		expect(required.filter((name) => !allowed.has(name))).toEqual([]);
		expect(required).toContain("vscode");
		const manifest = JSON.parse(readFileSync(join(client, "package.json"), "utf8"));
		expect(manifest).toMatchObject({
			name: "vscode-client",
			publisher: "pi-ide-context",
			engines: { vscode: "^1.85.0" },
			extensionKind: ["workspace"],
			main: "./dist/extension.cjs",
		});
		expect(manifest).not.toHaveProperty("dependencies");
	}, 60_000);
});
