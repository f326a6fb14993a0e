/**
 * A VS Code client older than 0.7.0 with the real pi 1.x (RPC, asks on, questions mirrored), the client played by
 * the test: its real channel server (clients/vscode/src/channel-server.ts) listening beside a state file that says
 * `pi-ide-context-vscode/0.6.0`, as a 0.6.0 window's would. pi offers it asks; its ask starts a run whose tool asks
 * `confirm`: the question stays in pi (RPC's dialog), nothing of it reaches the window, and `/ide status` says why,
 * during the run (the questions' part) and on the state file's line.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { type ChannelPeer, listenChannel } from "../../clients/vscode/src/channel-server.ts";
import { ASK_NEWS_METHOD } from "../../src/editors/state-dir/core/suggestion-offer.ts";
import { useE2eWorkspace } from "../support/e2e-workspace.ts";
import { messageText } from "../support/fake-model-server.ts";
import { projectState } from "../support/fixtures.ts";
import { type PiLine, piLines } from "../support/pi-cli.ts";
import { questionPi } from "../support/question-e2e.ts";
import { PI_START_TIMEOUT_MS, waitFor } from "../support/wait-for.ts";

const pi1 = piLines()[1] as PiLine;

describe.skipIf(!pi1.node)("a VS Code client older than 0.7.0: pi's questions stay in pi (real pi 1.x, RPC)", () => {
	const ws = useE2eWorkspace();

	test("its ask's confirm is asked in pi only; /ide status names the window and why", async () => {
		const offers: { peer: ChannelPeer; params: unknown }[] = [];
		const news: unknown[] = [];
		const started = await listenChannel(join(ws.stateDir, `${process.pid}.sock`), "0.6.0", {
			callTool: async () => ({ result: {} }),
			peerGone: () => {},
			offered: (peer, params) => {
				offers.push({ peer, params });
				return { result: { accepted: true } };
			},
			notified: (_peer, method, params) => {
				if (method === ASK_NEWS_METHOD) news.push(params);
			},
		});
		if (!started.ok) throw new Error(started.reason);
		ws.defer(started.close);
		const state = projectState(ws.project, { pid: process.pid, app: "vscode", client: "pi-ide-context-vscode/0.6.0" });
		writeFileSync(join(ws.stateDir, `${process.pid}.json`), JSON.stringify(state), { mode: 0o600 });
		const rpc = questionPi(ws, pi1);
		const peer = await waitFor(
			"pi's offer of asks",
			() => offers.find((offer) => (offer.params as { asks?: boolean }).asks === true)?.peer,
			PI_START_TIMEOUT_MS,
		);
		const taken = await peer.request("ask", { prompt: "guard deploy" }, 10_000).answer;
		expect(taken).toEqual({ ok: true, result: {} });
		const dialog = await waitFor("pi's own confirm", () => rpc.uiRequests("confirm")[0], 30_000);
		expect(dialog).toMatchObject({ title: "Allow deploy?" });
		const status = await rpc.ideStatus();
		expect(status).toContain(
			`  VS Code ${process.pid}: questions stay in pi (VS Code client 0.6.0; 0.7.0 shows pi's questions)`,
		);
		expect(status.join("\n")).toContain(
			"questions: client 0.6.0 cannot show pi's questions, they stay in pi (0.7.0 on can)",
		);
		rpc.respond(dialog.id as string, { confirmed: true });
		await waitFor(
			'the model told "allowed deploy"',
			() =>
				ws.server.requests.some((request) =>
					request.messages.some((message) => message.role === "tool" && messageText(message) === "allowed deploy"),
				),
			15_000,
		);
		await waitFor("pi: done told the window", () =>
			news.some((each) => (each as { text?: string }).text?.startsWith("pi: done") === true),
		);
		expect(news.map((each) => (each as { kind: string }).kind)).not.toContain("question");
		expect(news.map((each) => (each as { kind: string }).kind)).not.toContain("notice");
	}, 120_000);
});
