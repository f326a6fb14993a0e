import { describe, expect, test } from "vitest";
import type { AskingEditor, AskNews } from "../../src/editors/editor-asks.ts";
import { BridgeSession, type BridgeSessionParts } from "../../src/pi-bridge/bridge-session.ts";
import type { BridgeConnection, BridgeHandler } from "../../src/pi-bridge/bridge-socket.ts";
import type { BridgeMessage, BridgeOutgoing } from "../../src/pi-bridge/core/bridge-messages.ts";
import { waitFor } from "../support/wait-for.ts";

/** The socket as the session sees it: connections that record what pi sent them. */
function fakeSocket() {
	const sent = new Map<number, BridgeOutgoing[]>();
	const connections: BridgeConnection[] = [];
	let handler: BridgeHandler | undefined;
	const socket = {
		path: "/home/u/.pi/agent/pi-bridge/sockets/0123456789abcdef.sock",
		state: { kind: "serving" as const },
		get connections() {
			return connections;
		},
		attach: (next: BridgeHandler) => {
			handler = next;
		},
		detach: (gone: BridgeHandler) => {
			if (handler === gone) handler = undefined;
		},
		broadcast: (message: BridgeOutgoing) => {
			for (const connection of connections) connection.send(message);
		},
	};
	const connect = (mirrorReady = true): BridgeConnection => {
		const id = connections.length + 1;
		const connection: BridgeConnection = {
			id,
			mirrorReady,
			send: (message) => sent.set(id, [...(sent.get(id) ?? []), message]),
		};
		connections.push(connection);
		return connection;
	};
	const say = (connection: BridgeConnection, message: BridgeMessage) => handler?.message(connection, message);
	const close = (connection: BridgeConnection) => {
		connections.splice(connections.indexOf(connection), 1);
		handler?.closed(connection);
	};
	return { socket, connect, say, close, sentTo: (id: number) => sent.get(id) ?? [], handler: () => handler };
}

function rig(options: { approvalsOff?: string; mirrorOff?: string } = {}) {
	const fake = fakeSocket();
	const prompted: AskingEditor[] = [];
	const replied: { key: string; reply: unknown }[] = [];
	const keyed: { key: string; reply: unknown }[] = [];
	const gone: string[] = [];
	const run: { editors: AskingEditor[] } = { editors: [] };
	const parts: BridgeSessionParts = {
		socket: fake.socket,
		prompted: async (editor) => {
			prompted.push(editor);
		},
		compose: async () => ({ ok: true, text: "x", withheld: 0, cut: 0 }),
		gone: (key) => gone.push(`asks ${key}`),
		replies: {
			replied: (editor, reply) => replied.push({ key: editor.key, reply }),
			keyed: (editor, reply) => keyed.push({ key: editor.key, reply }),
			gone: (key) => gone.push(`mirror ${key}`),
		},
		runEditors: () => run.editors,
		approvalsOff: () => options.approvalsOff,
		...(options.mirrorOff !== undefined && { mirrorOff: options.mirrorOff }),
	};
	const session = new BridgeSession(parts);
	const prompt = (connection: BridgeConnection) =>
		fake.say(connection, {
			type: "prompt",
			prompt: { type: "prompt", text: "hi", context: { file: "/p/a.ts", cwd: "/p", mode: "normal" } },
		});
	return { ...fake, session, prompted, replied, keyed, gone, run, prompt };
}

const REQUEST = { tool: "write" as const, file: "/p/a.ts", before: "a\n", proposed: "b\n" };

describe("the plugin as the asks and the question mirror see it: one editor for all its connections", () => {
	test("a prompt is an ask of `Neovim (pi-bridge)`, the plugin's part; a refusal is an error to every client, with pi-bridge's code", async () => {
		const { connect, prompt, prompted, sentTo } = rig();
		const plugin = connect();
		connect();
		prompt(plugin);
		await Promise.resolve();
		const editor = prompted[0] as AskingEditor;
		expect(editor).toMatchObject({ key: "pi-bridge", label: "Neovim (pi-bridge)", piBridge: "plugin" });
		const refusals: [AskNews, string][] = [
			[{ kind: "status", text: "pi: not sent: no model", level: "error", notSent: "noModel" }, "no_active_pi"],
			[{ kind: "status", text: "pi: not sent: ending", level: "error", notSent: "ending" }, "stale_context"],
			[{ kind: "status", text: "pi: not sent: boom", level: "error", notSent: "failed" }, "send_failed"],
		];
		for (const [news] of refusals) editor.tell(news);
		// Run news is not the plugin's: every client gets agent_start / agent_end instead.
		editor.tell({ kind: "status", text: "pi: working", level: "working" });
		editor.tell({ kind: "reply", text: "partial", streaming: true });
		const errors = refusals.map(([news, code]) => ({ type: "error", message: (news as { text: string }).text, code }));
		expect(sentTo(1)).toEqual(errors);
		expect(sentTo(2)).toEqual(errors);
	});

	test("questions: select, confirm and a custom dialog's lines go to the clients that said mirror_ready; answers from any come back", async () => {
		const { connect, prompt, prompted, say, sentTo, replied, keyed } = rig();
		const plugin = connect();
		connect(false);
		const other = connect();
		prompt(plugin);
		await Promise.resolve();
		const editor = prompted[0] as AskingEditor;
		expect(editor.noQuestions).toBeUndefined();
		editor.tell({ kind: "question", id: 4, title: "Pick", choices: ["red", "green"] });
		editor.tell({ kind: "question", id: 5, title: "Allow?", choices: ["Yes", "No"], confirm: true });
		editor.tell({ kind: "notice", id: 6, text: "pi asks in its terminal", lines: ["Pick a colour"] });
		editor.tell({ kind: "questionClosed", id: 4 });
		expect(sentTo(1)).toEqual([
			{ type: "ui_prompt_request", id: 4, kind: "select", title: "Pick", options: ["red", "green"] },
			{ type: "ui_prompt_request", id: 5, kind: "confirm", title: "Allow?", options: ["Yes", "No"] },
			{ type: "ui_prompt_request", id: 6, kind: "custom", title: "pi asks in its terminal", lines: ["Pick a colour"] },
			{ type: "ui_prompt_resolved", id: 4 },
		]);
		expect(sentTo(3)).toEqual(sentTo(1));
		expect(sentTo(2)).toEqual([]);
		say(other, { type: "ui_prompt_response", id: 5, answer: { value: "No" } });
		say(plugin, { type: "ui_prompt_response", id: 5, answer: { value: "Maybe" } });
		say(plugin, { type: "ui_prompt_response", id: 4, answer: { value: "red" } });
		say(plugin, { type: "ui_prompt_response", id: 5, answer: { cancelled: true } });
		say(plugin, { type: "ui_prompt_response", id: 6, answer: { key: "\u001b" } });
		say(plugin, { type: "ui_prompt_response", id: "6", answer: { key: "\u001b" } });
		expect(replied).toEqual([
			{ key: "pi-bridge", reply: { id: 5, choice: 2 } },
			{ key: "pi-bridge", reply: { id: 5 } },
		]);
		expect(keyed).toEqual([{ key: "pi-bridge", reply: { id: 6, key: "\u001b" } }]);
	});

	test("no questions before mirror_ready, nor with the mirror off; the plugin gone with its last connection", async () => {
		const quiet = rig();
		const early = quiet.connect(false);
		const second = quiet.connect(false);
		quiet.prompt(early);
		await Promise.resolve();
		expect(quiet.prompted[0]?.noQuestions).toBe("the plugin has not said mirror_ready");
		early.mirrorReady = true;
		expect(quiet.prompted[0]?.noQuestions).toBeUndefined();
		quiet.close(early);
		expect(quiet.gone).toEqual([]);
		quiet.close(second);
		expect(quiet.gone).toEqual(["asks pi-bridge", "mirror pi-bridge"]);

		const off = rig({ mirrorOff: "off (PI_BRIDGE_UI_PROMPT_MIRROR=0)" });
		off.prompt(off.connect());
		await Promise.resolve();
		expect(off.prompted[0]?.noQuestions).toBe("off (PI_BRIDGE_UI_PROMPT_MIRROR=0)");
	});

	test("a malformed prompt: an error to that client and a reason in /ide status; other lines only the reason", () => {
		const { connect, session, sentTo, handler } = rig();
		const plugin = connect();
		handler()?.malformed(plugin, "a malformed ui_prompt_response (exactly one of value, cancelled, key)");
		expect(sentTo(1)).toEqual([]);
		handler()?.malformed(plugin, "a malformed prompt (/context/mode: expected normal)");
		expect(sentTo(1)).toEqual([
			{
				type: "error",
				message: "pi: not sent: a malformed prompt (/context/mode: expected normal)",
				code: "send_failed",
			},
		]);
		expect(session.statusLines().join("\n")).toContain("last problem: connection 1: a malformed prompt");
	});
});

describe("the plugin's approvals: its turns only, one request at a time, resolved exactly once", () => {
	test("no approver for a turn typed into pi, with approvals off, or with nobody connected", () => {
		const typed = rig();
		typed.connect();
		expect(typed.session.approvals.approver()).toBeUndefined();
		const off = rig({ approvalsOff: "off (PI_BRIDGE_EDIT_APPROVAL=0)" });
		off.connect();
		off.run.editors = [{ key: "pi-bridge:1", label: "x", tell: () => {}, piBridge: "plugin" }];
		expect(off.session.approvals.approver()).toBeUndefined();
		const alone = rig();
		alone.run.editors = [{ key: "pi-bridge:1", label: "x", tell: () => {}, piBridge: "plugin" }];
		expect(alone.session.approvals.approver()).toBeUndefined();
	});

	test("the request with its diff to every client; the second waits for the first; each resolved once", async () => {
		const { connect, say, sentTo, session, run } = rig();
		const plugin = connect();
		const other = connect();
		run.editors = [{ key: "pi-bridge:1", label: "x", tell: () => {}, piBridge: "plugin" }];
		const approver = session.approvals.approver();
		expect(approver?.name).toBe("Neovim (pi-bridge)");
		const first = approver?.ask(REQUEST, new AbortController().signal);
		const second = approver?.ask({ ...REQUEST, file: "/p/b.ts" }, new AbortController().signal);
		const requests = () => sentTo(1).filter((message) => message.type === "approval_request");
		await waitFor("the first request", () => requests().length === 1);
		const asked = requests()[0] as Extract<BridgeOutgoing, { type: "approval_request" }>;
		expect(asked).toMatchObject({ tool: "write", path: "/p/a.ts" });
		expect(asked.diff).toContain("-a\n+b");
		expect(sentTo(2)).toContainEqual(asked);
		say(plugin, { type: "approval_response", id: "not-it", decision: "yes" });
		say(other, { type: "approval_response", id: asked.id, decision: "all" });
		say(plugin, { type: "approval_response", id: asked.id, decision: "no" });
		expect(requests()).toHaveLength(1);
		expect(await first).toBe("all");
		await waitFor("the second request, once the first was answered", () => requests().length === 2);
		const next = requests()[1] as Extract<BridgeOutgoing, { type: "approval_request" }>;
		say(plugin, { type: "approval_response", id: next.id, decision: "yes" });
		expect(await second).toBe("yes");
		const resolved = sentTo(1).filter((message) => message.type === "approval_resolved");
		expect(resolved).toEqual([
			{ type: "approval_resolved", id: asked.id },
			{ type: "approval_resolved", id: next.id },
		]);
	});

	test("withdrawn (pi answered first): resolved once; the last connection closing leaves nobody to answer", async () => {
		const { connect, close, sentTo, session, run, prompt } = rig();
		const plugin = connect();
		run.editors = [{ key: "pi-bridge:1", label: "x", tell: () => {}, piBridge: "plugin" }];
		const withdraw = new AbortController();
		const first = session.approvals.approver()?.ask(REQUEST, withdraw.signal);
		const requests = () => sentTo(1).filter((message) => message.type === "approval_request");
		await waitFor("the request", () => requests().length === 1);
		withdraw.abort();
		expect(await first).toBeUndefined();
		expect(sentTo(1).filter((message) => message.type === "approval_resolved")).toHaveLength(1);
		const second = session.approvals.approver()?.ask(REQUEST, new AbortController().signal);
		await waitFor("the second request", () => requests().length === 2);
		// A client that comes while it is open gets it at its first word, not at its next; the one that had it, not twice.
		const late = connect();
		prompt(late);
		prompt(late);
		prompt(plugin);
		expect(sentTo(2).filter((message) => message.type === "approval_request")).toHaveLength(1);
		expect(requests()).toHaveLength(2);
		close(late);
		close(plugin);
		expect(await second).toBeUndefined();
	});
});
