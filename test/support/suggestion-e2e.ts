import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { E2eWorkspace } from "./e2e-workspace.ts";
import type { FakeIdeServer } from "./fake-ide-server.ts";
import { type ChatRequest, messageText } from "./fake-model-server.ts";
import { FAKE_MODEL, FAKE_PROVIDER } from "./pi-cli.ts";

/** A second model of the fake provider: the one a flag or a request names. */
export const OTHER_MODEL = "other";

/** Whether a model request is a suggestion's (its system prompt asks for <SUGGESTION> blocks). */
export const isSuggestionRequest = (request: ChatRequest) =>
	request.messages.some((message) => message.role !== "user" && messageText(message).includes("<SUGGESTION>"));

/** The fake model: one <SUGGESTION> block naming the model asked, "ok" to every prompt of the agent. */
export function suggestingModel(request: ChatRequest): string {
	return isSuggestionRequest(request) ? `<SUGGESTION>42 /* ${request.model} */</SUGGESTION>` : "ok";
}

/** The suggestion requests the fake model got. */
export const suggestionRequests = (ws: E2eWorkspace) => ws.server.requests.filter(isSuggestionRequest);

/** models.json with the session's model and a second one, both on the fake server. */
export function writeTwoModels(ws: E2eWorkspace): void {
	const model = (id: string) => ({
		id,
		name: id,
		reasoning: false,
		input: ["text"],
		contextWindow: 128000,
		maxTokens: 4096,
		cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
	});
	writeFileSync(
		join(ws.agentDir, "models.json"),
		JSON.stringify({
			providers: {
				[FAKE_PROVIDER]: {
					baseUrl: ws.server.baseUrl,
					api: "openai-completions",
					apiKey: "fake-key",
					models: [model(FAKE_MODEL), model(OTHER_MODEL)],
				},
			},
		}),
	);
}

/** pi's global settings (the agent dir's settings.json) with `"pi-ide": ide`. */
export function globalIdeSettings(ws: E2eWorkspace, ide: Record<string, unknown>): void {
	mkdirSync(ws.agentDir, { recursive: true });
	writeFileSync(join(ws.agentDir, "settings.json"), JSON.stringify({ quietStartup: true, "pi-ide": ide }));
}

/** A getSuggestions request as pi-ide.nvim sends it (20 lines before, 10 after, its own extra field). */
export function suggestionAsk(ws: E2eWorkspace, changes: Record<string, unknown> = {}): Record<string, unknown> {
	return {
		filePath: join(ws.project, "src", "main.ts"),
		language: "typescript",
		cursorBefore: "line1\nconst answer = ",
		cursorAfter: "\nline3\n",
		suggestionCount: 3,
		cursorInComment: false,
		...changes,
	};
}

/** What the fake IDE server got back for `params`: the result's suggestions, or the error. */
export async function ask(
	server: FakeIdeServer,
	params: Record<string, unknown>,
	method = "getSuggestions",
): Promise<{ suggestions?: string[]; error?: { code: number; message: string }; result?: unknown }> {
	const { answer } = await server.askFirstClient(method, params, 10_000);
	if (!answer) throw new Error(`no answer to ${method}`);
	const result = answer.result as { suggestions?: string[] } | undefined;
	return {
		...(result?.suggestions && { suggestions: result.suggestions }),
		...(answer.error !== undefined && { error: answer.error as { code: number; message: string } }),
		result: answer.result,
	};
}
