import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { PACKAGE_ROOT } from "../support/pi-cli.ts";
import { hasTmux, TmuxPi } from "../support/tmux-pi.ts";
import { waitFor } from "../support/wait-for.ts";

const require = createRequire(import.meta.url);
const JITI_REGISTER = join(require.resolve("jiti/package.json"), "..", "lib", "jiti-register.mjs");

describe.skipIf(!hasTmux())("npm run demo (skipped without tmux)", () => {
	let tui: TmuxPi | undefined;
	afterEach(() => tui?.stop());

	test("shows the widget and an answer quoting the editor block within seconds, and cleans up on exit", async () => {
		tui = TmuxPi.run([process.execPath, "--import", JITI_REGISTER, "test/demo/demo.ts"], {
			cwd: PACKAGE_ROOT,
			width: 110,
			height: 40,
		});
		const pane = tui;
		await waitFor(
			"the widget",
			() => /^(\d+ lines? selected )?in main\.ts$/.test(pane.belowEditor() ?? ""),
			20_000,
			50,
		);
		await pane.submit("what am I looking at?");
		const answer = await pane.waitForScreen("the echo answer", (screen) => screen.includes("</editor-context>"));
		expect(answer).toContain('You asked "what am I looking at?". Along with it I received this editor');
		const root = /File: (\/\S+?)\/orders\/src\/main\.ts/.exec(answer)?.[1];
		expect(root).toMatch(/pi-ide-demo-/);
		expect(existsSync(join(root ?? "", "orders", "src", "main.ts"))).toBe(true);

		await pane.submit("/quit");
		await waitFor("pi and the demo exited", () => !pane.isRunning(), 30_000, 50);
		expect(existsSync(root ?? "")).toBe(false);
	});
});
