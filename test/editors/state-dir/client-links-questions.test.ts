/**
 * pi's questions over the standing links (src/editors/state-dir/client-links.ts, link-wire.ts, dir-clients.ts),
 * against the client's real channel server on a real unix socket in a real 0700 dir: a window's `answer` and
 * `dismiss` reach the asks' feature as they came, under the window's key; a question, a notice and a question's end
 * reach the window as `pi/askNews` in order; the window as the asks know it says whether it can show pi's
 * questions: a 0.7.0 client can, a 0.6.0 one cannot (`noQuestions`: pi's mirror keeps the questions in pi and
 * `/ide status` says why, on the state file's line and, during a run it asked, in the questions' part).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { pidKey } from "../../../src/editors/core/editor-key.ts";
import type { AskingEditor } from "../../../src/editors/editor-asks.ts";
import { ClientLinks } from "../../../src/editors/state-dir/client-links.ts";
import { StateDir } from "../../../src/editors/state-dir/state-dir.ts";
import { QuestionMirror } from "../../../src/questions/question-mirror.ts";
import { ManualClock } from "../../support/clocks.ts";
import { projectState } from "../../support/fixtures.ts";
import { listeningPathsOf, testProcessFacts } from "../../support/process-facts.ts";
import { sourceHooks } from "../../support/source-hooks.ts";
import { waitFor } from "../../support/wait-for.ts";
import { accept, asksFeature, clientListening, OFFER } from "./link-fixtures.ts";

const uid = process.getuid?.() ?? 0;
const key = pidKey(process.pid);
const label = `VS Code ${process.pid}`;
const cleanups: (() => unknown)[] = [];
afterEach(async () => {
	for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe("a question's way over a link", () => {
	async function linked() {
		const window = await clientListening(cleanups, accept);
		const asks = asksFeature(true);
		const links = new ClientLinks({
			asks: asks.asks,
			candidates: () => [
				{
					key,
					target: { dir: window.dir, pid: process.pid, uid, listeningPaths: listeningPathsOf() },
					inProject: true,
					asks: true,
					label,
					connected: false,
				},
			],
			offer: () => ({ ...OFFER, project: "/home/dev/proj", pid: process.pid }),
			clock: new ManualClock(),
			changed: () => {},
		});
		cleanups.push(() => links.close());
		links.update();
		await waitFor("offered", () => links.statusOf(key)?.includes("offered"));
		const peer = window.offers[0]?.peer;
		if (!peer) throw new Error("no peer");
		return { window, asks, peer };
	}

	test("answer and dismiss reach the asks as they came, under the window's key and name, answered at once", async () => {
		const { asks, peer } = await linked();
		const answers = await Promise.all([
			peer.request("answer", { id: 3, choice: 2 }, 5000).answer,
			peer.request("dismiss", { id: 4 }, 5000).answer,
			peer.request("answer", { id: "x" }, 5000).answer,
		]);
		expect(answers).toEqual(Array(3).fill({ ok: true, result: {} }));
		expect(asks.seen.received.map(({ editor, method, params }) => [editor.key, editor.label, method, params])).toEqual([
			[key, label, "answer", { id: 3, choice: 2 }],
			[key, label, "dismiss", { id: 4 }],
			[key, label, "answer", { id: "x" }],
		]);
		// A window of a client that shows questions: the mirror may send it them.
		expect(asks.seen.received[0]?.editor.noQuestions).toBeUndefined();
	});

	test("a question, its end and a notice reach the window as pi/askNews, in order", async () => {
		const { window, asks, peer } = await linked();
		await peer.request("ask", { prompt: "guard deploy" }, 5000).answer;
		const editor = asks.seen.received[0]?.editor as AskingEditor;
		const sent = [
			{ kind: "question", id: 1, title: "Allow deploy?\nThe test tool would run deploy.", choices: ["Yes", "No"] },
			{ kind: "questionClosed", id: 1 },
			{ kind: "notice", id: 2, text: "pi asks in its terminal: Your name?" },
		] as const;
		for (const news of sent) editor.tell(news);
		const news = () => window.news.filter((each) => each.method === "pi/askNews").map((each) => each.params);
		await waitFor("three news", () => news().length === 3);
		expect(news()).toEqual(sent);
	});
});

describe("which windows can show pi's questions, by their client's version", () => {
	async function askedFrom(client: string) {
		const listening = await clientListening(cleanups, accept);
		const project = join(listening.dir, "proj");
		mkdirSync(project);
		const state = projectState(project, { pid: process.pid, client, app: "vscode", argv: [] });
		writeFileSync(join(listening.dir, `${process.pid}.json`), JSON.stringify(state), { mode: 0o600 });
		const asks = asksFeature(true);
		const source = new StateDir(
			{ path: listening.dir, role: "override" },
			uid,
			{ ...sourceHooks(), asks: asks.asks },
			testProcessFacts(),
			{ projectDir: () => project, offer: OFFER },
		);
		cleanups.push(() => source.close());
		await source.start();
		await waitFor("asks offered", () => source.files()[0]?.suggestions?.includes("asks: offered"));
		await listening.offers[0]?.peer.request("ask", { prompt: "guard deploy" }, 5000).answer;
		const editor = asks.seen.received[0]?.editor;
		if (!editor) throw new Error("no ask received");
		return { source, editor };
	}

	test("a 0.6.0 client: its window cannot, says why, and /ide status says so on its file's line", async () => {
		const { source, editor } = await askedFrom("pi-ide-context-vscode/0.6.0");
		expect(editor.noQuestions).toBe("VS Code client 0.6.0; 0.7.0 shows pi's questions");
		expect(source.files()[0]?.suggestions).toBe(
			'asks: offered ("pi: Ask…" in the palette); questions: client 0.6.0 cannot show pi\'s questions, they stay in pi (0.7.0 on can)',
		);
	});

	test("a 0.7.0 client: its window can, and nothing more is said", async () => {
		const { source, editor } = await askedFrom("pi-ide-context-vscode/0.7.0");
		expect(editor.noQuestions).toBeUndefined();
		expect(source.files()[0]?.suggestions).toBe('asks: offered ("pi: Ask…" in the palette)');
	});

	test("pi's mirror with a run the 0.6.0 window asked: nothing is sent there, /ide status names the window and why", async () => {
		const { editor } = await askedFrom("pi-ide-context-vscode/0.6.0");
		const mirror = new QuestionMirror({ on: () => true, runEditors: () => [editor] });
		expect(mirror.targets()).toEqual([]);
		expect(mirror.statusLines()).toContain(
			`  ${label}: questions stay in pi (VS Code client 0.6.0; 0.7.0 shows pi's questions)`,
		);
	});
});
