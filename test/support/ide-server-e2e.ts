import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { WebSocket } from "ws";
import type { E2eWorkspace } from "./e2e-workspace.ts";
import { FakeIdeServer, type FakeIdeServerOptions } from "./fake-ide-server.ts";
import type { IdeFlavour } from "./ide-server-flavours.ts";
import type { RpcPi } from "./rpc-pi.ts";
import { waitFor } from "./wait-for.ts";

/**
 * What the IDE server end-to-end tests share: a lock root of the test's own (pi reads `<root>/.claude/ide`
 * and `<root>/.pi/ide` there, never the developer's), the fake IDE server started in it for the project, the
 * environment pi runs in, and the other client that takes a one-client server from pi.
 */

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

/** Waits for pi's `count`th handshake; resolves with the time it was seen. */
export async function handshakeSeen(fake: FakeIdeServer, count = 1, timeoutMs = 10_000): Promise<number> {
	await waitFor(
		`pi's handshake #${count} with the ${fake.capabilities.serverName} fake`,
		() => handshakes(fake) >= count,
		timeoutMs,
	);
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
