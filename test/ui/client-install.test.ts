import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
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

/** The PATH only, on any machine the tests run on: a Mac's real bundles are never run by a test. */
const LINUX = { platform: "linux" };

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
		const report = await installVscodeClient({ PATH: `/nonexistent:${bin}` }, vsix, LINUX);
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
		const report = await installVscodeClient({ PATH: bin }, vsix, LINUX);
		expect(report).toContain(`  codium (${join(bin, "codium")}): failed: Failed Installing Extensions: boom`);
		expect(report).toContain(`Nothing was installed. By hand: code --install-extension ${vsix} --force`);
	});

	test("no tool: the exact command to run by hand", async () => {
		const { vsix } = setup();
		expect(await installVscodeClient({ PATH: "/nonexistent" }, vsix, LINUX)).toContain(
			`  code --install-extension ${vsix} --force`,
		);
	});

	/** A Mac's two apps folders in the test's dir: the system's (`/Applications`) and the user's (`~/Applications`). */
	const macSetup = () => {
		const { vsix, bin } = setup();
		const home = join(bin, "..", "home");
		const systemApps = join(bin, "..", "Applications");
		const bundle = (apps: string, app: string) => {
			const dir = join(apps, app, "Contents", "Resources", "app", "bin");
			mkdirSync(dir, { recursive: true });
			return dir;
		};
		const mac = { platform: "darwin", systemApps };
		return { vsix, bin, home, mac, systemApps, userApps: join(home, "Applications"), bundle };
	};

	test("a Mac with no tool on the PATH: the tools inside the editors' bundles in /Applications and ~/Applications", async () => {
		const { vsix, home, mac, systemApps, userApps, bundle } = macSetup();
		const code = fakeTool(bundle(systemApps, "Visual Studio Code.app"), "code");
		// Cursor's bundle with `bin/code` alone (what Homebrew's cask links): installed as Cursor, by that file.
		const cursor = fakeTool(bundle(userApps, "Cursor.app"), "code");
		const codium = fakeTool(bundle(userApps, "VSCodium.app"), "codium");
		// A bundle whose tool cannot run is passed over.
		writeFileSync(join(bundle(userApps, "Windsurf.app"), "windsurf"), "#!/bin/sh\n", { mode: 0o644 });
		const report = await installVscodeClient({ PATH: "/nonexistent", HOME: home }, vsix, mac);
		for (const log of [code, cursor, codium])
			expect(readFileSync(log, "utf8")).toBe(`--install-extension ${vsix} --force\n`);
		const inBundle = (apps: string, app: string, tool: string) =>
			join(apps, app, "Contents", "Resources", "app", "bin", tool);
		expect(report).toBe(
			[
				"VS Code client (pi-ide-context.vscode-client):",
				`  code (${inBundle(systemApps, "Visual Studio Code.app", "code")}): installed`,
				`  cursor (${inBundle(userApps, "Cursor.app", "code")}): installed`,
				`  codium (${inBundle(userApps, "VSCodium.app", "codium")}): installed`,
				"Next: reload each editor window (Developer: Reload Window); /ide status then lists it.",
			].join("\n"),
		);
	});

	test("a Mac: a tool on the PATH goes first; the bundles are never looked in on Linux", async () => {
		const { vsix, bin, home, mac, userApps, bundle } = macSetup();
		const bundleLog = fakeTool(bundle(userApps, "Visual Studio Code.app"), "code");
		fakeTool(bin, "code");
		expect(await installVscodeClient({ PATH: bin, HOME: home }, vsix, mac)).toContain(
			`  code (${join(bin, "code")}): installed`,
		);
		expect(await installVscodeClient({ PATH: "/nonexistent", HOME: home }, vsix, LINUX)).toContain(
			"No VS Code command-line tool on the PATH",
		);
		expect(existsSync(bundleLog)).toBe(false);
	});

	test("no .vsix (a source checkout that never packed): how to build it", async () => {
		expect(await installVscodeClient({ PATH: "" }, "/nonexistent/client.vsix", LINUX)).toContain(
			"npm run build:vscode",
		);
	});

	test("the shipped .vsix is where the package builds it, and its version is the one pi compares against", () => {
		expect(VSCODE_VSIX).toBe(join(PACKAGE_ROOT, "clients", "vscode", "pi-ide-context-vscode.vsix"));
		const manifest = JSON.parse(readFileSync(join(PACKAGE_ROOT, "clients", "vscode", "package.json"), "utf8"));
		expect(manifest.version).toBe(VSCODE_CLIENT_VERSION);
	});
});
