import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, describe, expect, test } from "vitest";
import { WebSocket } from "ws";
import { CleanupScope } from "./cleanup-scope.ts";
import { FakeIdeServer, type FakeIdeServerOptions } from "./fake-ide-server.ts";
import { canRunAsNobody, startFakeIdeServerAs } from "./fake-ide-server-child.ts";
import { FLAVOURS, type IdeFlavour } from "./ide-server-flavours.ts";
import { tempDir } from "./temp-dir.ts";
import { waitFor } from "./wait-for.ts";

/** The fakes are what ide-server-flavours.ts says, seen from a plain `ws` client. */

const CLAUDE_HEADER = "x-claude-code-ide-authorization";
const ALL = Object.keys(FLAVOURS) as IdeFlavour[];
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

interface Peer {
	socket: WebSocket;
	// biome-ignore lint/suspicious/noExplicitAny: what the server sent, read by each test.
	inbox: any[];
	closed: Promise<{ code: number; reason: string }>;
	request(method: string, params?: object): Promise<{ result?: unknown; error?: { code: number } }>;
	notification(method: string): Promise<{ params: unknown }>;
}

const scope = new CleanupScope();
afterEach(() => scope.close());

async function serve(flavour: IdeFlavour, options: Partial<FakeIdeServerOptions> = {}) {
	const root = tempDir("fake-ide");
	scope.defer(root.cleanup);
	const server = await FakeIdeServer.start({
		flavour,
		lockDir: join(root.path, "ide"),
		workspaceFolders: [root.path],
		...options,
	});
	scope.defer(() => server.stop());
	return { server, root: root.path };
}

/** A WebSocket to the port: the open peer, or the HTTP status that refused the upgrade. */
function upgrade(
	port: number,
	options: { token?: string; header?: string; protocols?: string[]; path?: string; answerPings?: boolean } = {},
): Promise<Peer | number> {
	const { header = CLAUDE_HEADER, protocols = ["mcp"], path = "" } = options;
	const headers = options.token === undefined ? {} : { [header]: options.token };
	const socket = new WebSocket(`ws://127.0.0.1:${port}${path}`, protocols, { headers });
	scope.defer(() => socket.terminate());
	const inbox: Peer["inbox"] = [];
	let nextId = 1;
	socket.on("message", (data) => {
		const text = data.toString();
		// A misbehaving server's non-JSON text is kept as it came.
		const message = text.startsWith("{") ? JSON.parse(text) : text;
		inbox.push(message);
		if (options.answerPings && message?.method === "ping")
			socket.send(JSON.stringify({ jsonrpc: "2.0", id: message.id, result: {} }));
	});
	const closed = new Promise<{ code: number; reason: string }>((done) =>
		socket.on("close", (code, reason) => done({ code, reason: reason.toString() })),
	);
	const peer: Peer = {
		socket,
		inbox,
		closed,
		request: (method, params = {}) => {
			const id = nextId++;
			socket.send(JSON.stringify({ jsonrpc: "2.0", id, method, params }));
			// A response, not the server's own request that may carry the same id (JetBrains' pings).
			return waitFor(`the answer to ${method}`, () =>
				inbox.find((message) => message?.id === id && message.method === undefined),
			);
		},
		notification: (method) => waitFor(method, () => inbox.find((message) => message?.method === method)),
	};
	return new Promise((done, fail) => {
		socket.on("open", () => done(peer));
		socket.on("unexpected-response", (request, response) => {
			request.destroy();
			done(response.statusCode ?? 0);
		});
		socket.on("error", fail);
	});
}

async function connect(
	server: { port: number; token: string | undefined },
	options: Parameters<typeof upgrade>[1] = {},
): Promise<Peer> {
	const peer = await upgrade(server.port, { token: server.token, ...options });
	if (typeof peer === "number") throw new Error(`upgrade refused with HTTP ${peer}`);
	return peer;
}

describe.each(ALL)("the %s fake", (flavour) => {
	const capabilities = FLAVOURS[flavour];

	test("writes its lockfile, answers initialize, tools/list and ping, and echoes mcp", async () => {
		const { server, root } = await serve(flavour);
		const lockfile = server.lockfilePath ?? "";
		expect(lockfile).toBe(join(root, "ide", `${server.port}.lock`));
		expect(statSync(lockfile).mode & 0o777).toBe(0o644);
		expect(statSync(join(root, "ide")).mode & 0o777).toBe(0o700);
		expect(JSON.parse(readFileSync(lockfile, "utf8"))).toEqual({
			pid: process.pid,
			workspaceFolders: [root],
			ideName: capabilities.ideName,
			transport: "ws",
			...(capabilities.writesRunningInWindows && { runningInWindows: false }),
			...(flavour !== "claude-code-ide-el" && { authToken: server.token }),
		});
		const peer = await connect(server);
		expect(peer.socket.protocol).toBe("mcp");
		const init = await peer.request("initialize", { protocolVersion: "2025-03-26", capabilities: {} });
		expect(init.result).toEqual({
			protocolVersion: flavour === "vscode" ? "2025-03-26" : "2024-11-05",
			capabilities: { tools: { listChanged: true } },
			serverInfo: { name: capabilities.serverName, version: "0.0.0-fake" },
		});
		const list = (await peer.request("tools/list")).result as { tools: { name: string }[] };
		expect(list.tools.map((tool) => tool.name)).toEqual(capabilities.tools);
		expect((await peer.request("ping")).result).toEqual({});
		expect((await peer.request("tools/call", { name: "noSuchTool", arguments: {} })).error?.code).toBe(-32601);
		peer.socket.send(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }));
		await waitFor("the notification recorded", () =>
			server.received.some(({ message }) => message.method === "notifications/initialized"),
		);
		expect(server.received.every(({ connection }) => connection === 0)).toBe(true);
	});

	test("a wrong token and no subprotocol, as the flavour judges them", async () => {
		const { server } = await serve(flavour);
		const wrong = await upgrade(server.port, { token: "wrong-token-0123456789" });
		if (capabilities.token === "checked-http-400") expect(wrong).toBe(400);
		else if (capabilities.token === "none") expect(typeof wrong).toBe("object");
		else {
			const reason = capabilities.token === "checked-close-1008" ? "Unauthorized" : "";
			expect(await (wrong as Peer).closed).toEqual({ code: 1008, reason });
		}
		const bare = await upgrade(server.port, { token: server.token, protocols: [] });
		if (capabilities.subprotocol === "required") expect(bare).toBe(400);
		else expect((bare as Peer).socket.protocol).toBe("");
		expect(server.upgrades.map(({ protocols }) => protocols)).toEqual([["mcp"], []]);
		for (const header of capabilities.authHeader) await connect(server, { header });
	});

	test("selection_changed in the flavour's shape and counting; a file switch as the flavour pushes it", async () => {
		const { server, root } = await serve(flavour);
		const peer = await connect(server);
		const file = join(root, "a.ts");
		server.setEditor({ file, text: "1\n2\n3\n4\n", selection: range(1, 2, 3, 4), selectedText: "sel" });
		const shift = capabilities.positions === "1-based" ? 1 : 0;
		const selection = { ...range(1 + shift, 2 + shift, 3 + shift, 4 + shift), isEmpty: false };
		const expected = {
			jetbrains: { selection, text: "sel", filePath: file },
			full: { text: "sel", filePath: file, fileUrl: pathToFileURL(file).href, selection },
			"no-fileUrl": { text: "sel", filePath: file, selection },
		}[capabilities.selectionShape];
		expect((await peer.notification("selection_changed")).params).toEqual(expected);
		peer.inbox.length = 0;
		server.setEditor({ file: join(root, "b.ts") });
		if (capabilities.pushesOnFileSwitch) await peer.notification("selection_changed");
		else {
			await sleep(150);
			expect(peer.inbox).toEqual([]);
		}
		peer.inbox.length = 0;
		server.setEditor({ selection: range(0, 1, 0, 1) });
		await peer.notification("selection_changed");
	});
});

const range = (line: number, character: number, endLine: number, endCharacter: number) => ({
	start: { line, character },
	end: { line: endLine, character: endCharacter },
});

describe("clients, pings and replay", () => {
	test("VS Code keeps one client: the next one closes it with no status code (1005); nvim keeps both", async () => {
		const vscode = (await serve("vscode")).server;
		const first = await connect(vscode);
		await connect(vscode);
		expect((await first.closed).code).toBe(1005);
		expect(vscode.openClients).toBe(1);
		const nvim = (await serve("claudecode-nvim")).server;
		await connect(nvim);
		await connect(nvim);
		expect(nvim.openClients).toBe(2);
	});

	test("JetBrains' JSON-RPC pings: answered {} or not, also while a tool call is held", async () => {
		const { server, root } = await serve("jetbrains");
		const answering = await connect(server, { answerPings: true });
		await connect(server);
		const held = server.holdTool("openDiff");
		const diff = answering.request("tools/call", {
			name: "openDiff",
			arguments: {
				old_file_path: join(root, "a"),
				new_file_path: join(root, "a"),
				new_file_contents: "x\r\n",
				tab_name: "t",
			},
		});
		expect(await server.pingClients(300)).toEqual([true, false]);
		held.release();
		expect((await diff).result).toEqual({
			content: [
				{ type: "text", text: "FILE_SAVED" },
				{ type: "text", text: "x\n" },
			],
		});
	});

	test("nvim sends WebSocket ping frames on its interval", async () => {
		const { server } = await serve("pi-ide-nvim", { wsPingMs: 50 });
		const peer = await connect(server);
		await new Promise((done) => peer.socket.once("ping", done));
	});

	test("VS Code replays the last selection after initialize, and nothing when none happened", async () => {
		const { server, root } = await serve("vscode", { replayDelayMs: 50 });
		const none = await connect(server);
		await none.request("initialize", { protocolVersion: "2024-11-05" });
		await sleep(150);
		expect(none.inbox.filter((message) => message.method === "selection_changed")).toEqual([]);
		server.setEditor({ file: join(root, "a.ts"), selection: range(2, 0, 2, 0) });
		const replayed = await connect(server);
		await replayed.request("initialize", { protocolVersion: "2024-11-05" });
		expect((await replayed.notification("selection_changed")).params).toMatchObject({ selection: range(2, 0, 2, 0) });
	});
});

describe("tools from the editor's state", () => {
	const diagnostics = (file: string) => ({
		[file]: [{ message: "bad", severity: "info" as const, line: 1, character: 2 }],
	});

	test.each([
		["vscode", "Information", "array"],
		["claudecode-nvim", "Info", "array"],
		["pi-ide-nvim", "Information", "object"],
	] as const)("%s getDiagnostics: severity %s, an %s", async (flavour, severity, shape) => {
		const { server, root } = await serve(flavour);
		const file = join(root, "a.ts");
		server.setEditor({ file, diagnostics: diagnostics(file) });
		const peer = await connect(server);
		const answer = await peer.request("tools/call", { name: "getDiagnostics", arguments: {} });
		const list = [{ message: "bad", severity, range: range(1, 2, 1, 2) }];
		const uri = pathToFileURL(file).href;
		const expected = shape === "array" ? [{ uri, diagnostics: list }] : { [uri]: list };
		expect(answer.result).toEqual({ content: [{ type: "text", text: JSON.stringify(expected) }] });
	});

	test("nvim answers -32001 for a file it has not open; VS Code tells dirty documents", async () => {
		const nvim = (await serve("claudecode-nvim")).server;
		const unopened = { name: "getDiagnostics", arguments: { uri: "file:///nowhere.ts" } };
		expect((await (await connect(nvim)).request("tools/call", unopened)).error?.code).toBe(-32001);
		const { server, root } = await serve("vscode");
		const [a, b] = [join(root, "a.ts"), join(root, "b.ts")];
		server.setEditor({ file: a, text: "x\n", dirty: [b] });
		const peer = await connect(server);
		const dirty = async (filePath: string) =>
			(await peer.request("tools/call", { name: "checkDocumentDirty", arguments: { filePath } })).result;
		expect(await dirty(b)).toEqual({
			content: [
				{ type: "text", text: JSON.stringify({ success: true, filePath: b, isDirty: true, isUntitled: false }) },
			],
		});
		expect(await dirty(join(root, "c.ts"))).toEqual({
			content: [{ type: "text", text: `Document not open: ${join(root, "c.ts")}` }],
		});
	});
});

describe("misbehaving servers", () => {
	test("nonsense answers non-JSON text; huge-frame overflows a client's payload limit", async () => {
		const nonsense = await connect((await serve("vscode", { misbehave: "nonsense" })).server);
		nonsense.socket.send(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: {} }));
		expect(await waitFor("an answer", () => nonsense.inbox[0])).toBe("this is not JSON-RPC {");
		const huge = (await serve("claudecode-nvim", { misbehave: "huge-frame" })).server;
		const limited = new WebSocket(`ws://127.0.0.1:${huge.port}`, ["mcp"], {
			headers: { [CLAUDE_HEADER]: huge.token ?? "" },
			maxPayload: 1 << 20,
		});
		scope.defer(() => limited.terminate());
		const refused = new Promise<Error>((done) => limited.on("error", done));
		await new Promise((done) => limited.once("open", done));
		limited.send(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: {} }));
		expect((await refused).message).toMatch(/Max payload size exceeded/);
	});
});

describe.skipIf(!canRunAsNobody())("a fake IDE server as nobody", () => {
	test("its port is nobody's, its lockfile this user's, and it answers", async () => {
		const root = tempDir("fake-ide-nobody");
		scope.defer(root.cleanup);
		const child = await startFakeIdeServerAs("nobody", {
			flavour: "vscode",
			lockDir: join(root.path, "ide"),
			workspaceFolders: [root.path],
		});
		scope.defer(() => child.stop());
		expect(readFileSync(`/proc/${child.pid}/status`, "utf8")).toMatch(/^Uid:\t65534\t/m);
		const lockfile = child.lockfilePath ?? "";
		expect(statSync(lockfile).uid).toBe(0);
		expect(JSON.parse(readFileSync(lockfile, "utf8"))).toMatchObject({ pid: process.pid, authToken: child.token });
		const peer = await connect(child);
		expect((await peer.request("initialize", { protocolVersion: "2024-11-05" })).result).toMatchObject({
			serverInfo: { name: "Claude Code VSCode MCP" },
		});
		await child.stop();
		expect(() => statSync(lockfile)).toThrow();
	});
});
