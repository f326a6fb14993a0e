import type { ExtensionAPI, ExtensionContext } from "@mariozechner/pi-coding-agent";
import { stateDirFromEnv } from "./core/file-trust.ts";
import { IDE_SUBCOMMANDS, runIdeCommand } from "./shell/ide-command.ts";
import { IdeController } from "./shell/ide-controller.ts";
import { connectionMemory } from "./shell/session-memory.ts";
import { readAutoconnect } from "./shell/settings-source.ts";
import { WidgetSurface } from "./shell/widget-surface.ts";

export const CUSTOM_MESSAGE_TYPE = "pi-ide-context";
/** pi event-bus channel: the connected editor (or undefined) whenever it or its state changes. */
export const EDITOR_EVENT_CHANNEL = "pi-ide-context:editor";

/**
 * pi-ide-context: the editor's file, cursor and fresh selection in every prompt, a one-line widget showing
 * what pi sees, and `/ide` to pick an editor. Wiring only: the rules live in ./core, the I/O in ./shell.
 */
export default function piIdeContext(pi: ExtensionAPI): void {
	let controller: IdeController | undefined;
	let widget: WidgetSurface | undefined;

	async function start(ctx: ExtensionContext): Promise<void> {
		if (controller) return;
		const stateDir = stateDirFromEnv(process.env);
		const surface = new WidgetSurface(ctx.hasUI ? ctx.ui : undefined);
		widget = surface;
		controller = new IdeController({
			stateDir,
			cwd: ctx.cwd,
			uid: process.getuid?.() ?? 0,
			memory: connectionMemory(stateDir, ctx.cwd),
			autoconnect: readAutoconnect(pi, ctx.cwd),
			showWidget: (text) => surface.show(text),
			announce: (editor) => pi.events.emit(EDITOR_EVENT_CHANNEL, editor),
			notify: (message, level) => {
				if (ctx.hasUI && !stopped(surface)) ctx.ui.notify(message, level);
			},
		});
		await controller.start();
	}

	async function stop(): Promise<void> {
		const closing = controller;
		controller = undefined;
		widget?.dispose();
		widget = undefined;
		await closing?.stop();
	}

	const stopped = (surface: WidgetSurface) => widget !== surface;

	pi.on("session_start", async (_event, ctx) => {
		await start(ctx);
	});

	pi.on("session_shutdown", async () => {
		await stop();
	});

	pi.on("before_agent_start", async (event) => {
		// pi 1.x also starts runs from custom messages; editor context belongs to what the user asked.
		if (!("prompt" in event) || !controller) return;
		const content = await controller.promptBlock();
		if (content === undefined) return;
		return { message: { customType: CUSTOM_MESSAGE_TYPE, content, display: false } };
	});

	pi.registerCommand("ide", {
		description: "Connect pi to an editor: /ide, /ide all, /ide off, /ide status",
		getArgumentCompletions: (prefix) => {
			const matches = IDE_SUBCOMMANDS.filter((item) => item.value.startsWith(prefix.trim()));
			return matches.length > 0 ? matches.map((item) => ({ ...item })) : null;
		},
		handler: async (args, ctx) => {
			if (!controller) await start(ctx);
			if (controller) await runIdeCommand(args, ctx, controller);
		},
	});
}
