import { join } from "node:path";
import type { E2eWorkspace } from "./e2e-workspace.ts";
import { type ChatRequest, messageText, type Reply } from "./fake-model-server.ts";
import { PACKAGE_ROOT, type PiLine } from "./pi-cli.ts";
import { RpcPi } from "./rpc-pi.ts";
import { waitFor } from "./wait-for.ts";

/** The test extension whose tools ask pi's user (`guarded`, `pick`, `named`): loaded with `-e` beside ours. */
export const QUESTION_EXTENSION = join(PACKAGE_ROOT, "test", "fixtures", "question-extension", "index.ts");

/** The real pi in RPC mode on the workspace, with the question model and the test extension; stopped after the test. */
export function questionPi(ws: E2eWorkspace, line: PiLine, env: Record<string, string> = {}): RpcPi {
	ws.server.reply = questionModel();
	return ws.stopLater(
		RpcPi.start(line, {
			cwd: ws.project,
			agentDir: ws.agentDir,
			stateDir: ws.stateDir,
			extraExtensions: [QUESTION_EXTENSION],
			env,
		}),
	);
}

/** The user messages since the model last spoke, joined: the prompt and pi-ide-context's own block after it. */
function lastUserText(request: ChatRequest): string {
	const texts: string[] = [];
	for (let index = request.messages.length - 1; request.messages[index]?.role === "user"; index--)
		texts.unshift(messageText(request.messages[index] as { content: unknown }));
	return texts.join("\n");
}

/**
 * A model for the question mirror: `guard a b` calls `guarded` once per name (sibling calls, asking at once),
 * `pick` calls `pick` with red/green/blue, `name me` calls `named`, `write <path>` writes "from the model"; once the tools answered, it says `done`
 * followed by their results. Anything else: "ok".
 */
export function questionModel(): Reply {
	return (request) => {
		const results = [];
		for (let index = request.messages.length - 1; request.messages[index]?.role === "tool"; index--)
			results.unshift(messageText(request.messages[index] as { content: unknown }));
		if (results.length > 0) return `done: ${results.join(", ")}`;
		const asked = lastUserText(request);
		const guard = /\bguard((?: [a-z0-9]+)+)/.exec(asked);
		if (guard)
			return {
				toolCalls: (guard[1] ?? "")
					.trim()
					.split(" ")
					.map((name) => ({ name: "guarded", arguments: { name } })),
			};
		if (/\bpick\b/.test(asked))
			return { toolCall: { name: "pick", arguments: { title: "Pick a colour", choices: ["red", "green", "blue"] } } };
		if (/\bname me\b/.test(asked)) return { toolCall: { name: "named", arguments: {} } };
		const write = /\bwrite ([\w./-]+)/.exec(asked);
		if (write) return { toolCall: { name: "write", arguments: { path: write[1], content: "from the model\n" } } };
		return "ok";
	};
}

/** The question window takes keys once armed (it ignores them for its first half second). */
export const questionArmed = (nvim: { lua: (code: string) => Promise<unknown> }) =>
	waitFor(
		"Neovim's question window armed",
		async () =>
			(await nvim.lua("local Q = package.loaded.pi_ide_questions return Q and Q.shown and Q.shown.armed or false")) ===
			true,
		5000,
		20,
	);
