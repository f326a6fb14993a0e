/**
 * What the review tests do in VS Code's workbench (headless chromium on code-server): the palette, the diff
 * editor's sides, typing into the proposal, the focus, the tabs; and when a proposal's tab first showed, read
 * from the page itself (a MutationObserver keeps the browser's wall clock of each tab's arrival), so a test or
 * the bench can time the way from pi's tool call to the diff on screen.
 */

/** What the review tests use of a playwright page. */
export interface ReviewPage {
	goto(url: string): Promise<unknown>;
	waitForSelector(
		selector: string,
		options: { timeout: number; state?: "attached" | "detached" | "visible" },
	): Promise<unknown>;
	click(selector: string, options?: { timeout?: number }): Promise<void>;
	keyboard: { press(key: string): Promise<void>; type(text: string): Promise<void> };
	evaluate<T>(script: string): Promise<T>;
}

/** How the client titles a proposal's tab: `<file> (pi's proposal)`, `<file> (new file, pi's proposal)`. */
export const PROPOSAL_TAB_MARK = "pi's proposal";

/**
 * Runs a command by its palette title (F1, the title, Enter), once the row Enter would run is that command: the
 * palette may put another first ("View: Close All Editor Groups" for "View: Close Editor").
 */
export async function palette(page: ReviewPage, title: string): Promise<void> {
	await page.keyboard.press("F1");
	await page.waitForSelector(".quick-input-widget .quick-input-box input", { timeout: 10_000, state: "visible" });
	await page.keyboard.type(title);
	await page.waitForSelector(`.quick-input-list .monaco-list-row.focused[aria-label*="${title}"]`, {
		timeout: 10_000,
		state: "visible",
	});
	await page.keyboard.press("Enter");
}

/** The lines a side of the diff editor on screen shows (deleted lines shown inline left out). */
export function diffSide(page: ReviewPage, side: "original" | "modified"): Promise<string> {
	return page.evaluate(
		`[...document.querySelectorAll(".monaco-diff-editor .editor.${side} .view-lines:not(.line-delete) .view-line")].map((line) => line.textContent.replace(/\\u00a0/g, " ")).join("\\n")`,
	);
}

/** Clicks into the proposal's side and types at its end. */
export async function typeInProposal(page: ReviewPage, text: string): Promise<void> {
	await page.click(".monaco-diff-editor .editor.modified .view-lines:not(.line-delete)");
	await page.keyboard.press("Control+End");
	await page.keyboard.type(text);
}

/**
 * What has the keyboard focus, to tell it did not move: the element's own tag and classes under its ancestors'
 * tags and ids (an ancestor's classes follow state, e.g. xterm's `focus`, and would differ for the same element).
 */
export function focused(page: ReviewPage): Promise<string> {
	return page.evaluate(`(() => {
		const element = document.activeElement;
		if (!element || element === document.body) return "body";
		const parts = [element.tagName.toLowerCase() + (typeof element.className === "string" && element.className ? "." + element.className.trim().split(/\\s+/).sort().join(".") : "")];
		for (let node = element.parentElement; node && node !== document.body; node = node.parentElement)
			parts.push(node.tagName.toLowerCase() + (node.id ? "#" + node.id : ""));
		return parts.reverse().join(" > ");
	})()`);
}

/** Closes a tab as the user does, by its own close button (the tab by a part of its label). */
export async function closeTab(page: ReviewPage, label: string): Promise<void> {
	await page.click(`.tabs-container .tab[aria-label*="${label}"] .tab-actions .action-label`, { timeout: 10_000 });
}

/** Every editor tab's label on screen. */
export function tabLabels(page: ReviewPage): Promise<string[]> {
	return page.evaluate(
		`[...document.querySelectorAll(".tabs-container .tab")].map((tab) => tab.getAttribute("aria-label") ?? "")`,
	);
}

/**
 * Starts keeping, in the page, the browser's `Date.now()` at which each proposal tab (by its label) first
 * appeared. Idempotent. The browser runs on this machine: its clock is the test's.
 */
export function watchProposalTabs(page: ReviewPage): Promise<void> {
	return page.evaluate(`(() => {
		if (window.__piProposalTabs) return;
		const seen = (window.__piProposalTabs = []);
		const known = new Set();
		const scan = () => {
			for (const tab of document.querySelectorAll(".tabs-container .tab")) {
				const label = tab.getAttribute("aria-label") ?? "";
				if (label.includes(${JSON.stringify(PROPOSAL_TAB_MARK)}) && !known.has(tab)) {
					known.add(tab);
					seen.push({ label, atEpochMs: Date.now() });
				}
			}
		};
		new MutationObserver(scan).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ["aria-label"] });
		scan();
	})()`);
}

/** The proposal tabs seen since `watchProposalTabs`, in order of arrival. */
export function proposalTabsSeen(page: ReviewPage): Promise<{ label: string; atEpochMs: number }[]> {
	return page.evaluate("window.__piProposalTabs ?? []");
}
