import { homedir } from "node:os";
import type { ExtensionAPI, ExtensionContext } from "@mariozechner/pi-coding-agent";
import { IdeController } from "./connection/controller.ts";
import { plannedStateDirs } from "./editors/state-dir/state-dir.ts";
import { EDITOR_EVENT_CHANNEL } from "./events.ts";
import { CONTEXT_MESSAGE_TYPE, NO_KNOWLEDGE } from "./prompt/core/model-knowledge.ts";
import { KnowledgeCache } from "./prompt/knowledge-cache.ts";
import { PromptContext, prepareSelection } from "./prompt/message-builder.ts";
import { withSelectionReference } from "./references/completion.ts";
import { insertEditorReference, REFERENCE_SHORTCUT, selectionReference } from "./references/shortcut.ts";
import { secretFileMatcher } from "./safety/core/secret-files.ts";
import { guardUnsavedWrite } from "./safety/unsaved-guard.ts";
import type { IdeSettings } from "./settings/core/settings.ts";
import { readSettings, settingsFiles } from "./settings/settings-files.ts";
import { connectionMemory } from "./shared/process-memory.ts";
import { IDE_SUBCOMMANDS, runIdeCommand } from "./ui/ide-command.ts";
import { registerTranscriptLine } from "./ui/transcript-line.ts";
import { WidgetSurface } from "./ui/widget-surface.ts";

/**
 * Benchmark only: send the whole block with every prompt, as 0.1 did, to measure what send-once saves. Not a
 * user setting: it costs tokens and buys nothing.
 */
const SEND_EVERY_PROMPT = process.env.PI_IDE_BENCH_SEND_EVERY_PROMPT === "1";

export { EDITOR_EVENT_CHANNEL, type EditorEvent } from "./events.ts";

/**
 * pi-ide-context: the editor's file, cursor and fresh selection in every prompt, a one-line widget showing
 * what pi sees, and `/ide` to pick an editor. Wiring only: the rules live in ./core, the I/O in ./shell.
 */
export default function piIdeContext(pi: ExtensionAPI): void {
	let controller: IdeController | undefined;
	let widget: WidgetSurface | undefined;
	let prompts: PromptContext | undefined;
	let references: ReturnType<typeof referenceOptions> | undefined;
	const knowledgeCache = new KnowledgeCache(CONTEXT_MESSAGE_TYPE);
	const queuedTexts: string[] = [];

	async function start(ctx: ExtensionContext): Promise<void> {
		if (controller) return;
		const uid = process.getuid?.() ?? 0;
		const stateDirs = plannedStateDirs(process.env, uid);
		const surface = new WidgetSurface(ctx.hasUI ? ctx.ui : undefined);
		widget = surface;
		const files = settingsFiles(ctx.cwd);
		const settings = readSettings(files);
		controller = new IdeController(
			{
				stateDirs,
				cwd: ctx.cwd,
				uid,
				environment: {
					XDG_RUNTIME_DIR: process.env.XDG_RUNTIME_DIR,
					TMPDIR: process.env.TMPDIR,
					PI_IDE_STATE_DIR: process.env.PI_IDE_STATE_DIR,
				},
				memory: connectionMemory(stateDirs.map((dir) => dir.path).join("\u0000"), ctx.cwd),
				settings,
				settingsFiles: files,
				zed: {
					enabled: { on: settings.zed.on, source: settings.zed.source === "project" ? files.project : files.global },
					env: process.env,
					home: homedir(),
					platform: process.platform,
					uid,
				},
			},
			{
				showWidget: (text) => surface.show(text),
				announce: (editor) => pi.events.emit(EDITOR_EVENT_CHANNEL, editor),
				notify: (message, level) => {
					if (ctx.hasUI && !stopped(surface)) ctx.ui.notify(message, level);
				},
			},
		);
		const started = controller;
		references = referenceOptions(ctx.cwd, settings);
		prompts = new PromptContext(() => started.project, prepareSelection({ redactSecrets: settings.redactSecrets.on }));
		await controller.start();
	}

	async function stop(): Promise<void> {
		const closing = controller;
		controller = undefined;
		prompts = undefined;
		references = undefined;
		widget?.dispose();
		widget = undefined;
		await closing?.stop();
	}

	const stopped = (surface: WidgetSurface) => widget !== surface;

	pi.on("session_start", async (_event, ctx) => {
		await start(ctx);
		// Reads the controller of the moment: a provider left from an earlier session then offers nothing.
		if (ctx.hasUI)
			ctx.ui.addAutocompleteProvider((current) =>
				withSelectionReference(current, () => (controller ? selectionReference(controller, ctx.cwd) : undefined)),
			);
	});

	pi.on("session_shutdown", async () => {
		await stop();
	});

	// Text typed while the agent works is queued by pi and starts no run: its references go with the next prompt.
	pi.on("input", (event, ctx) => {
		if (!ctx.isIdle()) queuedTexts.push(event.text);
	});

	pi.on("before_agent_start", async (event, ctx) => {
		// pi 1.x also starts runs from custom messages; editor context belongs to what the user asked.
		if (!("prompt" in event) || !controller || !prompts || !references) return;
		const view = await controller.connectedView();
		// What the model already holds, from the session itself: right after /new, /fork, /resume or a compaction.
		const knowledge = SEND_EVERY_PROMPT ? NO_KNOWLEDGE : knowledgeCache.knowledge(ctx.sessionManager);
		const texts = [event.prompt, ...queuedTexts.splice(0)];
		const message = await prompts.forPrompt(view, knowledge, {
			texts,
			mode: controller.settings.context.mode,
			references,
		});
		if (!message) return;
		return { message: { customType: CONTEXT_MESSAGE_TYPE, ...message, display: true } };
	});

	pi.registerShortcut(REFERENCE_SHORTCUT, {
		description: "Insert a reference to the editor's selection (or cursor line) into the prompt",
		handler: (ctx) => {
			if (controller) insertEditorReference(ctx, controller);
		},
	});

	pi.on("tool_call", async (event, ctx) => {
		if (!controller?.settings.guardUnsaved.on) return;
		return guardUnsavedWrite(event, ctx, controller);
	});

	registerTranscriptLine(pi);

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

/** How references are read this session: against pi's cwd and home, with the session's secret-file rules. */
function referenceOptions(cwd: string, settings: IdeSettings) {
	return {
		cwd,
		home: homedir(),
		secretFile: secretFileMatcher(settings.secretFiles.patterns),
		redactSecrets: settings.redactSecrets.on,
	};
}
