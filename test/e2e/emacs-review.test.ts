/**
 * Review of the model's edits in a real Emacs (28.2, `emacs -nw -Q` in tmux, nothing installed), through the
 * real pi in RPC mode on both lines: the proposal in a buffer of pi's own beside the file, decided by C-c C-c
 * (accept, edited or not) and C-c C-k (reject, asking why) as typed; killing it decides nothing; nothing of a
 * review stays in Emacs.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { useE2eWorkspace } from "../support/e2e-workspace.ts";
import { EmacsE2e, evalText, piLeftovers } from "../support/emacs-e2e.ts";
import { messageText, type Reply } from "../support/fake-model-server.ts";
import { processFactsLines, writeAgentDir } from "../support/pi-cli.ts";
import type { RealEmacs } from "../support/real-emacs.ts";
import { requireEmacs } from "../support/real-emacs.ts";
import type { RpcPi } from "../support/rpc-pi.ts";
import { waitFor } from "../support/wait-for.ts";

const available = requireEmacs("the Emacs review end-to-end tests");

type Call = { name: string; arguments: Record<string, unknown> };

/** A model that makes `calls` when asked `go`, then says "done". */
const callingModel =
	(calls: Call[]): Reply =>
	(request) => {
		if (request.messages.at(-1)?.role === "tool") return "done";
		return request.messages.some((message) => messageText(message) === "go") ? { toolCalls: calls } : "ok";
	};

const PROPOSAL = "*pi: src/main.ts (proposed)*";

/** The proposal as Emacs has it: its text, its major mode, whether a window shows it, the selected buffer. */
const proposalIn = async (emacs: RealEmacs) =>
	JSON.parse(
		await evalText(
			emacs,
			`(let ((buffer (get-buffer ${JSON.stringify(PROPOSAL)})))
  (json-encode (list (cons "text" (and buffer (with-current-buffer buffer (buffer-string))))
                     (cons "shown" (and buffer (get-buffer-window buffer) t))
                     (cons "selected" (buffer-name (window-buffer (selected-window))))
                     (cons "windows" (length (window-list))))))`,
		),
	) as { text: string | null; shown: boolean | null; selected: string; windows: number };

describe.skipIf(!available).each(processFactsLines())("review in a real Emacs through the real $name (RPC)", (line) => {
	const ws = useE2eWorkspace();
	const e2e = new EmacsE2e(ws, line, "emacs-review");
	const main = () => join(ws.project, "src", "main.ts");
	const edit = (oldText: string, newText: string): Call => ({
		name: "edit",
		arguments: { path: main(), edits: [{ oldText, newText }] },
	});

	async function setup(calls: Call[]): Promise<{ emacs: RealEmacs; rpc: RpcPi }> {
		writeAgentDir(ws.agentDir, ws.server.baseUrl, { "pi-ide": { review: true } });
		ws.server.reply = callingModel(calls);
		const emacs = await e2e.emacs();
		const rpc = e2e.startPi();
		await e2e.live(rpc, "in main.ts, review on");
		return { emacs, rpc };
	}

	const shown = (emacs: RealEmacs) =>
		waitFor("the proposal in Emacs", async () => {
			const now = await proposalIn(emacs);
			return now.text !== null && now.shown ? now : undefined;
		});
	/** Into the proposal's window as a user gets there: C-x o until it is the selected one. */
	const intoProposal = async (emacs: RealEmacs) => {
		for (let tries = 0; (await proposalIn(emacs)).selected !== PROPOSAL; tries++) {
			if (tries === 4) throw new Error("C-x o never reached the proposal");
			emacs.keys("C-x", "o");
			await new Promise((done) => setTimeout(done, 100));
		}
	};
	const nothingLeft = (emacs: RealEmacs) =>
		waitFor("nothing of the review left in Emacs", async () => {
			const now = await proposalIn(emacs);
			const review = (await piLeftovers(emacs)).filter((item) => item.includes("review"));
			return now.text === null && now.windows === 1 && review.length === 0;
		});
	const reviewSelect = (rpc: RpcPi, index = 0) =>
		waitFor(
			`pi's review select #${index + 1}`,
			() => rpc.uiRequests("select").filter((request) => String(request.title).startsWith("Review: "))[index],
		);

	test.skipIf(!line.node)(
		"shown in a buffer of pi's own beside the file; C-c C-c accepts; the buffer goes and the file's shows the new text",
		async () => {
			const { emacs, rpc } = await setup([edit("line2", "LINE TWO")]);
			const done = rpc.prompt("go");
			const proposal = await shown(emacs);
			expect(proposal.text).toBe("line1\nLINE TWO\nline3\nline4\nline5\nline6\n");
			expect(proposal.windows).toBe(2);
			expect(String((await reviewSelect(rpc)).title)).toContain("C-c C-c in the proposal accepts it");
			await intoProposal(emacs);
			emacs.keys("C-c", "C-c");
			await done;
			expect(readFileSync(main(), "utf8")).toBe("line1\nLINE TWO\nline3\nline4\nline5\nline6\n");
			expect(ws.toolResults()).not.toContain("The user changed");
			await nothingLeft(emacs);
			await waitFor("the file's buffer reverted", async () =>
				(
					await evalText(
						emacs,
						`(with-current-buffer (find-buffer-visiting ${JSON.stringify(main())}) (buffer-string))`,
					)
				).includes("LINE TWO"),
			);
		},
	);

	test.skipIf(!line.node)(
		"an edited proposal accepted: the file gets the user's version, the model the diff of it",
		async () => {
			const { emacs, rpc } = await setup([edit("line2", "LINE TWO")]);
			const done = rpc.prompt("go");
			await shown(emacs);
			await intoProposal(emacs);
			emacs.keys("M-<", "C-n", "C-n", "C-n", "C-e");
			emacs.keys("-l", ", by the user");
			emacs.keys("C-c", "C-c");
			await done;
			const text = readFileSync(main(), "utf8");
			expect(text).toContain("LINE TWO\n");
			expect(text).toContain("line4, by the user\n");
			expect(ws.toolResults()).toContain("The user changed your proposed edit before accepting it");
			expect(ws.toolResults()).toContain("-line4\n+line4, by the user");
			await nothingLeft(emacs);
		},
	);

	test.skipIf(!line.node)("C-c C-k asks why: the file untouched, the model told the reason", async () => {
		const { emacs, rpc } = await setup([edit("line2", "LINE TWO")]);
		const before = readFileSync(main(), "utf8");
		const done = rpc.prompt("go");
		await shown(emacs);
		await intoProposal(emacs);
		emacs.keys("C-c", "C-k");
		await waitFor(
			"the reason asked",
			async () => (await evalText(emacs, "(minibufferp (window-buffer (active-minibuffer-window)))")) === "t",
		);
		emacs.keys("-l", "keep it lowercase");
		emacs.keys("Enter");
		await done;
		expect(readFileSync(main(), "utf8")).toBe(before);
		expect(ws.toolResults()).toContain("rejected this edit of src/main.ts in Emacs");
		expect(ws.toolResults()).toContain('The user\'s reason: "keep it lowercase"');
		await nothingLeft(emacs);
	});

	test.skipIf(!line.node)("killing the proposal decides nothing: pi's select asks again, saying so", async () => {
		const { emacs, rpc } = await setup([edit("line2", "LINE TWO")]);
		const done = rpc.prompt("go");
		await shown(emacs);
		await reviewSelect(rpc);
		await intoProposal(emacs);
		emacs.keys("C-x", "k");
		emacs.keys("Enter");
		const again = await reviewSelect(rpc, 1);
		expect(String(again.title)).toContain("closed without a decision: decide here.");
		rpc.respond(String(again.id), { value: "Accept" });
		await done;
		expect(readFileSync(main(), "utf8")).toContain("LINE TWO\n");
		await nothingLeft(emacs);
	});
});
