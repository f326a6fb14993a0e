/**
 * pi's questions in the shipped VS Code client, in a real VS Code (code-server 4.139.1: VS Code 1.139.1's
 * workbench and extension host, headless chromium), spoken to by two pis played by the test through pi's own
 * connector (src/editors/state-dir/client-channel.ts): each offers asks, sends `pi/askNews` as pi's mirror does and
 * records what the window answers. A question is a quick pick titled by its pi (`pi 1234: Allow deploy?`, the
 * message as placeholder, `1 Yes`, `2 No`): typing a number and Enter answers that pi; Esc sends `dismiss`; closed
 * in pi, the quick pick goes and nothing is sent. Two pis' questions show one after the other, each answered to its
 * own pi. A notice is a notification that goes when pi closes it; its Cancel sends `dismiss`. A question waits
 * while the user types in "pi: Ask…". No pi runs: test/e2e/vscode-questions.test.ts is the way through the real pi.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { DEAF_MS, PICK_HINT } from "../../clients/vscode/src/core/questions.ts";
import type { AskNews } from "../../src/editors/editor-asks.ts";
import type { EditorRequest } from "../../src/editors/editor-source.ts";
import { type ClientChannel, connectClientChannel } from "../../src/editors/state-dir/client-channel.ts";
import { ASK_NEWS_METHOD, OFFER_METHOD } from "../../src/editors/state-dir/core/suggestion-offer.ts";
import { listeningPathsOf } from "../support/process-facts.ts";
import { VscodeClientSession } from "../support/vscode-client-session.ts";
import { vscodeHost, vscodeSuiteSkipReason } from "../support/vscode-host.ts";
import {
	clickToastButton,
	quickPickShown,
	toasts,
	waitForNoQuickPick,
	waitForQuickPick,
} from "../support/vscode-question-page.ts";
import { waitFor } from "../support/wait-for.ts";

const host = vscodeHost();
const skipReason = vscodeSuiteSkipReason("the VS Code question client tests");
const uid = process.getuid?.() ?? 0;

/** One pi as the test plays it: its connection, its pid in the offer, what the window sent it. */
interface FakePi {
	pid: number;
	channel: ClientChannel;
	received: { method: string; params: unknown }[];
	tell(news: AskNews): void;
	/** A round trip on the connection: every notification sent before it has been handled by the window. */
	settled(): Promise<void>;
}

/** An Enter within DEAF_MS of a quick pick's showing is not taken (the user typing in the editor): waited out. */
const pastDeafTime = () => new Promise((resolve) => setTimeout(resolve, DEAF_MS + 100));

const CONFIRM = { title: "Allow deploy?\nThe test tool would run deploy.", choices: ["Yes", "No"] };

describe.skipIf(skipReason !== undefined)("VS Code: pi's questions in the shipped client, in a real VS Code", () => {
	let vscode: VscodeClientSession;
	let piA: FakePi;
	let piB: FakePi;
	let nextId = 100;

	async function fakePi(pid: number, connected: boolean): Promise<FakePi> {
		const received: FakePi["received"] = [];
		const opened = await connectClientChannel(
			{ dir: vscode.stateDir, pid: vscode.pid, uid, listeningPaths: listeningPathsOf() },
			{
				timeoutMs: 10_000,
				requests: {
					answer: async (request: EditorRequest) => {
						received.push({ method: request.method, params: request.params });
						return { result: {} };
					},
					cancelled: () => {},
					gone: () => {},
				},
			},
		);
		if (!opened.ok) throw new Error(`the client's channel: ${opened.reason}`);
		const channel = opened.caller;
		const offer = {
			project: vscode.project,
			pid,
			suggestions: false,
			asks: true,
			connected,
			debounceMs: 300,
			timeoutMs: 10_000,
			secretFiles: [],
		};
		const taken = await channel.ask(OFFER_METHOD, offer, 10_000);
		if (!taken.ok) throw new Error(`offer not taken: ${JSON.stringify(taken)}`);
		return {
			pid,
			channel,
			received,
			tell: (news) => channel.notify(ASK_NEWS_METHOD, news),
			settled: async () => {
				await channel.ask("ping", {}, 10_000);
			},
		};
	}

	beforeAll(async () => {
		vscode = await VscodeClientSession.start(host as Required<Omit<typeof host, "skipReason">>, {
			"src/main.ts": "export const a = 1;\n",
		});
		await vscode.open("main.ts");
		// pi A is connected to the window (its asks go there without a pick); pi B is another pi of the project.
		piA = await fakePi(40001, true);
		piB = await fakePi(40002, false);
	}, 300_000);

	afterAll(async () => {
		piA?.channel.close();
		piB?.channel.close();
		await vscode?.stop();
	});

	afterEach(() => {
		piA.received.length = 0;
		piB.received.length = 0;
	});

	/** pi's question as its mirror sends it; the quick pick once it shows, and past the accept's deaf time. */
	async function ask(pi: FakePi, question = CONFIRM) {
		const id = ++nextId;
		pi.tell({ kind: "question", id, ...question });
		const shown = await waitForQuickPick(vscode.page, `pi ${pi.pid}: ${question.title.split("\n")[0]}`);
		await pastDeafTime();
		return { id, shown };
	}

	test("a confirm: titled by its pi, the message as placeholder, 1 Yes and 2 No; 2 and Enter answer that pi", async () => {
		const { id, shown } = await ask(piA);
		expect(shown).toEqual({
			title: `pi ${piA.pid}: Allow deploy?`,
			placeholder: "The test tool would run deploy.",
			rows: ["1 Yes", "2 No"],
		});
		await vscode.page.keyboard.type("2");
		await vscode.page.keyboard.press("Enter");
		await waitFor("the answer at pi A", () => piA.received.length > 0, 10_000);
		await waitForNoQuickPick(vscode.page, `pi ${piA.pid}`);
		// pi closes the question everywhere once it is answered: the window has nothing more to say.
		piA.tell({ kind: "questionClosed", id });
		await piA.settled();
		expect(piA.received).toEqual([{ method: "answer", params: { id, choice: 2 } }]);
		expect(piB.received).toEqual([]);
	}, 120_000);

	test("a select of one line: the hint as placeholder, Enter on the first row answers 1", async () => {
		const { id, shown } = await ask(piA, { title: "Pick a colour", choices: ["red", "green", "blue"] });
		expect(shown).toMatchObject({ placeholder: PICK_HINT, rows: ["1 red", "2 green", "3 blue"] });
		await vscode.page.keyboard.press("Enter");
		await waitFor("the answer at pi A", () => piA.received.length > 0, 10_000);
		expect(piA.received).toEqual([{ method: "answer", params: { id, choice: 1 } }]);
		piA.tell({ kind: "questionClosed", id });
	}, 120_000);

	test("Esc closes only the window's copy: pi hears dismiss", async () => {
		const { id } = await ask(piA);
		await vscode.page.keyboard.press("Escape");
		await waitFor("the dismissal at pi A", () => piA.received.length > 0, 10_000);
		expect(piA.received).toEqual([{ method: "dismiss", params: { id } }]);
		await waitForNoQuickPick(vscode.page, `pi ${piA.pid}`);
		piA.tell({ kind: "questionClosed", id });
		await piA.settled();
		expect(piA.received).toHaveLength(1);
	}, 120_000);

	test("answered in pi first: the quick pick goes, and the window sends nothing", async () => {
		const { id } = await ask(piA);
		piA.tell({ kind: "questionClosed", id });
		await waitForNoQuickPick(vscode.page, `pi ${piA.pid}`);
		await piA.settled();
		expect(piA.received).toEqual([]);
	}, 120_000);

	test("two pis: B's question waits for A's; each answer goes to its own pi", async () => {
		const a = await ask(piA);
		const idB = ++nextId;
		piB.tell({ kind: "question", id: idB, title: "Run the migration?", choices: ["Yes", "No", "Later"] });
		await piB.settled();
		expect((await quickPickShown(vscode.page))?.title).toBe(`pi ${piA.pid}: Allow deploy?`);
		await vscode.page.keyboard.type("1");
		await vscode.page.keyboard.press("Enter");
		const shownB = await waitForQuickPick(vscode.page, `pi ${piB.pid}: Run the migration?`);
		expect(shownB.rows).toEqual(["1 Yes", "2 No", "3 Later"]);
		await pastDeafTime();
		await vscode.page.keyboard.type("3");
		await vscode.page.keyboard.press("Enter");
		await waitFor("the answer at pi B", () => piB.received.length > 0, 10_000);
		expect(piA.received).toEqual([{ method: "answer", params: { id: a.id, choice: 1 } }]);
		expect(piB.received).toEqual([{ method: "answer", params: { id: idB, choice: 3 } }]);
		piA.tell({ kind: "questionClosed", id: a.id });
		piB.tell({ kind: "questionClosed", id: idB });
	}, 120_000);

	test("a notice: a notification until pi closes its dialog; nothing is sent", async () => {
		const id = ++nextId;
		const text = "pi asks in its terminal: Your name?";
		piA.tell({ kind: "notice", id, text });
		await waitFor("the notice", async () => (await toasts(vscode.page)).some((toast) => toast.includes(text)), 15_000);
		expect(await toasts(vscode.page)).toContain(`${text} (pi ${piA.pid})`);
		piA.tell({ kind: "questionClosed", id });
		await waitFor("no notice", async () => !(await toasts(vscode.page)).some((toast) => toast.includes(text)), 15_000);
		await piA.settled();
		expect(piA.received).toEqual([]);
	}, 120_000);

	test("a notice's Cancel closes only the window's copy: pi hears dismiss", async () => {
		const id = ++nextId;
		const text = "pi asks in its terminal: Your e-mail?";
		piB.tell({ kind: "notice", id, text });
		await waitFor("the notice", async () => (await toasts(vscode.page)).some((toast) => toast.includes(text)), 15_000);
		await clickToastButton(vscode.page, text, "Cancel");
		await waitFor("the dismissal at pi B", () => piB.received.length > 0, 10_000);
		expect(piB.received).toEqual([{ method: "dismiss", params: { id } }]);
		await waitFor("no notice", async () => !(await toasts(vscode.page)).some((toast) => toast.includes(text)), 15_000);
		piB.tell({ kind: "questionClosed", id });
	}, 120_000);

	test('a question while the user types in "pi: Ask…" waits for the box to close, the typing kept', async () => {
		await vscode.palette("pi: Ask…");
		await waitForQuickPick(vscode.page, `Ask pi ${piA.pid}`);
		await vscode.page.keyboard.type("half a thought");
		const id = ++nextId;
		piA.tell({ kind: "question", id, ...CONFIRM });
		await piA.settled();
		const box = await quickPickShown(vscode.page);
		expect(box?.title).toBe(`Ask pi ${piA.pid}`);
		expect(await vscode.page.evaluate<string>(`document.querySelector(".quick-input-box input")?.value ?? ""`)).toBe(
			"half a thought",
		);
		await vscode.page.keyboard.press("Escape");
		await waitForQuickPick(vscode.page, `pi ${piA.pid}: Allow deploy?`);
		await pastDeafTime();
		await vscode.page.keyboard.press("Enter");
		await waitFor("the answer at pi A", () => piA.received.length > 0, 10_000);
		expect(piA.received).toEqual([{ method: "answer", params: { id, choice: 1 } }]);
		piA.tell({ kind: "questionClosed", id });
	}, 120_000);

	test("pi gone: its question goes with it", async () => {
		const id = ++nextId;
		piB.tell({ kind: "question", id, title: "Still there?", choices: ["Yes", "No"] });
		await waitForQuickPick(vscode.page, `pi ${piB.pid}: Still there?`);
		piB.channel.close();
		await waitForNoQuickPick(vscode.page, `pi ${piB.pid}`);
	}, 120_000);
});
