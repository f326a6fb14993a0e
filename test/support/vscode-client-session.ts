/**
 * The package's VS Code client alone in a real VS Code (code-server and headless chromium, as vscode-session.ts
 * starts them) with no pi: installed from the built `.vsix` by code-server's own CLI, its state dir a temp dir of
 * the test's. A test speaks to the client's socket itself (pi's own connector, or raw lines).
 */
import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { CleanupScope } from "./cleanup-scope.ts";
import { PACKAGE_ROOT } from "./pi-cli.ts";
import { tempDir } from "./temp-dir.ts";
import { CHROMIUM, CodeServer, type CodeServerDirs, type VscodeHost } from "./vscode-host.ts";
import { diffSide, focused, palette, type ReviewPage, typeInProposal } from "./vscode-review-page.ts";
import { waitFor } from "./wait-for.ts";

export type ClientPage = ReviewPage;

export class VscodeClientSession {
	private constructor(
		readonly root: string,
		readonly project: string,
		readonly stateDir: string,
		/** The extension host's pid: the name of its state file and socket. */
		readonly pid: number,
		readonly page: ClientPage,
		private readonly scope: CleanupScope,
	) {}

	/** `files`: the project's files by relative path, written before VS Code opens the folder. */
	static async start(
		host: Required<Omit<VscodeHost, "skipReason">>,
		files: Record<string, string>,
	): Promise<VscodeClientSession> {
		const scope = new CleanupScope();
		try {
			const root = tempDir("vscode-client");
			scope.defer(root.cleanup);
			const project = join(root.path, "project");
			const stateDir = join(root.path, "state");
			mkdirSync(stateDir, { mode: 0o700 });
			for (const [path, text] of Object.entries(files)) {
				mkdirSync(join(project, path, ".."), { recursive: true });
				writeFileSync(join(project, path), text);
			}
			const dirs: CodeServerDirs = {
				config: join(root.path, "vscode", "config"),
				userData: join(root.path, "vscode", "user"),
				extensions: join(root.path, "vscode", "extensions"),
			};
			for (const dir of Object.values(dirs)) mkdirSync(dir, { recursive: true });
			const vsix = join(PACKAGE_ROOT, "clients", "vscode", "pi-ide-context-vscode.vsix");
			if (!existsSync(vsix)) throw new Error("no VS Code client .vsix: test/setup/global-setup.ts builds it");
			const code = join(root.path, "code");
			writeFileSync(code, CodeServer.cliScript(host, dirs));
			chmodSync(code, 0o755);
			execFileSync(code, ["--install-extension", vsix], { stdio: "ignore" });
			const server = await CodeServer.start(host, dirs, project, { PI_IDE_STATE_DIR: stateDir });
			scope.defer(() => server.stop());
			// required, not imported: as in vscode-session.ts.
			const { chromium } = createRequire(import.meta.url)(host.playwright) as {
				chromium: {
					launch(options: object): Promise<{ newPage(options: object): Promise<ClientPage>; close(): Promise<void> }>;
				};
			};
			const browser = await chromium.launch({
				executablePath: CHROMIUM,
				headless: true,
				args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
			});
			scope.defer(() => browser.close());
			// Wide enough that VS Code shows a diff side by side (it goes inline when space is limited).
			const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
			await page.goto(`http://127.0.0.1:${server.port}/?folder=${project}`);
			await page.waitForSelector(".monaco-workbench", { timeout: 90_000 });
			const pid = await waitFor(
				"the client's state file and socket",
				() => {
					const names = readdirSync(stateDir);
					const json = names.find((name) => /^\d+\.json$/.test(name));
					const pid = json ? Number.parseInt(json, 10) : undefined;
					return pid !== undefined && names.includes(`${pid}.sock`) ? pid : undefined;
				},
				90_000,
				50,
			);
			return new VscodeClientSession(root.path, project, stateDir, pid, page, scope);
		} catch (error) {
			await scope.close();
			throw error;
		}
	}

	/** The client's state file as last written, and when. */
	written(): { state: { active_buffer?: { file: string | null } }; mtimeMs: number } {
		const path = join(this.stateDir, `${this.pid}.json`);
		return { state: JSON.parse(readFileSync(path, "utf8")), mtimeMs: statSync(path).mtimeMs };
	}

	/** Quick open (Ctrl+P), until the client writes that file as the active one. */
	async open(name: string): Promise<void> {
		await this.page.keyboard.press("Control+P");
		await this.page.waitForSelector(".quick-input-widget .quick-input-box input", {
			timeout: 10_000,
			state: "visible",
		});
		await this.page.keyboard.type(name);
		await this.page.waitForSelector(`.quick-input-list .monaco-list-row[aria-label*="${name}"]`, {
			timeout: 10_000,
			state: "visible",
		});
		await this.page.keyboard.press("Enter");
		await waitFor(
			`${name} written as active`,
			() => this.written().state.active_buffer?.file?.endsWith(`/${name}`),
			30_000,
		);
	}

	/** Runs a command by its palette title (F1, the title, Enter). */
	palette(title: string): Promise<void> {
		return palette(this.page, title);
	}

	/** The lines a side of the diff editor on screen shows (deleted lines shown inline left out). */
	diffSide(side: "original" | "modified"): Promise<string> {
		return diffSide(this.page, side);
	}

	/** Clicks into the proposal's side and types at its end. */
	typeInProposal(text: string): Promise<void> {
		return typeInProposal(this.page, text);
	}

	/** What has the keyboard focus, as a path of tags and classes: to tell it did not move. */
	focused(): Promise<string> {
		return focused(this.page);
	}

	stop(): Promise<void> {
		return this.scope.close();
	}
}
