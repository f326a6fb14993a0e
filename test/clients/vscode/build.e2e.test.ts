import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
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

	test("the review's two commands in the palette while a proposal is up and in the diff's title bar; Suggest Here while a pi offers inline completions, the asks while one offers asks; no key bound", () => {
		const manifest = JSON.parse(readFileSync(join(client, "package.json"), "utf8"));
		const { contributes } = manifest;
		const titles = contributes.commands.map(
			(command: { category: string; title: string }) => `${command.category}: ${command.title}`,
		);
		expect(titles).toEqual([
			"pi: Accept Proposed Change",
			"pi: Reject Proposed Change",
			"pi: Suggest Here",
			"pi: Ask…",
			"pi: Ask About Selection",
			"pi: Add Selection to pi's Input",
			"pi: Stop",
			"pi: Show Reply",
		]);
		// A key of pi's could shadow one of VS Code's or the user's: the palette only.
		expect(contributes).not.toHaveProperty("keybindings");
		// In a diff editor `resourceScheme` is the modified side's: the proposal's own scheme.
		for (const item of contributes.menus["editor/title"])
			expect(item).toMatchObject({
				group: expect.stringMatching(/^navigation/),
				when: "resourceScheme == pi-proposal",
			});
		expect(contributes.menus.commandPalette).toEqual([
			{ command: "piIdeContext.acceptProposal", when: "piIdeContext.reviewPending" },
			{ command: "piIdeContext.rejectProposal", when: "piIdeContext.reviewPending" },
			{ command: "piIdeContext.suggest", when: "piIdeContext.suggestionsOffered" },
			...["ask", "askSelection", "addSelection", "stop", "showReply"].map((name) => ({
				command: `piIdeContext.${name}`,
				when: "piIdeContext.asksOffered",
			})),
		]);
	});

	/** The package as a fresh clone has it (no .vsix built), beside the real node_modules, so packing it builds there. */
	const packageCopy = (): string => {
		const out = tempDir("pack");
		scope.push(out.cleanup);
		const manifest = JSON.parse(readFileSync(join(PACKAGE_ROOT, "package.json"), "utf8"));
		for (const entry of manifest.files as string[])
			if (!entry.endsWith(".vsix")) cpSync(join(PACKAGE_ROOT, entry), join(out.path, entry), { recursive: true });
		cpSync(join(PACKAGE_ROOT, "package.json"), join(out.path, "package.json"));
		mkdirSync(join(out.path, "clients", "vscode"), { recursive: true });
		for (const entry of ["package.json", "README.md", ".vscodeignore", "build.mjs", "check-packed.mjs", "src"])
			cpSync(join(client, entry), join(out.path, "clients", "vscode", entry), { recursive: true });
		symlinkSync(join(PACKAGE_ROOT, "node_modules"), join(out.path, "node_modules"));
		return out.path;
	};
	const npm = (dir: string, ...args: string[]) => spawnSync("npm", args, { cwd: dir, encoding: "utf8" });

	test("npm pack --dry-run --json is JSON (prepack logs to stderr) and lists the .vsix it built", () => {
		const dir = packageCopy();
		const packed = npm(dir, "pack", "--dry-run", "--json");
		expect(packed.status, packed.stderr).toBe(0);
		const files = (JSON.parse(packed.stdout) as { files: { path: string }[] }[])[0]?.files.map((file) => file.path);
		expect(files).toContain("clients/vscode/pi-ide-context-vscode.vsix");
		expect(files).toContain("src/index.ts");
		expect(packed.stderr).toContain(join(dir, "clients", "vscode", "pi-ide-context-vscode.vsix"));
		expect(npm(dir, "run", "prepublishOnly").status).toBe(0);
	}, 60_000);

	test("prepublishOnly fails when the .vsix is not in the package", () => {
		const dir = packageCopy();
		const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
		manifest.files = (manifest.files as string[]).filter((entry) => !entry.endsWith(".vsix"));
		writeFileSync(join(dir, "package.json"), JSON.stringify(manifest));
		const check = npm(dir, "run", "prepublishOnly");
		expect(check.status).not.toBe(0);
		expect(check.stderr).toContain(
			"the package does not hold clients/vscode/pi-ide-context-vscode.vsix: /ide install vscode would have nothing to install",
		);
	}, 60_000);
});
