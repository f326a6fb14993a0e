import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { expect } from "vitest";
import { WebSocket } from "ws";
import type { E2eWorkspace } from "./e2e-workspace.ts";
import { FakeIdeServer, type FakeIdeServerOptions } from "./fake-ide-server.ts";
import type { IdeFlavour } from "./ide-server-flavours.ts";
import type { PiLine } from "./pi-cli.ts";
import { RpcPi } from "./rpc-pi.ts";
import { waitFor } from "./wait-for.ts";

/**
 * What the IDE server end-to-end tests share: a lock root of the test's own (pi reads `<root>/.claude/ide`
 * and `<root>/.pi/ide` there, never the developer's), the fake IDE server started in it for the project, the
 * environment pi runs in, and the other client that takes a one-client server from pi; what the RPC tests read
 * of pi (the editor block, `/ide status`, the picker).
 */

/** The workspace's src/main.ts, as E2eWorkspace writes it. */
export const MAIN_TEXT = "line1\nline2\nline3\nline4\nline5\nline6\n";
export const FULL_HEADER = `The user's editor state as of this prompt ("this file", "here" and "the selection" refer to it).`;
export const DELTA_HEADER =
	"The user's editor changed since the previous editor context; only these lines differ, the rest is as it was:";

export const lockRoot = (ws: E2eWorkspace) => join(ws.root, "home");
export const claudeLockDir = (ws: E2eWorkspace) => join(lockRoot(ws), ".claude", "ide");

/** A fake IDE server whose lockfile names the project as its first workspace folder; stopped with the workspace. */
export async function startIdeServer(
	ws: E2eWorkspace,
	flavour: IdeFlavour,
	options: Partial<FakeIdeServerOptions> = {},
): Promise<FakeIdeServer> {
	const fake = await FakeIdeServer.start({
		flavour,
		lockDir: claudeLockDir(ws),
		workspaceFolders: [ws.project],
		...options,
	});
	ws.defer(() => fake.stop());
	return fake;
}

/** pi's environment: this test's lock root; no Neovim or Zed of the machine read; no enclosing IDE. */
export function idePiEnv(ws: E2eWorkspace): Record<string, string> {
	const tmp = join(ws.root, "tmp");
	mkdirSync(tmp, { recursive: true });
	return {
		PI_IDE_TEST_LOCK_ROOT: lockRoot(ws),
		PI_IDE_TEST_PROC_SCOPE: `ide-servers-e2e-${process.pid}-${ws.root.split("-").at(-1)}`,
		CLAUDE_CODE_SSE_PORT: "",
		CLAUDE_CONFIG_DIR: "",
		PI_IDE_LOCK_DIR: "",
		TMPDIR: tmp,
		XDG_RUNTIME_DIR: "",
		NVIM: "",
	};
}

/** How many times pi finished the handshake with the fake (its `ide_connected` notifications). */
export function handshakes(fake: FakeIdeServer): number {
	return fake.received.filter((received) => received.message?.method === "ide_connected").length;
}

/** How many times pi called the fake's tool `name`. */
export function toolCalls(fake: FakeIdeServer, name: string): number {
	return fake.received.filter(
		(received) => received.message?.method === "tools/call" && received.message.params?.name === name,
	).length;
}

/**
 * Waits for pi's `count`th handshake; resolves with the time it was seen. A timeout says what pi's `/ide status`
 * and stderr said instead, when the pi is given.
 */
export async function handshakeSeen(fake: FakeIdeServer, count = 1, timeoutMs = 10_000, rpc?: RpcPi): Promise<number> {
	const what = `pi's handshake #${count} with the ${fake.capabilities.serverName} fake`;
	try {
		await waitFor(what, () => handshakes(fake) >= count, timeoutMs);
	} catch (error) {
		if (!rpc) throw error;
		const status = await rpc.ideStatus().catch((reason: unknown) => [`(no /ide status: ${String(reason)})`]);
		throw new Error([String(error), ...status, `stderr: ${rpc.stderr().slice(-2000)}`].join("\n"));
	}
	return Date.now();
}

/** Another agent's client (a Claude CLI) connecting with the lockfile's token: a one-client server drops pi for it. */
export async function otherClient(fake: FakeIdeServer): Promise<WebSocket> {
	const headers = fake.token === undefined ? {} : { "x-claude-code-ide-authorization": fake.token };
	const socket = new WebSocket(`ws://127.0.0.1:${fake.port}`, ["mcp"], { headers });
	await new Promise<void>((done, fail) => {
		socket.once("open", () => done());
		socket.once("error", fail);
	});
	socket.on("error", () => {});
	return socket;
}

/** Waits until pi has raised `notice` `count` times; a timeout lists the notices it raised instead. */
export async function waitForNotice(rpc: RpcPi, notice: string, count = 1, timeoutMs = 5000): Promise<void> {
	const seen = () => rpc.notices().filter((raised) => raised === notice).length;
	await waitFor(`the notice "${notice}" (#${count})`, () => seen() >= count, timeoutMs).catch((error: unknown) => {
		throw new Error(`${String(error)}\nnotices raised: ${JSON.stringify(rpc.notices(), null, 1)}`);
	});
}

export const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** The real pi in RPC mode on the workspace, in this test's lock root; stopped with the workspace. */
export function startIdePi(ws: E2eWorkspace, line: PiLine): RpcPi {
	return ws.stopLater(
		RpcPi.start(line, { cwd: ws.project, agentDir: ws.agentDir, stateDir: ws.stateDir, env: idePiEnv(ws) }),
	);
}

/** The lines of the editor block the last prompt carried, between its tags. */
export function editorBlock(ws: E2eWorkspace): string[] {
	const context = ws.lastContext();
	const open = context.lastIndexOf("<editor-context>\n");
	const close = context.lastIndexOf("\n</editor-context>");
	if (open < 0 || close < open) throw new Error(`no editor block in: ${context.slice(-2000)}`);
	return context.slice(open + "<editor-context>\n".length, close).split("\n");
}

/** `/ide status`, checked never to hold the server's token. */
export async function statusOf(rpc: RpcPi, fake: FakeIdeServer): Promise<string> {
	const text = (await rpc.ideStatus()).join("\n");
	expect(text).not.toContain(fake.token);
	return text;
}

/** Until `/ide status` lists the fake's lockfile as usable. */
export function lockfileListed(rpc: RpcPi, fake: FakeIdeServer, timeoutMs: number): Promise<string> {
	return waitFor(
		"the lockfile read",
		async () => {
			const text = await statusOf(rpc, fake);
			return text.includes(`holds port ${fake.port}\n`) && text;
		},
		timeoutMs,
	);
}

/** Until `/ide status` says the connection is open (its handshake and first queries done). */
export function connectionOpen(rpc: RpcPi, fake: FakeIdeServer): Promise<string> {
	return waitFor("the connection open", async () => {
		const text = await statusOf(rpc, fake);
		return text.includes(`holds port ${fake.port}\n`) && /\n {4}connected; unsaved guard: /.test(text) && text;
	});
}

/** `/ide` answered with its first row (RPC: pi's select); returns the rows offered. */
export async function pickFirst(rpc: RpcPi): Promise<string[]> {
	const before = rpc.uiRequests("select").length;
	rpc.send({ type: "prompt", message: "/ide" });
	const request = await waitFor("the /ide picker", () => rpc.uiRequests("select")[before], 10_000);
	const options = request.options as string[];
	rpc.respond(String(request.id), { value: options[0] });
	return options;
}
