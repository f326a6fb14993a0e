import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { WebSocketServer } from "ws";
import type { IdeServerSource } from "../../../src/editors/ide-servers/source.ts";
import { systemClock } from "../../../src/shared/clock.ts";
import { IDE_REQUEST_TIMEOUT_MS } from "../../../src/shared/core/timing.ts";
import { writeIdeLockfile } from "../../support/fake-ide-lockfile.ts";
import { FLAVOURS, type IdeFlavour } from "../../support/ide-server-flavours.ts";
import { waitFor } from "../../support/wait-for.ts";
import { editorOf, lockOf, SourceHarness } from "./source-harness.ts";

/**
 * Servers that refuse pi or misbehave once connected to: each a reason in the report (`ended`), at most one
 * retry, no further attempt until `/ide` looks again or the lockfile changes, and never a crash or a hang.
 */

const KEY = SourceHarness.KEY;
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

let h: SourceHarness;
beforeEach(() => {
	h = new SourceHarness();
});
afterEach(() => h.close());

/** Picks the key and waits for the attempt to end; the reason it ended with. */
async function refusedReason(source: IdeServerSource): Promise<string> {
	h.connected = KEY;
	source.follow();
	const facts = await waitFor("the attempt ended", () => source.facts(KEY)?.ended && source.facts(KEY));
	expect(facts).toMatchObject({ origin: "ide-server", listed: true, alive: true, ended: "connect-failed" });
	expect(lockOf(source)?.connection).toBeUndefined();
	return facts.rejection ?? "";
}

describe.each<[IdeFlavour, RegExp]>([
	["vscode", /^could not connect: the server closed the connection: code 1008 Unauthorized \(the token was refused\)$/],
	["jetbrains", /^could not connect: the server closed the connection: code 1008 \(the token was refused\)$/],
	["claudecode-nvim", /^could not connect: the server refused the connection \(HTTP 400\)$/],
])("%s refusing the lockfile's token", (flavour, reason) => {
	test("a reason, at most one retry, then nothing until /ide looks again or the token changes", async () => {
		const server = await h.server(flavour, { writeLockfile: false });
		const wrong = "wrong-token-0123456789abcdef";
		const lockfile = (token: string | undefined) =>
			writeIdeLockfile(h.lockDir("claude"), server.port, {
				pid: process.pid,
				workspaceFolders: [h.project],
				ideName: FLAVOURS[flavour].ideName,
				token,
				runningInWindows: false,
			});
		lockfile(wrong);
		const source = await h.source({ mode: "auto" });
		expect(await refusedReason(source)).toMatch(reason);
		expect(lockOf(source)?.ended).toMatch(reason);
		const tries = server.upgrades.length;
		expect(tries).toBeGreaterThanOrEqual(1);
		expect(tries).toBeLessThanOrEqual(2);
		expect(server.upgrades.every((upgrade) => upgrade.headers["x-claude-code-ide-authorization"] === wrong)).toBe(true);
		expect(JSON.stringify([source.report(), source.editors()])).not.toContain(wrong);
		// Not picked by the rules again on their own, and nothing of the source's own tries again.
		expect(editorOf(source)?.byHand).toBe(true);
		source.checkLiveness();
		await source.recheck();
		await sleep(100);
		expect(server.upgrades).toHaveLength(tries);
		// The connection rules disconnect it; /ide looks again and picks it: one more attempt, refused again.
		h.connected = undefined;
		source.follow();
		await source.lookAgain();
		expect(editorOf(source)?.byHand).toBeUndefined();
		expect(await refusedReason(source)).toMatch(reason);
		expect(server.upgrades).toHaveLength(2 * tries);
		h.connected = undefined;
		source.follow();
		// The editor writes a new token: what ended is forgotten, and the next pick connects.
		lockfile(server.token);
		await waitFor("the rewrite read", () => lockOf(source)?.ended === undefined && !editorOf(source)?.byHand, 2000);
		await h.connect(source);
		expect(server.upgrades.at(-1)?.headers["x-claude-code-ide-authorization"]).toBe(server.token);
	});
});

describe("servers that misbehave", () => {
	test("one that answers nothing: the open gives up at the request timeout (real time)", async () => {
		const server = await h.server("vscode", { misbehave: "silent" });
		const source = await h.source({ clock: systemClock });
		const started = Date.now();
		const reason = refusedReason(source);
		expect(source.isPending(KEY)).toBe(true);
		expect(lockOf(source)?.connection).toBe("connecting");
		expect(await reason).toBe(`could not connect: no answer to initialize within ${IDE_REQUEST_TIMEOUT_MS} ms`);
		const took = Date.now() - started;
		expect(took).toBeGreaterThanOrEqual(IDE_REQUEST_TIMEOUT_MS - 20);
		expect(took).toBeLessThan(IDE_REQUEST_TIMEOUT_MS + 1000);
		expect(server.upgrades).toHaveLength(1);
		expect(source.isPending(KEY)).toBe(false);
		expect(await source.unsavedNow(KEY, Date.now() + 150)).toBeUndefined();
	});

	test("one that answers nonsense: given up at the timeout, what it sent said", async () => {
		const server = await h.server("claudecode-nvim", { misbehave: "nonsense" });
		const source = await h.source();
		const reason = refusedReason(source);
		await waitFor("the nonsense read", () => lockOf(source)?.session?.nonsense?.count);
		expect(lockOf(source)?.session?.nonsense).toEqual({ count: 1, last: "a message that is not JSON" });
		h.clock.advance(IDE_REQUEST_TIMEOUT_MS - 1);
		await sleep(20);
		expect(lockOf(source)?.connection).toBe("connecting");
		h.clock.advance(1);
		expect(await reason).toBe(
			`could not connect: no answer to initialize within ${IDE_REQUEST_TIMEOUT_MS} ms; it sent 1 messages pi could not read (a message that is not JSON)`,
		);
		expect(server.upgrades).toHaveLength(1);
	});

	test("one that sends a 10 MB frame: closed by pi at its frame limit, with a reason", async () => {
		const server = await h.server("vscode", { misbehave: "huge-frame" });
		const source = await h.source();
		expect(await refusedReason(source)).toBe(
			"could not connect: pi closed the connection: a message over pi's 8 MiB limit",
		);
		expect(server.upgrades).toHaveLength(1);
	});

	test("one that never echoes mcp (and does not need it): connected on the one retry without it", async () => {
		const server = await h.server("jetbrains", { misbehave: "refuse-subprotocol" });
		const source = await h.source();
		await h.connect(source);
		expect(server.upgrades.map((upgrade) => upgrade.protocols)).toEqual([["mcp"], []]);
		expect(lockOf(source)?.session?.server?.name).toBe("Claude Code JetBrains Plugin");
	});

	test("one that requires mcp but never echoes it (JetBrains-like): a reason after the one retry", async () => {
		const offers = await requiresButNeverEchoes();
		const source = await h.source();
		expect(await refusedReason(source)).toBe(
			"could not connect: the server did not accept the mcp subprotocol; without it: the server refused the connection (HTTP 400)",
		);
		await sleep(100);
		expect(offers).toEqual([["mcp"], []]);
	});
});

/** A server as JetBrains' (no `mcp` offered: HTTP 400) that accepts an offer without echoing it; the offers it saw. */
async function requiresButNeverEchoes(): Promise<string[][]> {
	const offers: string[][] = [];
	const http = createServer();
	const wss = new WebSocketServer({ noServer: true, handleProtocols: () => false });
	http.on("upgrade", (request, socket, head) => {
		socket.on("error", () => {});
		const offered = String(request.headers["sec-websocket-protocol"] ?? "");
		const protocols = offered === "" ? [] : offered.split(",").map((protocol) => protocol.trim());
		offers.push(protocols);
		if (!protocols.includes("mcp"))
			return void socket.end("HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n");
		wss.handleUpgrade(request, socket, head, (ws) => ws.on("error", () => {}));
	});
	await new Promise<void>((done) => http.listen(0, "127.0.0.1", done));
	h.scope.defer(() => {
		http.closeAllConnections();
		return new Promise((done) => http.close(done));
	});
	writeIdeLockfile(h.lockDir("claude"), (http.address() as AddressInfo).port, {
		pid: process.pid,
		workspaceFolders: [h.project],
		ideName: "IntelliJ IDEA",
		token: "token-0123456789abcdef",
		runningInWindows: false,
	});
	return offers;
}
