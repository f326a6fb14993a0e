/**
 * What the question tests read and do in VS Code's workbench (headless chromium on code-server): the quick pick
 * on screen (its title, placeholder and rows), the notifications' toasts, a toast's own button.
 */
import type { ReviewPage } from "./vscode-review-page.ts";
import { waitFor } from "./wait-for.ts";

/** A quick pick on screen. */
export interface QuickPickShown {
	title: string;
	placeholder: string;
	rows: string[];
}

/** The quick input VS Code shows now, or undefined when none is visible. */
export function quickPickShown(page: ReviewPage): Promise<QuickPickShown | undefined> {
	return page.evaluate(`(() => {
		const widget = document.querySelector(".quick-input-widget");
		if (!widget || widget.style.display === "none" || widget.offsetParent === null) return undefined;
		const input = widget.querySelector(".quick-input-box input");
		return {
			title: widget.querySelector(".quick-input-title")?.textContent ?? "",
			placeholder: input?.getAttribute("placeholder") ?? input?.getAttribute("aria-label") ?? "",
			rows: [...widget.querySelectorAll(".quick-input-list .monaco-list-row")].map((row) => row.getAttribute("aria-label") ?? ""),
		};
	})()`);
}

/** Until a quick pick titled with `title` shows; what it shows. */
export function waitForQuickPick(page: ReviewPage, title: string, timeoutMs = 15_000): Promise<QuickPickShown> {
	return waitFor(
		`the quick pick "${title}"`,
		async () => {
			const shown = await quickPickShown(page);
			return shown?.title.includes(title) ? shown : undefined;
		},
		timeoutMs,
	);
}

/** Until no quick pick titled with `title` shows. */
export async function waitForNoQuickPick(page: ReviewPage, title: string, timeoutMs = 15_000): Promise<void> {
	await waitFor(
		`no quick pick "${title}"`,
		async () => (await quickPickShown(page))?.title.includes(title) !== true,
		timeoutMs,
	);
}

/** The messages of the notifications' toasts on screen. */
export function toasts(page: ReviewPage): Promise<string[]> {
	return page.evaluate(
		`[...document.querySelectorAll(".notifications-toasts .notification-toast")].filter((toast) => toast.offsetParent !== null).map((toast) => toast.querySelector(".notification-list-item-message")?.textContent ?? "")`,
	);
}

/** Clicks the button labelled `button` of the toast whose message holds `message`. */
export async function clickToastButton(page: ReviewPage, message: string, button: string): Promise<void> {
	const clicked = await page.evaluate<boolean>(`(() => {
		const toast = [...document.querySelectorAll(".notifications-toasts .notification-toast")].find((each) =>
			(each.querySelector(".notification-list-item-message")?.textContent ?? "").includes(${JSON.stringify(message)}));
		const target = [...(toast?.querySelectorAll(".notification-list-item-buttons-container .monaco-button") ?? [])].find(
			(each) => each.textContent.trim() === ${JSON.stringify(button)});
		if (!target) return false;
		target.click();
		return true;
	})()`);
	if (!clicked) throw new Error(`no "${button}" on a toast saying "${message}"`);
}
