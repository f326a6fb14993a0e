import type { ExtensionUIContext } from "@mariozechner/pi-coding-agent";
import { Container, type SelectItem, SelectList, Text } from "@mariozechner/pi-tui";
import type { Clock } from "../shared/core/clock.ts";
import { REVIEW_KEYS_ARMED_MS } from "../shared/core/timing.ts";

/** The choice, undefined for Esc or a withdrawal; `unsupported` where pi has no custom UI (RPC): use `select`. */
export type GuardedAnswer = string | undefined | "unsupported";

/**
 * pi's review select in the TUI, deaf to keys for its first moments: a user typing in pi's input when the review
 * pops up must not approve with the Enter meant for their message. Withdrawn by `signal`. In RPC mode pi has no
 * custom UI: the caller falls back to `select`.
 */
export async function guardedSelect(
	ui: Pick<ExtensionUIContext, "custom">,
	title: string,
	choices: readonly string[],
	options: { signal: AbortSignal; clock: Clock },
): Promise<GuardedAnswer> {
	let finish: ((answer: string | null) => void) | undefined;
	const withdraw = () => finish?.(null);
	options.signal.addEventListener("abort", withdraw, { once: true });
	let cancelArming: (() => void) | undefined;
	try {
		const answer = await ui.custom<string | null>((tui, theme, _keybindings, done) => {
			let settled = false;
			finish = (value) => {
				if (settled) return;
				settled = true;
				done(value);
			};
			if (options.signal.aborted) queueMicrotask(withdraw);
			const items: SelectItem[] = choices.map((choice) => ({ value: choice, label: choice }));
			const list = new SelectList(items, items.length, {
				selectedPrefix: (text) => theme.fg("accent", text),
				selectedText: (text) => theme.fg("accent", text),
				description: (text) => theme.fg("muted", text),
				scrollInfo: (text) => theme.fg("dim", text),
				noMatch: (text) => theme.fg("warning", text),
			});
			list.onSelect = (item) => finish?.(item.value);
			list.onCancel = () => finish?.(null);
			let armed = false;
			const hint = new Text(theme.fg("dim", "(keys wait a moment: no stray key answers this)"), 1, 0);
			cancelArming = options.clock.after(REVIEW_KEYS_ARMED_MS, () => {
				armed = true;
				hint.setText(theme.fg("dim", "up/down move, enter choose, esc reject and stop the turn"));
				tui.requestRender();
			});
			const container = new Container();
			for (const line of title.split("\n")) container.addChild(new Text(theme.fg("accent", theme.bold(line)), 1, 0));
			container.addChild(list);
			container.addChild(hint);
			return {
				render: (width: number) => container.render(width),
				invalidate: () => container.invalidate(),
				handleInput: (data: string) => {
					if (!armed) return;
					list.handleInput(data);
					tui.requestRender();
				},
			};
		});
		if (answer === undefined) return "unsupported";
		return answer ?? undefined;
	} finally {
		cancelArming?.();
		options.signal.removeEventListener("abort", withdraw);
	}
}
