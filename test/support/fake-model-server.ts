import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface ChatRequest {
	model: string;
	messages: { role: string; content: unknown }[];
	[key: string]: unknown;
}

export type Reply = (request: ChatRequest) => string | ToolCallReply;

export interface FakeModelServer {
	baseUrl: string;
	requests: ChatRequest[];
	/** What the next requests are answered with; a test may change it before it starts pi. */
	reply: Reply;
	/** Hold each answer this long (a model still thinking), so a test can type while the agent runs. */
	delayMs: number;
	/**
	 * The requests whose client hung up before the answer ended (an aborted model call): the request's index in
	 * `requests` and when its connection closed (`performance.now()`).
	 */
	aborts: { index: number; atMs: number }[];
	/**
	 * Each request's times by its index in `requests` (`performance.now()`): when its HTTP request reached the
	 * server (its handler called) and just before the answer's last bytes were handed to the socket (undefined until then).
	 */
	timings: { arrivedAtMs: number; endedAtMs?: number }[];
	close(): Promise<void>;
}

/** Text of one chat message, whether its content is a string or OpenAI content parts. */
export function messageText(message: { content: unknown }): string {
	if (typeof message.content === "string") return message.content;
	if (Array.isArray(message.content)) {
		return message.content.map((part) => (typeof part?.text === "string" ? part.text : "")).join("");
	}
	return "";
}

async function readBody(request: IncomingMessage): Promise<string> {
	const chunks: Buffer[] = [];
	for await (const chunk of request) chunks.push(chunk as Buffer);
	return Buffer.concat(chunks).toString("utf8");
}

/**
 * A tiny OpenAI-compatible chat-completions server on 127.0.0.1 (random free port) that records every
 * request body and streams `reply(request)` back as SSE: text, or one tool call.
 */
/** A reply that calls one tool (or several, siblings of one message) instead of answering with text. */
export type ToolCallReply =
	| { toolCall: { name: string; arguments: Record<string, unknown> } }
	| { toolCalls: { name: string; arguments: Record<string, unknown> }[] };

/**
 * A model that writes `path` with `content` when the last prompt asks it to (`write <path>`, or `asked`), then
 * answers with text once the tool result is back; "ok" to anything else.
 */
export function writerModel(path: string, content = "from the model\n", asked = `write ${path}`): Reply {
	return (request) => {
		if (request.messages.at(-1)?.role === "tool") return "done";
		const wanted = request.messages.some((message) => messageText(message) === asked);
		return wanted ? { toolCall: { name: "write", arguments: { path, content } } } : "ok";
	};
}

export async function startFakeModelServer(reply: Reply = () => "ok"): Promise<FakeModelServer> {
	const requests: ChatRequest[] = [];
	let fake: FakeModelServer | undefined;
	const server: Server = createServer(async (request, response) => {
		const arrivedAtMs = performance.now();
		const body = await readBody(request);
		if (request.method !== "POST" || !request.url?.endsWith("/chat/completions")) {
			response.writeHead(404).end();
			return;
		}
		const parsed = JSON.parse(body) as ChatRequest;
		requests.push(parsed);
		const index = requests.length - 1;
		const timing: { arrivedAtMs: number; endedAtMs?: number } = { arrivedAtMs };
		if (fake) fake.timings[index] = timing;
		response.on("close", () => {
			if (!response.writableFinished) fake?.aborts.push({ index, atMs: performance.now() });
		});
		const chunk = (delta: object, finish: string | null) =>
			`data: ${JSON.stringify({
				id: "chatcmpl-fake",
				object: "chat.completion.chunk",
				created: 0,
				model: parsed.model,
				choices: [{ index: 0, delta, finish_reason: finish }],
			})}\n\n`;
		response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
		if (fake?.delayMs) await new Promise((done) => setTimeout(done, fake?.delayMs));
		if (response.destroyed) return;
		const answer = (fake?.reply ?? reply)(parsed);
		if (typeof answer === "string") {
			response.write(chunk({ role: "assistant", content: answer }, null));
			response.write(chunk({}, "stop"));
		} else {
			const calls = ("toolCalls" in answer ? answer.toolCalls : [answer.toolCall]).map((call, index) => ({
				index,
				id: `call_${requests.length}_${index}`,
				type: "function",
				function: { name: call.name, arguments: JSON.stringify(call.arguments) },
			}));
			response.write(chunk({ role: "assistant", content: null, tool_calls: calls }, null));
			response.write(chunk({}, "tool_calls"));
		}
		response.write(
			`data: ${JSON.stringify({ id: "chatcmpl-fake", object: "chat.completion.chunk", created: 0, model: parsed.model, choices: [], usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } })}\n\n`,
		);
		timing.endedAtMs = performance.now();
		response.end("data: [DONE]\n\n");
	});
	await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
	const { port } = server.address() as AddressInfo;
	fake = {
		baseUrl: `http://127.0.0.1:${port}/v1`,
		requests,
		reply,
		delayMs: 0,
		aborts: [],
		timings: [],
		close: () =>
			new Promise<void>((done) => {
				server.closeAllConnections();
				server.close(() => done());
			}),
	};
	return fake;
}
