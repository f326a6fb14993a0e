/**
 * Group 16's scenarios: inline suggestions through the real pi (RPC) connected to a pi-ide.nvim-like IDE server
 * (the fake of the end-to-end tests, in the bench process), answered by the offline fake model held a fixed time
 * per answer. Both fakes live in this process and stamp their moments with `performance.now()`: the IDE server
 * just before it sends `getSuggestions` and when pi's answer arrives, the model when pi's HTTP request reaches it,
 * just before its answer's last bytes and when pi closes an aborted request. Nothing else is subtracted.
 */
import { join } from "node:path";
import { E2eWorkspace } from "../support/e2e-workspace.ts";
import type { FakeIdeServer } from "../support/fake-ide-server.ts";
import { connectionOpen, idePiEnv, pickFirst, startIdeServer } from "../support/ide-server-e2e.ts";
import type { PiLine, PiSpawnOptions } from "../support/pi-cli.ts";
import { RpcPi } from "../support/rpc-pi.ts";
import { globalIdeSettings, suggestingModel } from "../support/suggestion-e2e.ts";
import { PI_START_TIMEOUT_MS, waitFor } from "../support/wait-for.ts";

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** The fake model's fixed latency: headers and every byte of each answer held this long. */
export const MODEL_LATENCY_MS = 100;
/** Between one answer and the next request (pi-ide.nvim debounces typing by 300 ms; pi's idle moments between). */
export const REQUEST_GAP_MS = 50;
/** A cancel is sent this long after the model's HTTP request arrived, well inside the model's latency. */
export const CANCEL_AFTER_MS = 20;

export type FieldsKind = "nvim" | "caps";

/** One TypeScript-like line of a 1 000-line file, ~40 characters. */
const codeLine = (n: number) => `\tconst value${n} = compute(value${n - 1}, ${n % 7});`;

/** An outline as pi-ide.nvim's treesitter one reads: one symbol a line, `chars` characters in all. */
function outline(chars: number): string {
	const lines: string[] = [];
	for (let n = 1; lines.join("\n").length < chars; n++)
		lines.push(`function handler${n}(request: Request, options: Options): Promise<Response> -- line ${n * 12}`);
	return lines.join("\n").slice(0, chars);
}

/** `count` lines ending at line `last`, cut at the front to `bytes` ASCII bytes when given. */
function linesUpTo(last: number, count: number): string {
	return Array.from({ length: count }, (_, i) => codeLine(last - count + 1 + i)).join("\n");
}

/**
 * The request's fields for request `n` (the cursor one line further each time, so no two are alike). `nvim`: as
 * pi-ide.nvim sends them, 20 lines before and 10 after, a 3 KB outline, an enclosing scope of 40 lines; `caps`:
 * every field at pi's cap (the cursor's context 8 KB each side, the outline 12 000 characters, the scope 4 000).
 */
export function suggestionFields(project: string, kind: FieldsKind, n: number): Record<string, unknown> {
	const cursorLine = 100 + n;
	const half = "\tconst answer = compute(";
	const base = { filePath: join(project, "src", "main.ts"), language: "typescript", suggestionCount: 3 };
	if (kind === "nvim")
		return {
			...base,
			outline: outline(3000),
			enclosingScope: `export function handler${n}() {\n${linesUpTo(cursorLine + 20, 40)}\n}`,
			cursorBefore: `${linesUpTo(cursorLine - 1, 20)}\n${half}`,
			cursorAfter: `);\n${linesUpTo(cursorLine + 10, 10)}`,
			cursorInComment: false,
		};
	return {
		...base,
		outline: outline(12_000),
		enclosingScope: linesUpTo(cursorLine + 50, 200).slice(0, 4000),
		cursorBefore: `${linesUpTo(cursorLine - 1, 300)}\n${half}`.slice(-8192),
		cursorAfter: `);\n${linesUpTo(cursorLine + 300, 300)}`.slice(0, 8192),
		cursorInComment: false,
	};
}

/** One answered request's moments: sent by the IDE server, reached the model, the model's end, answer back. */
export interface AnsweredTimes {
	/** Request sent -> the model's HTTP request arrived. */
	toModel: number;
	/** The model's last bytes -> the answer arrived at the IDE server. */
	toAnswer: number;
	/** The whole round trip, the model's latency in it. */
	roundTrip: number;
}

export interface SuggestionBench {
	line: PiLine;
	/** One `getSuggestions` of `kind`, answered with the model's suggestion. */
	answered: (kind: FieldsKind) => Promise<AnsweredTimes>;
	/** One request cancelled `CANCEL_AFTER_MS` after its model request arrived: cancel sent -> that request closed. */
	cancelled: () => Promise<number>;
	/**
	 * The hops alone, nothing of pi-ide's in them: a JSON-RPC ping from the IDE server answered by pi (a round
	 * trip over the same WebSocket), and an HTTP request of the same size as pi's made by the bench to the fake model
	 * with Node's fetch (sent -> arrived).
	 */
	floors: (count: number) => Promise<{ pingRoundTrip: number[]; benchFetch: number[] }>;
	/** The pi process's milliseconds from spawn to the connection open (the session's start before the rows). */
	startedInMs: number;
	stop: () => Promise<void>;
}

/**
 * pi of `line` in RPC mode on a fresh workspace, connected by hand (the `/ide` picker) to a pi-ide.nvim-like
 * server of the project, its suggestions on with a rate no request of the bench reaches; the fake model answers
 * each suggestion request after `MODEL_LATENCY_MS`. `extra`: more of pi's environment, a wrapper (a `--cpu-prof` run).
 */
export async function startSuggestionBench(
	line: PiLine,
	extra: Pick<PiSpawnOptions, "env" | "wrapper"> = {},
): Promise<SuggestionBench> {
	const ws = await E2eWorkspace.create();
	try {
		globalIdeSettings(ws, { suggestions: true, suggestionsPerMinute: 1_000_000 });
		ws.server.reply = suggestingModel;
		ws.server.delayMs = MODEL_LATENCY_MS;
		const server = await startIdeServer(ws, "pi-ide-nvim");
		const spawned = performance.now();
		const rpc = ws.stopLater(
			RpcPi.start(line, {
				cwd: ws.project,
				agentDir: ws.agentDir,
				stateDir: ws.stateDir,
				...extra,
				env: { ...idePiEnv(ws), ...extra.env },
			}),
		);
		await waitFor(
			"the server listed",
			async () => (await rpc.ideStatus()).join("\n").includes(`holds port ${server.port}`),
			PI_START_TIMEOUT_MS,
			100,
		);
		await pickFirst(rpc);
		await connectionOpen(rpc, server);
		const startedInMs = performance.now() - spawned;
		let n = 0;
		return {
			line,
			startedInMs,
			answered: async (kind) => {
				await sleep(REQUEST_GAP_MS);
				const index = ws.server.requests.length;
				const { sentAt, answeredAt, answer } = await timedAsk(server, suggestionFields(ws.project, kind, n++));
				const suggestions = (answer?.result as { suggestions?: string[] } | undefined)?.suggestions;
				if (!suggestions?.[0]?.startsWith("42")) throw new Error(`not answered: ${JSON.stringify(answer)}`);
				const timing = ws.server.timings[index];
				if (!timing?.endedAtMs) throw new Error("the model's answer was not timed");
				return {
					toModel: timing.arrivedAtMs - sentAt,
					toAnswer: answeredAt - timing.endedAtMs,
					roundTrip: answeredAt - sentAt,
				};
			},
			cancelled: async () => {
				await sleep(REQUEST_GAP_MS);
				const index = ws.server.requests.length;
				const aborts = ws.server.aborts.length;
				const id = server.nextAskId;
				const pending = timedAsk(server, suggestionFields(ws.project, "nvim", n++));
				const arrived = await waitFor("the model asked", () => ws.server.timings[index], 10_000, 1);
				await sleep(CANCEL_AFTER_MS - (performance.now() - arrived.arrivedAtMs));
				const cancelledAt = performance.now();
				server.notifyClients("request_cancelled", { id });
				const abort = await waitFor("the model's request closed", () => ws.server.aborts[aborts], 10_000, 1);
				const { answer } = await pending;
				const code = (answer?.error as { code?: number } | undefined)?.code;
				if (abort.index !== index || code !== -32800) throw new Error(`not cancelled: ${JSON.stringify(answer)}`);
				return abort.atMs - cancelledAt;
			},
			floors: async (count) => {
				const pingRoundTrip: number[] = [];
				const benchFetch: number[] = [];
				const body = JSON.stringify({
					model: "bench",
					stream: true,
					messages: [{ role: "user", content: "x".repeat(6000) }],
				});
				for (let i = 0; i < count; i++) {
					await sleep(REQUEST_GAP_MS);
					const pinged = performance.now();
					if (!(await server.pingClients()).every(Boolean)) throw new Error("pi did not answer the ping");
					pingRoundTrip.push(performance.now() - pinged);
					await sleep(REQUEST_GAP_MS);
					const index = ws.server.requests.length;
					const sent = performance.now();
					const response = await fetch(`${ws.server.baseUrl}/chat/completions`, { method: "POST", body });
					await response.text();
					benchFetch.push((ws.server.timings[index]?.arrivedAtMs ?? Number.NaN) - sent);
				}
				return { pingRoundTrip, benchFetch };
			},
			stop: () => ws.cleanup(),
		};
	} catch (error) {
		await ws.cleanup();
		throw error;
	}
}

/** `getSuggestions` sent by the fake; its moments around pi's answer. */
async function timedAsk(server: FakeIdeServer, params: Record<string, unknown>) {
	const sentAt = performance.now();
	const asked = server.askFirstClient("getSuggestions", params, 20_000);
	const { answer } = await asked;
	return { sentAt, answeredAt: performance.now(), answer };
}
