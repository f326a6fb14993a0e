import type { ExtensionUIContext } from "@mariozechner/pi-coding-agent";
import { visibleWidth } from "@mariozechner/pi-tui";
import { describe, expect, test } from "vitest";
import { WIDGET_KEY, WidgetSurface } from "../../src/ui/widget-surface.ts";

type Content = undefined | string[] | (() => { render: (width: number) => string[] });

/** pi's widget API as each mode implements it: the TUI builds a factory at once, RPC drops factories. */
function ui(mode: "tui" | "rpc") {
	const shown: (string[] | undefined)[] = [];
	const fake = {
		setWidget: (key: string, content: Content) => {
			expect(key).toBe(WIDGET_KEY);
			if (typeof content === "function") {
				if (mode === "tui") shown.push(content().render(20));
				return;
			}
			shown.push(content);
		},
	} as unknown as ExtensionUIContext;
	return { fake, shown };
}

describe("the widget line reaches each mode's UI, never wider than the terminal", () => {
	test("the TUI renders a component cut to the width it is given", () => {
		const { fake, shown } = ui("tui");
		new WidgetSurface(fake).show("12 lines selected in a-very-long-file-name.ts");
		expect(shown).toHaveLength(1);
		expect(visibleWidth(shown[0]?.[0] ?? "")).toBeLessThanOrEqual(20);
	});

	test("RPC drops component factories: plain lines go instead, from then on", () => {
		const { fake, shown } = ui("rpc");
		const surface = new WidgetSurface(fake);
		surface.show("in main.ts");
		surface.show("in other.ts");
		expect(shown).toEqual([["in main.ts"], ["in other.ts"]]);
	});

	test("the same text twice is shown once; undefined clears; nothing after dispose", () => {
		const { fake, shown } = ui("rpc");
		const surface = new WidgetSurface(fake);
		surface.show("in main.ts");
		surface.show("in main.ts");
		surface.show(undefined);
		surface.show("in main.ts");
		surface.dispose();
		surface.show("in other.ts");
		expect(shown).toEqual([["in main.ts"], undefined, ["in main.ts"], undefined]);
	});

	test("print mode has no UI: nothing is touched", () => {
		expect(() => new WidgetSurface(undefined).show("in main.ts")).not.toThrow();
	});
});
