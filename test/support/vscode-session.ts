import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import type { EditorState } from "../../src/editors/core/protocol-state.ts";
import type { E2eWorkspace } from "./e2e-workspace.ts";
import { PACKAGE_ROOT, type PiLine } from "./pi-cli.ts";
import { RpcPi } from "./rpc-pi.ts";
import { CHROMIUM, CodeServer, type CodeServerDirs, type VscodeHost } from "./vscode-host.ts";
import type { ReviewPage } from "./vscode-review-page.ts";
import { waitFor } from "./wait-for.ts";

/** What the tests use of a playwright page. */
export interface Page extends ReviewPage {
	waitForTimeout(ms: number): Promise<void>;
	title(): Promise<string>;
}

/**
 * The real pi (RPC) in a workspace, the package's VS Code client installed by pi's own `/ide install vscode`
 * (a `code` on pi's PATH that is code-server's CLI), then code-server serving the project in headless chromium.
 */
export class VscodeSession {
	private constructor(
		private readonly ws: E2eWorkspace,
		readonly rpc: RpcPi,
		readonly page: Page,
		/** What `/ide install vscode` said. */
		readonly installReport: string,
		readonly extensionsDir: string,
		private readonly stopAll: () => Promise<void>,
		/** Anthropic's extension runs instead of the client: nothing is written to wait for. */
		private readonly withoutClient = false,
	) {}

	/**
	 * `anthropic`: Anthropic's own extension instead of the package's client, installed by the CLI, its lockfile
	 * written under `home` (VS Code's `HOME`), where pi finds lock dirs (`PI_IDE_TEST_LOCK_ROOT`). `viewport`:
	 * the browser's size (playwright's 1280x720 unless given; a diff goes inline when space is limited).
	 * `extraExtensions`: more extensions pi loads beside this one (`-e`), e.g. one whose tools ask the user.
	 */
	static async start(
		ws: E2eWorkspace,
		line: PiLine,
		host: Required<Omit<VscodeHost, "skipReason">>,
		anthropic?: { vsix: string; home: string; withClient?: boolean },
		options: { viewport?: { width: number; height: number }; extraExtensions?: string[] } = {},
	): Promise<VscodeSession> {
		const dirs: CodeServerDirs = {
			config: join(ws.root, "vscode", "config"),
			userData: join(ws.root, "vscode", "user"),
			extensions: join(ws.root, "vscode", "extensions"),
		};
		for (const dir of Object.values(dirs)) mkdirSync(dir, { recursive: true });
		// The package's own client where pi looks for it: the global setup built it from the sources of this run.
		if (!existsSync(join(PACKAGE_ROOT, "clients", "vscode", "pi-ide-context-vscode.vsix")))
			throw new Error("no VS Code client .vsix: test/setup/global-setup.ts builds it (run with vitest.config.ts)");
		const bin = join(ws.root, "bin");
		mkdirSync(bin, { recursive: true });
		writeFileSync(join(bin, "code"), CodeServer.cliScript(host, dirs));
		chmodSync(join(bin, "code"), 0o755);
		if (anthropic) execFileSync(join(bin, "code"), ["--install-extension", anthropic.vsix], { stdio: "ignore" });
		const rpc = RpcPi.start(line, {
			cwd: ws.project,
			agentDir: ws.agentDir,
			stateDir: ws.stateDir,
			...(options.extraExtensions && { extraExtensions: options.extraExtensions }),
			env: { PATH: `${bin}:${process.env.PATH ?? ""}`, ...(anthropic && { PI_IDE_TEST_LOCK_ROOT: anthropic.home }) },
		});
		const closers: (() => unknown)[] = [() => rpc.stop()];
		const stopAll = async () => {
			for (const close of closers.splice(0).reverse()) await close();
		};
		try {
			await rpc.command({ type: "get_state" }, 60_000);
			const withClient = !anthropic || anthropic.withClient === true;
			const report = withClient ? await installClient(rpc) : "";
			const server = await CodeServer.start(host, dirs, ws.project, {
				...(withClient && { PI_IDE_STATE_DIR: ws.stateDir }),
				...(anthropic && { HOME: anthropic.home }),
			});
			closers.push(() => server.stop());
			// required, not imported: the benchmark's loader (jiti) cannot link an ES module from outside the repo.
			const { chromium } = createRequire(import.meta.url)(host.playwright) as {
				chromium: {
					launch(options: object): Promise<{ newPage(options: object): Promise<Page>; close(): Promise<void> }>;
				};
			};
			const browser = await chromium.launch({
				executablePath: CHROMIUM,
				headless: true,
				args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
			});
			closers.push(() => browser.close());
			const page = await browser.newPage(options.viewport ? { viewport: options.viewport } : {});
			await page.goto(`http://127.0.0.1:${server.port}/?folder=${ws.project}`);
			await page.waitForSelector(".monaco-workbench", { timeout: 90_000 });
			const session = new VscodeSession(ws, rpc, page, report, dirs.extensions, stopAll, !withClient);
			// The extension host starts and activates the extension (onStartupFinished): the client's first write
			// names no file; Anthropic's writes its lockfile once its server listens.
			if (anthropic) await waitFor("Anthropic's lockfile", () => session.lockfile(anthropic.home), 90_000);
			if (withClient) await waitFor("the client's first write", () => session.written() !== undefined, 90_000);
			return session;
		} catch (error) {
			await stopAll();
			throw error;
		}
	}

	/** Anthropic's extension's lockfile under `home`: its port and what it says. */
	lockfile(home: string): { port: number; authToken?: string; ideName?: string; pid?: number } | undefined {
		const dir = join(home, ".claude", "ide");
		const name = existsSync(dir) ? readdirSync(dir).find((file) => file.endsWith(".lock")) : undefined;
		if (!name) return undefined;
		return { port: Number(name.slice(0, -".lock".length)), ...JSON.parse(readFileSync(join(dir, name), "utf8")) };
	}

	/** The client's own latest write: what pi is about to read. */
	written(): EditorState | undefined {
		for (const name of readdirSync(this.ws.stateDir))
			if (name.endsWith(".json")) return JSON.parse(readFileSync(join(this.ws.stateDir, name), "utf8")) as EditorState;
		return undefined;
	}

	/** Quick open (Ctrl+P), until the client writes that file as the active one (or, with no client, VS Code names it). */
	async open(name: string): Promise<void> {
		await this.page.keyboard.press("Control+P");
		await this.page.waitForSelector(".quick-input-widget .quick-input-box input", {
			timeout: 10_000,
			state: "visible",
		});
		await this.page.keyboard.type(name);
		// Enter only once the row it would open is that file: quick open may still be searching under load.
		await this.page.waitForSelector(`.quick-input-list .monaco-list-row.focused[aria-label*="${name}"]`, {
			timeout: 10_000,
			state: "visible",
		});
		await this.page.keyboard.press("Enter");
		// Without pi's client nothing is written: VS Code's window title names the active editor first.
		if (this.withoutClient)
			await waitFor(
				`${name} open in VS Code`,
				async () => (await this.page.title()).replace(/^● /, "").startsWith(`${name} `),
				30_000,
			);
		else
			await waitFor(`${name} open in VS Code`, () => this.written()?.active_buffer?.file?.endsWith(`/${name}`), 30_000);
	}

	async goToLine(line: number): Promise<void> {
		await this.page.keyboard.press("Control+G");
		await this.page.waitForTimeout(300);
		await this.page.keyboard.type(String(line));
		await this.page.keyboard.press("Enter");
		await this.page.waitForTimeout(300);
	}

	/** Selects whole lines `first`..`last` (1-based) from the first's start to the next line's start, as Shift+Down does. */
	async selectLines(first: number, last: number): Promise<void> {
		await this.goToLine(first);
		await this.page.keyboard.press("Home");
		for (let line = first; line <= last; line++) await this.page.keyboard.press("Shift+ArrowDown");
	}

	/** Types `text` into the quick input VS Code shows now (an input box of a command) and sends it with Enter. */
	async answerInput(title: string, text: string): Promise<void> {
		await this.waitForInput(title);
		await this.page.keyboard.type(text);
		await this.page.keyboard.press("Enter");
	}

	/** Until the input box titled `title` shows. */
	async waitForInput(title: string): Promise<void> {
		await waitFor(
			`the input box "${title}"`,
			async () => (await this.page.evaluate<string>(QUICK_INPUT_TITLE)).includes(title),
			10_000,
		);
	}

	/** The palette's rows for `typed` (F1, typed, read, Escape): which commands it offers now. */
	async paletteRows(typed: string): Promise<string[]> {
		await this.page.keyboard.press("F1");
		await this.page.waitForSelector(".quick-input-widget .quick-input-box input", {
			timeout: 10_000,
			state: "visible",
		});
		await this.page.keyboard.type(typed);
		await this.page.waitForTimeout(500);
		const rows = await this.page.evaluate<string[]>(
			`[...document.querySelectorAll(".quick-input-list .monaco-list-row")].map((row) => row.getAttribute("aria-label") ?? "")`,
		);
		await this.page.keyboard.press("Escape");
		return rows;
	}

	/** The status bar's items' texts (icons are no text), joined by " | ". */
	statusBar(): Promise<string> {
		return this.page.evaluate<string>(
			`[...document.querySelectorAll(".part.statusbar .statusbar-item")].map((item) => item.textContent.trim()).filter(Boolean).join(" | ")`,
		);
	}

	/** Every visible editor's text, each with its lines joined by newlines. */
	editorTexts(): Promise<string[]> {
		return this.page.evaluate<string[]>(
			`[...document.querySelectorAll(".editor-instance .monaco-editor .view-lines")].map((lines) => [...lines.querySelectorAll(".view-line")].sort((a, b) => parseFloat(a.style.top) - parseFloat(b.style.top)).map((line) => line.textContent.replace(/\\u00a0/g, " ")).join("\\n"))`,
		);
	}

	stop(): Promise<void> {
		return this.stopAll();
	}
}

/** The title of the quick input VS Code shows now, or "" (none shown). */
const QUICK_INPUT_TITLE = `(() => { const widget = document.querySelector(".quick-input-widget"); if (!widget || widget.style.display === "none") return ""; return widget.querySelector(".quick-input-title")?.textContent ?? ""; })()`;

/** `/ide install vscode` through the `code` on pi's PATH: what it reported. */
async function installClient(rpc: RpcPi): Promise<string> {
	const before = rpc.notices().length;
	rpc.send({ type: "prompt", message: "/ide install vscode" });
	return waitFor(
		"the install report",
		() =>
			rpc
				.notices()
				.slice(before)
				.find((notice) => notice.startsWith("VS Code client") || notice.startsWith("No VS Code")),
		120_000,
	);
}
