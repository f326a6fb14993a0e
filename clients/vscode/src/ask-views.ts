import * as vscode from "vscode";
import { statusBarText } from "./core/asks.ts";

/** The reply's read-only view: a virtual Markdown document per pi. */
export const REPLY_SCHEME = "pi-reply";
export const SHOW_REPLY_COMMAND = "piIdeContext.showReply";

/**
 * The output channel "pi": what pi answered this window (asks' news, inline completions' errors), with VS Code's
 * own timestamps. The line just written, again within a minute, is not written twice (an inline completion's
 * error at every pause in typing).
 */
export class PiLog {
	private readonly channel = vscode.window.createOutputChannel("pi", { log: true });
	private last?: { line: string; atMs: number };

	line(line: string, level: "info" | "error" = "info"): void {
		const nowMs = Date.now();
		if (this.last?.line === line && nowMs - this.last.atMs < 60_000) return;
		this.last = { line, atMs: nowMs };
		if (level === "error") this.channel.error(line);
		else this.channel.info(line);
	}

	dispose(): void {
		this.channel.dispose();
	}
}

/** One status bar item: pi's latest line for this window (working, done, why not); a click shows the reply. */
export class AskStatus {
	private readonly item = vscode.window.createStatusBarItem("piIdeContext.asks", vscode.StatusBarAlignment.Left, 50);

	constructor() {
		this.item.name = "pi";
		this.item.command = SHOW_REPLY_COMMAND;
	}

	show(text: string, level: "info" | "working" | "error"): void {
		this.item.text = statusBarText({ text, level });
		this.item.tooltip = `${text}\n(click: pi: Show Reply)`;
		this.item.backgroundColor = level === "error" ? new vscode.ThemeColor("statusBarItem.errorBackground") : undefined;
		this.item.show();
		if (level === "error") void vscode.window.showErrorMessage(text);
	}

	/** No pi offers asks any more: its last line is no news. */
	hide(): void {
		this.item.hide();
	}

	dispose(): void {
		this.item.dispose();
	}
}

/**
 * The replies' views: a read-only virtual document per pi (`pi-reply:/Reply of pi 1234.md`, Markdown), its
 * text replaced as pi sends it and shown beside the user's editor when asked for. pi sends the text only while it
 * believes the view open: the view's tab closed tells it (`closed`).
 */
export class ReplyViews implements vscode.TextDocumentContentProvider {
	private readonly texts = new Map<string, string>();
	private readonly shown = new Set<string>();
	private readonly wanted = new Set<string>();
	private readonly changes = new vscode.EventEmitter<vscode.Uri>();
	readonly onDidChange = this.changes.event;

	/** `closed(pid)`: the view of that pi's reply was closed. */
	constructor(private readonly closed: (pid: number) => void) {}

	register(): vscode.Disposable[] {
		return [
			vscode.workspace.registerTextDocumentContentProvider(REPLY_SCHEME, this),
			vscode.window.tabGroups.onDidChangeTabs(() => this.tabsChanged()),
			this.changes,
		];
	}

	provideTextDocumentContent(uri: vscode.Uri): string {
		return this.texts.get(uri.path) ?? "";
	}

	/** The user asked for that pi's reply: shown once pi sends it. */
	want(pid: number): void {
		this.wanted.add(replyUri(pid).path);
	}

	/** pi's reply (the whole text so far). */
	async reply(pid: number, text: string): Promise<void> {
		const uri = replyUri(pid);
		this.texts.set(uri.path, text);
		this.changes.fire(uri);
		if (!this.wanted.delete(uri.path)) return;
		const document = await vscode.workspace.openTextDocument(uri);
		if (document.languageId !== "markdown") await vscode.languages.setTextDocumentLanguage(document, "markdown");
		await vscode.window.showTextDocument(document, {
			viewColumn: vscode.ViewColumn.Beside,
			preserveFocus: true,
			preview: false,
		});
		this.shown.add(uri.path);
	}

	/** Its tab is gone: pi stops sending. */
	private tabsChanged(): void {
		const open = new Set(
			vscode.window.tabGroups.all.flatMap((group) =>
				group.tabs.flatMap((tab) =>
					tab.input instanceof vscode.TabInputText && tab.input.uri.scheme === REPLY_SCHEME ? [tab.input.uri.path] : [],
				),
			),
		);
		for (const path of [...this.shown])
			if (!open.has(path)) {
				this.shown.delete(path);
				const pid = pidOfReply(path);
				if (pid !== undefined) this.closed(pid);
			}
	}
}

const replyUri = (pid: number) => vscode.Uri.from({ scheme: REPLY_SCHEME, path: `/Reply of pi ${pid}.md` });

function pidOfReply(path: string): number | undefined {
	const match = /^\/Reply of pi (\d+)\.md$/.exec(path);
	return match ? Number(match[1]) : undefined;
}
