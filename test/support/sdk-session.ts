import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { type Context, fauxAssistantMessage, registerFauxProvider } from "@mariozechner/pi-ai";
import {
	type AgentSession,
	AuthStorage,
	createAgentSession,
	createEventBus,
	DefaultResourceLoader,
	type EventBus,
	ModelRegistry,
	SessionManager,
} from "@mariozechner/pi-coding-agent";
import { PACKAGE_ROOT } from "./pi-cli.ts";

export interface SdkSession {
	session: AgentSession;
	/** The bus the extension was given as `pi.events`. */
	events: EventBus;
	/** System prompt and messages of every model call. */
	contexts: Pick<Context, "systemPrompt" | "messages">[];
	shutdown(): Promise<void>;
}

/**
 * The real extension entry loaded into a real pi AgentSession (SDK), with pi-ai's faux provider capturing
 * the context of every model call. `PI_IDE_STATE_DIR` must point at the test's state dir.
 */
export async function startSdkSession(options: {
	cwd: string;
	agentDir: string;
	extensionPath?: string;
	bind?: boolean;
}): Promise<SdkSession> {
	mkdirSync(options.agentDir, { recursive: true });
	const faux = registerFauxProvider();
	const contexts: SdkSession["contexts"] = [];
	faux.setResponses(
		Array.from({ length: 20 }, () => (context: Context) => {
			// Tools hold functions; keep what the model would see as text.
			contexts.push({ systemPrompt: context.systemPrompt, messages: JSON.parse(JSON.stringify(context.messages)) });
			return fauxAssistantMessage("ok");
		}),
	);
	const authStorage = AuthStorage.inMemory();
	const model = faux.getModel();
	authStorage.setRuntimeApiKey(model.provider, "faux-key");
	const events = createEventBus();
	const loader = new DefaultResourceLoader({
		eventBus: events,
		cwd: options.cwd,
		agentDir: options.agentDir,
		additionalExtensionPaths: [options.extensionPath ?? PACKAGE_ROOT],
		noSkills: true,
		noPromptTemplates: true,
		noThemes: true,
		noContextFiles: true,
	});
	await loader.reload();
	const { session } = await createAgentSession({
		cwd: options.cwd,
		agentDir: options.agentDir,
		authStorage,
		modelRegistry: ModelRegistry.create(authStorage, join(options.agentDir, "models.json")),
		model,
		resourceLoader: loader,
		sessionManager: SessionManager.inMemory(),
	});
	// `bind: false` leaves session_start to the caller (the startup benchmark times it).
	if (options.bind !== false) await session.bindExtensions({});
	return {
		session,
		events,
		contexts,
		shutdown: async () => {
			await session.extensionRunner.emit({ type: "session_shutdown", reason: "quit" } as never);
			session.dispose();
			faux.unregister();
		},
	};
}

/** The text of a context message, whatever shape its content has. */
export function contentText(message: { content?: unknown }): string {
	const { content } = message;
	if (typeof content === "string") return content;
	if (Array.isArray(content)) return content.map((part) => (part?.type === "text" ? part.text : "")).join("");
	return "";
}
