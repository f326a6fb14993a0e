import { readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { useE2eWorkspace } from "../support/e2e-workspace.ts";
import { type ChatRequest, messageText, writerModel } from "../support/fake-model-server.ts";
import { projectState, type StateOverrides, selection } from "../support/fixtures.ts";
import { piLines, spawnPi } from "../support/pi-cli.ts";
import { RpcPi } from "../support/rpc-pi.ts";
import { waitFor } from "../support/wait-for.ts";

const now = () => Math.floor(Date.now() / 1000);
const GITHUB_TOKEN = "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";
const STRIPE_KEY = "sk_live_51H8xYzAbCdEfGhIjKlMnOpQrStUvWx";

describe.each(piLines())("editor safety through the real $name CLI (print mode)", (line) => {
	const ws = useE2eWorkspace();

	async function ask(prompt: string) {
		const run = spawnPi(line, { cwd: ws.project, agentDir: ws.agentDir, stateDir: ws.stateDir, args: ["-p", prompt] });
		const code = await run.exited;
		expect(code, run.stderr()).toBe(0);
		return ws.server.requests;
	}
	const editorWith = (overrides: StateOverrides, name?: string) => {
		const nvim = ws.editor();
		nvim.write({ ...projectState(ws.project, overrides, name), pid: nvim.pid });
		return nvim;
	};
	const sent = (requests: ChatRequest[]) => requests.flatMap((request) => request.messages.map(messageText)).join("\n");

	test.skipIf(!line.node)(
		"a selection in .env is withheld: the block names file and range, never the text",
		async () => {
			writeFileSync(join(ws.project, ".env"), "API_KEY=hunter2-not-for-the-model\n");
			editorWith(
				{
					buffer: {
						file: join(ws.project, ".env"),
						name: ".env",
						selection: selection(1, 1, "API_KEY=hunter2-not-for-the-model", now()),
					},
				},
				".env",
			);
			const all = sent(await ask("what is selected?"));
			expect(all).not.toContain("hunter2-not-for-the-model");
			expect(all).toContain(`File: ${ws.project}/.env`);
			expect(all).toContain(
				'Selection: line 1 (from line 1 column 1 to line 1 column 5), text withheld: .env matches the secret-file pattern ".env"',
			);
		},
	);

	test.skipIf(!line.node)("a config.txt that is a symlink to .env is a secret file too", async () => {
		writeFileSync(join(ws.project, ".env"), "TOKEN=abc\n");
		symlinkSync(join(ws.project, ".env"), join(ws.project, "config.txt"));
		editorWith(
			{
				buffer: {
					file: join(ws.project, "config.txt"),
					name: "config.txt",
					selection: selection(1, 1, "TOKEN=abc-secret-value", now()),
				},
			},
			"config.txt",
		);
		const all = sent(await ask("what is selected?"));
		expect(all).not.toContain("abc-secret-value");
		expect(all).toContain("text withheld: .env matches the secret-file pattern");
	});

	test.skipIf(!line.node)(
		"tokens inside an ordinary selection are redacted in the request the model receives",
		async () => {
			const code = `const gh = "${GITHUB_TOKEN}";\nconst stripe = "${STRIPE_KEY}";\nconst password = readPassword();`;
			editorWith({ buffer: { selection: selection(1, 3, code, now()) } });
			const all = sent(await ask("review this"));
			expect(all).not.toContain(GITHUB_TOKEN);
			expect(all).not.toContain(STRIPE_KEY);
			expect(all).toContain(
				'const gh = "[redacted: github]";\nconst stripe = "[redacted: stripe]";\nconst password = readPassword();',
			);
		},
	);

	test.skipIf(!line.node)(
		"the model's write to the file with unsaved changes is blocked; the file is unchanged",
		async () => {
			ws.server.reply = writerModel("src/main.ts", "overwritten by the model\n", "overwrite it");
			const file = join(ws.project, "src", "main.ts");
			const before = readFileSync(file, "utf8");
			editorWith({ buffer: { modified: true } });
			const requests = await ask("overwrite it");
			expect(readFileSync(file, "utf8")).toBe(before);
			const toolResult = requests.at(-1)?.messages.find((message) => message.role === "tool");
			expect(messageText(toolResult ?? { content: "" })).toContain(
				`Blocked: the user's editor has unsaved changes to ${file}.`,
			);
			expect(messageText(toolResult ?? { content: "" })).toContain(
				"Ask the user to save or discard the changes in the editor, then try again.",
			);
		},
	);

	test.skipIf(!line.node)(
		"RPC: blocked with a notice naming the file; after the editor saves, the same call goes through",
		async () => {
			ws.server.reply = writerModel("src/main.ts", "after the save\n", "overwrite it");
			const file = join(ws.project, "src", "main.ts");
			const nvim = editorWith({ buffer: { modified: true } });
			const rpc = RpcPi.start(line, { cwd: ws.project, agentDir: ws.agentDir, stateDir: ws.stateDir });
			try {
				await waitFor("connected", () => rpc.lastWidget() === "in main.ts", 30_000);
				await rpc.prompt("overwrite it");
				expect(readFileSync(file, "utf8")).toBe("line1\nline2\nline3\nline4\nline5\nline6\n");
				expect(rpc.notices()).toContain(
					"pi-ide: blocked the model's write of main.ts: your editor has unsaved changes to it (save or discard them, then let it retry)",
				);
				nvim.write({ ...projectState(ws.project, { buffer: { modified: false } }), pid: nvim.pid });
				await rpc.prompt("overwrite it");
				expect(readFileSync(file, "utf8")).toBe("after the save\n");
			} finally {
				await rpc.stop();
			}
		},
	);

	test.skipIf(!line.node)("a file the client lists in unsaved_files (not the active one) is guarded too", async () => {
		const other = join(ws.project, "src", "other.ts");
		writeFileSync(other, "other\n");
		ws.server.reply = writerModel("src/other.ts", "overwritten by the model\n", "overwrite it");
		const nvim = ws.editor();
		nvim.write({ ...projectState(ws.project), pid: nvim.pid, unsaved_files: [other] });
		const requests = await ask("overwrite it");
		expect(readFileSync(other, "utf8")).toBe("other\n");
		const toolResult = requests.at(-1)?.messages.find((message) => message.role === "tool");
		expect(messageText(toolResult ?? { content: "" })).toContain(
			`Blocked: the user's editor has unsaved changes to ${other}.`,
		);
	});

	test.skipIf(!line.node)("once the editor reports the file saved, the same write goes through", async () => {
		ws.server.reply = writerModel("@src/main.ts", "written by the model\n", "overwrite it");
		editorWith({ buffer: { modified: false } });
		await ask("overwrite it");
		expect(readFileSync(join(ws.project, "src", "main.ts"), "utf8")).toBe("written by the model\n");
	});
});
