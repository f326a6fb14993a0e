/**
 * pi-ide-context: the editor's file, cursor and fresh selection in every prompt, a one-line widget showing
 * what pi sees, `@path#L3-9` references, and `/ide` to pick an editor. This file only wires pi to the features:
 *
 * | pi event / registration | module                                                                      |
 * | ----------------------- | --------------------------------------------------------------------------- |
 * | `session_start`         | connection/controller.ts starts the sources (editors/), the widget (ui/);    |
 * |                         | suggestions/suggestion-service.ts answers editors' `getSuggestions`;       |
 * |                         | questions/ wraps `ctx.ui`: a run's dialogs shown in the editor that asked  |
 * |                         | pi-bridge/ serves pi-bridge.nvim's socket (its prompts, approvals, questions) |
 * | `session_shutdown`      | the same, closed and awaited (pi-bridge's socket only when pi quits)        |
 * | `--pi-ide-suggestion-model` | the flag, read at `session_start`: the suggestions' model              |
 * | `input`                 | text queued while the agent works: its references go with the next prompt;   |
 * |                         | an editor's ask (asks/ask-service.ts) loses its token                         |
 * | run and message events  | asks/pi-events.ts: the editor that asked sees pi work, the reply, `pi: done`  |
 * | `before_agent_start`    | prompt/message-builder.ts: the editor block and references, one message     |
 * | `tool_call`             | safety/unsaved-guard.ts blocks a write of a file with unsaved changes, then |
 * |                         | review/review-gate.ts shows the change in the editor and asks (review on)   |
 * | `tool_result`           | connection/model-writes.ts: the model's write shown in the connected editor |
 * |                         | (a Neovim, an Emacs: its source reloads it); a reviewed change the user     |
 * |                         | edited tells the model so (review/review-gate.ts)                           |
 * | `turn_end`              | the review forgets what the message's accepted calls left pending            |
 * | an IDE's "send to agent" | references/shortcut.ts `mentionText`, put in pi's input by ui/widget-surface.ts |
 * | `/ide`                  | ui/ide-command.ts: picker, `all`, `off`, `status`, `review on|off`,         |
 * |                         | `suggestions on|off`                                                        |
 * | ctrl+alt+k, `@` completion | references/shortcut.ts, references/completion.ts                         |
 * | message renderer        | ui/transcript-line.ts: the dim line under each prompt                       |
 *
 * Features depend in this order, each with its pure rules in its own `core/` (docs/development.md):
 * events → shared → settings → editors → safety → connection → review → suggestions → references → prompt → asks
 * → questions → pi-bridge → ui → index.
 */
import type { ExtensionAPI, ExtensionContext, ToolCallEvent } from "@mariozechner/pi-coding-agent";
import type { AskService } from "./asks/ask-service.ts";
import { withAskedFrom } from "./asks/core/ask-texts.ts";
import { wireAskEvents } from "./asks/pi-events.ts";
import { askServiceOf } from "./asks/session-asks.ts";
import { IdeController } from "./connection/controller.ts";
import { showModelWrite } from "./connection/model-writes.ts";
import { editorSourcesOf } from "./connection/sources-config.ts";
import { processFactsOfThisPi } from "./editors/processes/system-facts.ts";
import { plannedStateDirs } from "./editors/state-dir/state-dir.ts";
import { EDITOR_EVENT_CHANNEL } from "./events.ts";
import { wireBridgeEvents } from "./pi-bridge/bridge-events.ts";
import { type SessionBridge, sessionBridge } from "./pi-bridge/session-bridge.ts";
import { CONTEXT_MESSAGE_TYPE } from "./prompt/core/context-message.ts";
import { NO_KNOWLEDGE } from "./prompt/core/model-knowledge.ts";
import { KnowledgeCache } from "./prompt/knowledge-cache.ts";
import { MessageBuilder, prepareDiagnostics, prepareSelection } from "./prompt/message-builder.ts";
import { type SessionQuestions, sessionQuestions } from "./questions/session-questions.ts";
import { withSelectionReference } from "./references/completion.ts";
import { referenceOptions } from "./references/session-options.ts";
import {
	type EditorInProject,
	insertEditorReference,
	mentionText,
	REFERENCE_SHORTCUT,
	selectionReference,
} from "./references/shortcut.ts";
import { SessionReview } from "./review/session-review.ts";
import { guardUnsavedWrite } from "./safety/unsaved-guard.ts";
import { suggestionsPerMinute } from "./settings/core/settings.ts";
import { readSettings, settingsFiles, settingsWarnings } from "./settings/settings-files.ts";
import { systemClock } from "./shared/clock.ts";
import { editorName } from "./shared/core/display-text.ts";
import { connectionMemory } from "./shared/process-memory.ts";
import { SUGGESTIONS_PER_MINUTE_DEFAULT } from "./suggestions/core/rate-limit.ts";
import { modelAccessOf, modelRefOf } from "./suggestions/model-call.ts";
import { suggestionRedaction } from "./suggestions/redacted-request.ts";
import { suggestionStandingNow } from "./suggestions/standing.ts";
import { SuggestionService } from "./suggestions/suggestion-service.ts";
import { ideCommandConnection, registerIdeCommand } from "./ui/ide-command-connection.ts";
import { registerTranscriptLine } from "./ui/transcript-line.ts";
import { WidgetSurface } from "./ui/widget-surface.ts";

/**
 * Benchmark only: send the whole block with every prompt, as 0.1 did, to measure what send-once saves. Not a
 * user setting: it costs tokens and buys nothing.
 */
const SEND_EVERY_PROMPT = process.env.PI_IDE_BENCH_SEND_EVERY_PROMPT === "1";

export { EDITOR_EVENT_CHANNEL, type EditorEvent } from "./events.ts";

/** `--pi-ide-suggestion-model <provider>/<id>`: the suggestions' model, over the editor's and the settings'. */
const SUGGESTION_MODEL_FLAG = "pi-ide-suggestion-model";

export default function piIdeContext(pi: ExtensionAPI): void {
	let controller: IdeController | undefined;
	let widget: WidgetSurface | undefined;
	let messages: MessageBuilder | undefined;
	let references: ReturnType<typeof referenceOptions> | undefined;
	let review: SessionReview | undefined;
	let suggestions: SuggestionService | undefined;
	let asks: AskService | undefined;
	let questions: SessionQuestions | undefined;
	let bridge: SessionBridge | undefined;
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
		// A broken settings file turned the user's choices back to defaults: said once (print mode has no UI).
		if (ctx.hasUI) for (const warning of settingsWarnings(settings)) ctx.ui.notify(warning, "warning");
		const sessionReferences = referenceOptions(ctx.cwd, settings);
		// Built first, so the editors' side can be handed `suggestions.forEditors()`; `ctx` is this session's own.
		const flag = pi.getFlag(SUGGESTION_MODEL_FLAG);
		suggestions = new SuggestionService({
			standing: () => suggestionStandingNow(settings.suggestions),
			perMinute: () => suggestionsPerMinute(settings.suggestionsPerMinute, SUGGESTIONS_PER_MINUTE_DEFAULT),
			flagModel: () => (typeof flag === "string" ? flag : undefined),
			sessionModel: () => modelRefOf(ctx.model),
			models: modelAccessOf(ctx.modelRegistry),
			isSecretFile: sessionReferences.secretFile,
			redact: suggestionRedaction(settings.redactSecrets.on),
			clock: systemClock,
			notify: (message) => {
				if (ctx.hasUI && !stopped(surface)) ctx.ui.notify(message, "info");
			},
		});
		asks = askServiceOf(pi, ctx, {
			on: settings.asks.on,
			placeholders: { ...sessionReferences, projectDir: ctx.cwd },
			controller: () => controller,
			insert: (text) => {
				if (stopped(surface)) return false;
				surface.insert(text);
				return true;
			},
			questionReplied: (editor, reply) => questions?.mirror.replied(editor, reply),
		});
		const asking = asks;
		questions = sessionQuestions(ctx, settings, () => asking.runEditors());
		controller = new IdeController(
			{
				stateDirs,
				cwd: ctx.cwd,
				uid,
				environment: {
					XDG_RUNTIME_DIR: process.env.XDG_RUNTIME_DIR,
					TMPDIR: process.env.TMPDIR,
					PI_IDE_STATE_DIR: process.env.PI_IDE_STATE_DIR,
					TERM_PROGRAM: process.env.TERM_PROGRAM,
				},
				memory: connectionMemory(stateDirs.map((dir) => dir.path).join("\u0000"), ctx.cwd),
				settings,
				reviewOn: () => review?.standing().on ?? false,
				settingsFiles: files,
				...editorSourcesOf(settings, files, uid, process.env, processFactsOfThisPi()),
			},
			{
				showWidget: (text) => surface.show(text),
				announce: (editor) => pi.events.emit(EDITOR_EVENT_CHANNEL, editor),
				notify: (message, level) => {
					if (ctx.hasUI && !stopped(surface)) ctx.ui.notify(message, level);
				},
				// This session's surface and input: a mention after `/new` goes to the new session's controller.
				mentioned: (mention) => {
					if (stopped(surface) || !controller) return;
					const inputBefore = ctx.ui.getEditorText();
					surface.insert(mentionText(mention, { cwd: ctx.cwd, projectDir: controller.project, inputBefore }));
				},
				requests: suggestions.forEditors(),
				asks: asks.forEditors(),
			},
		);
		const started = controller;
		references = sessionReferences;
		review = new SessionReview({
			setting: settings.review,
			printMode: !ctx.hasUI,
			connected: () => {
				const editor = started.connectedEditor();
				return { channel: started.connectedChannel(), editorName: editor ? editorName(editor) : "no editor" };
			},
			guard: (event, toolCtx) => guardIfOn(started, event, toolCtx),
			rpc: () => surface.isRpc,
			clock: systemClock,
			isSecretFile: (file) => sessionReferences.secretFile([file]) !== undefined,
			mirror: questions.choices,
			approvals: () => bridge?.approvals,
			changed: () => started.refreshWidget(),
		});
		messages = new MessageBuilder(
			() => started.project,
			prepareSelection({ redactSecrets: settings.redactSecrets.on }),
			prepareDiagnostics({ redactSecrets: settings.redactSecrets.on }),
		);
		await controller.start();
		const prompt = { ...sessionReferences, projectDir: ctx.cwd };
		const [sessionAsks, mirror] = [asks, questions];
		const made = await sessionBridge(ctx, settings, { asks: sessionAsks, mirror, prompt, environment: process.env });
		// The session ended while the socket bound: it stays for the next one (at exit it goes), detached from this.
		if (stopped(surface)) await made.close(false);
		else bridge = made;
	}

	/** `quitting`: pi ends (not `/new`, a switch, `/reload`): what outlives sessions goes too. */
	async function stop(quitting: boolean): Promise<void> {
		const [closing, reviewing, suggesting, bridging] = [controller, review, suggestions, bridge];
		bridge = undefined;
		questions?.close();
		questions = undefined;
		asks?.close();
		asks = undefined;
		controller = undefined;
		messages = undefined;
		references = undefined;
		review = undefined;
		suggestions = undefined;
		widget?.dispose();
		widget = undefined;
		await Promise.all([reviewing?.gate.close(), suggesting?.close(), bridging?.close(quitting)]);
		await closing?.stop();
	}

	const stopped = (surface: WidgetSurface) => widget !== surface;

	/** The connected editor for ctrl+alt+k and `@` completion, read from the controller of the moment. */
	const editorInProject = (): EditorInProject | undefined => {
		const editor = controller?.connectedEditor();
		return controller && editor && { editor, projectDir: controller.project };
	};

	pi.on("session_start", async (_event, ctx) => {
		await start(ctx);
		// A provider left from an earlier session reads the controller of the moment, so it offers nothing stale.
		if (ctx.hasUI)
			ctx.ui.addAutocompleteProvider((current) =>
				withSelectionReference(current, () => selectionReference(editorInProject(), ctx.cwd)),
			);
	});

	pi.on("session_shutdown", async (event) => {
		await stop(event.reason === "quit");
	});

	// Text typed while the agent works is queued by pi and starts no run: its references go with the next prompt.
	// An ask from the editor carries its lines already: its token comes off and its text is not queued.
	pi.on("input", (event, ctx) => {
		const ask = asks?.input(event.text, ctx.isIdle());
		if (ask !== undefined) return { action: "transform", text: ask };
		if (!ctx.isIdle()) queuedTexts.push(event.text);
	});

	pi.on("before_agent_start", async (event, ctx) => {
		// pi 1.x also starts runs from custom messages; editor context belongs to what the user asked.
		if (!("prompt" in event) || !controller || !messages || !references) return;
		const view = await controller.viewAfterPendingRead();
		// What the model already holds, from the session itself: right after /new, /fork, /resume or a compaction.
		const knowledge = SEND_EVERY_PROMPT ? NO_KNOWLEDGE : knowledgeCache.knowledge(ctx.sessionManager);
		const from = asks?.promptFrom(event.prompt);
		const texts = from === undefined ? [event.prompt, ...queuedTexts.splice(0)] : queuedTexts.splice(0);
		const built = await messages.forPrompt(view, knowledge, {
			texts,
			mode: controller.settings.context.mode,
			references,
			// An ask carries what the user pointed at (its @this); the block adds no selection of its own.
			withSelection: from === undefined,
		});
		const message = from === undefined ? built : withAskedFrom(built, from);
		if (!message) return;
		return { message: { customType: CONTEXT_MESSAGE_TYPE, ...message, display: true } };
	});

	pi.registerShortcut(REFERENCE_SHORTCUT, {
		description: "Insert a reference to the editor's selection (or cursor line) into the prompt",
		handler: (ctx) => insertEditorReference(ctx, editorInProject()),
	});

	pi.on("tool_call", async (event, ctx) => {
		const [guarding, reviewing] = [controller, review];
		if (!guarding) return;
		const blocked = await guardIfOn(guarding, event, ctx);
		return blocked ?? reviewing?.gate.toolCall(event, ctx);
	});

	pi.on("tool_result", (event, ctx) => {
		const writing = controller;
		if (writing)
			showModelWrite(event, ctx.cwd, (path) => {
				asks?.fileChanged(path);
				return writing.afterModelWrite(path);
			});
		return review?.gate.toolResult(event);
	});

	pi.on("turn_end", () => {
		review?.gate.turnEnded();
	});

	registerTranscriptLine(pi);
	wireAskEvents(pi, () => asks);
	wireBridgeEvents(pi, () => bridge?.broadcast);

	pi.registerFlag(SUGGESTION_MODEL_FLAG, {
		type: "string",
		description: "The model of inline suggestions for editors that ask (<provider>/<id>), over the editor's choice",
	});

	registerIdeCommand(pi, async (ctx) => {
		if (!controller) await start(ctx);
		if (!controller || !review || !suggestions || !asks || !questions) return undefined;
		const [asking, mirror, bridging] = [asks, questions.mirror, bridge];
		const status = [() => asking.statusLines(), () => mirror.statusLines(), () => bridging?.statusLines() ?? []];
		return ideCommandConnection(controller, review, suggestions, status);
	});
}

/** The unsaved guard when it is on (safety/unsaved-guard.ts), on the connected editor's latest word. */
function guardIfOn(controller: IdeController, event: ToolCallEvent, ctx: ExtensionContext) {
	if (!controller.settings.guardUnsaved.on) return Promise.resolve(undefined);
	return guardUnsavedWrite(event, ctx, (target) => controller.unsavedAfterPendingRead(target));
}
