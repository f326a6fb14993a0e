import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { VSCODE_CLIENT_VERSION } from "../../src/editors/core/clients.ts";
import { installVscodeClient, VSCODE_VSIX } from "../../src/ui/client-install.ts";
import { PACKAGE_ROOT } from "../support/pi-cli.ts";
import { tempDir } from "../support/temp-dir.ts";

/** A fake editor tool: records its arguments, and fails when told to. */
function fakeTool(dir: string, name: string, exitCode = 0): string {
	const log = join(dir, `${name}.log`);
	const path = join(dir, name);
	writeFileSync(
		path,
		`#!/bin/sh\necho "$@" >> '${log}'\n${exitCode === 0 ? `echo "Extension 'pi-ide-context-vscode.vsix' was successfully installed."` : 'echo "Failed Installing Extensions: boom" >&2'}\nexit ${exitCode}\n`,
	);
	chmodSync(path, 0o755);
	return log;
}

describe("/ide install vscode with editor tools on the PATH", () => {
	const dirs: { cleanup: () => void }[] = [];
	afterEach(() => {
		for (const dir of dirs.splice(0)) dir.cleanup();
	});
	const setup = () => {
		const dir = tempDir("install");
		dirs.push(dir);
		const vsix = join(dir.path, "client.vsix");
		writeFileSync(vsix, "PK");
		const bin = join(dir.path, "bin");
		mkdirSync(bin);
		return { vsix, bin };
	};

	test("every tool found installs the shipped .vsix with --force; next: reload the window", async () => {
		const { vsix, bin } = setup();
		const code = fakeTool(bin, "code");
		const cursor = fakeTool(bin, "cursor");
		const report = await installVscodeClient({ PATH: `/nonexistent:${bin}` }, vsix);
		for (const log of [code, cursor]) expect(readFileSync(log, "utf8")).toBe(`--install-extension ${vsix} --force\n`);
		expect(report).toBe(
			[
				"VS Code client (pi-ide-context.vscode-client):",
				`  code (${join(bin, "code")}): installed`,
				`  cursor (${join(bin, "cursor")}): installed`,
				"Next: reload each editor window (Developer: Reload Window); /ide status then lists it.",
			].join("\n"),
		);
	});

	test("a tool that fails: its last line, and the command to run by hand", async () => {
		const { vsix, bin } = setup();
		fakeTool(bin, "codium", 1);
		const report = await installVscodeClient({ PATH: bin }, vsix);
		expect(report).toContain(`  codium (${join(bin, "codium")}): failed: Failed Installing Extensions: boom`);
		expect(report).toContain(`Nothing was installed. By hand: code --install-extension ${vsix} --force`);
	});

	test("no tool: the exact command to run by hand", async () => {
		const { vsix } = setup();
		expect(await installVscodeClient({ PATH: "/nonexistent" }, vsix)).toContain(
			`  code --install-extension ${vsix} --force`,
		);
	});

	test("no .vsix (a source checkout that never packed): how to build it", async () => {
		expect(await installVscodeClient({ PATH: "" }, "/nonexistent/client.vsix")).toContain("npm run build:vscode");
	});

	test("the shipped .vsix is where the package builds it, and its version is the one pi compares against", () => {
		expect(VSCODE_VSIX).toBe(join(PACKAGE_ROOT, "clients", "vscode", "pi-ide-context-vscode.vsix"));
		const manifest = JSON.parse(readFileSync(join(PACKAGE_ROOT, "clients", "vscode", "package.json"), "utf8"));
		expect(manifest.version).toBe(VSCODE_CLIENT_VERSION);
	});
});
