/**
 * Inline suggestions through the real pi, on both lines: a pi-ide.nvim-like IDE server (the fake of the
 * IDE-server tests, its lockfile in `~/.pi/ide`) asks `getSuggestions` over pi's connection, pi calls the
 * offline fake model and answers with its <SUGGESTION> blocks. The seed's contract: the answer, the models list,
 * a cancel that aborts the model's HTTP request, which model wins, what is never sent, off, the rate limit.
 */
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { useE2eWorkspace } from "../support/e2e-workspace.ts";
import { connectionOpen, idePiEnv, pickFirst, startIdeServer } from "../support/ide-server-e2e.ts";
import { FAKE_MODEL, FAKE_PROVIDER, type PiLine, piLines } from "../support/pi-cli.ts";
import { RpcPi } from "../support/rpc-pi.ts";
import {
	ask,
	globalIdeSettings,
	OTHER_MODEL,
	suggestingModel,
	suggestionAsk,
	suggestionRequests,
	writeTwoModels,
} from "../support/suggestion-e2e.ts";
import { PI_START_TIMEOUT_MS, waitFor } from "../support/wait-for.ts";

const GITHUB_TOKEN = "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";

describe.each(piLines())("inline suggestions through the real $name (RPC)", (line: PiLine) => {
	const ws = useE2eWorkspace();

	/** pi started with the fake model, connected by hand to a pi-ide.nvim-like server of the project. */
	async function connected(options: { flags?: string[]; settings?: Record<string, unknown> } = {}) {
		writeTwoModels(ws);
		if (options.settings) globalIdeSettings(ws, options.settings);
		ws.server.reply = suggestingModel;
		const server = await startIdeServer(ws, "pi-ide-nvim");
		const rpc = ws.stopLater(
			RpcPi.start(line, {
				cwd: ws.project,
				agentDir: ws.agentDir,
				stateDir: ws.stateDir,
				env: idePiEnv(ws),
				...(options.flags && { flags: options.flags }),
			}),
		);
		await waitFor(
			"the server listed",
			async () => (await rpc.ideStatus()).join("\n").includes(`holds port ${server.port}`),
			PI_START_TIMEOUT_MS,
		);
		await pickFirst(rpc);
		await connectionOpen(rpc, server);
		return { server, rpc };
	}

	test.skipIf(!line.node)(
		"answered with the model's text, a token never sent, the model named once; listSuggestionModels; /ide status counts",
		async () => {
			const { server, rpc } = await connected();
			const answered = await ask(
				server,
				suggestionAsk(ws, { cursorBefore: `const token = "${GITHUB_TOKEN}";\nconst a = ` }),
			);
			expect(answered.suggestions).toEqual([`42 /* ${FAKE_MODEL} */`]);
			const sent = JSON.stringify(suggestionRequests(ws).at(-1));
			expect(sent).not.toContain(GITHUB_TOKEN);
			expect(sent).toContain("const a = ");
			// The system prompt first (cache-friendly), a small answer asked for.
			expect(suggestionRequests(ws).at(-1)?.messages[0]?.role).toMatch(/^(system|developer)$/);
			// `/ide status` comes back as a notice too: the one notice is the other one naming the model.
			const naming = () =>
				rpc
					.notices()
					.filter((notice) => !notice.startsWith("pi-ide status") && notice.includes(`${FAKE_PROVIDER}/${FAKE_MODEL}`));
			await waitFor("the one notice naming the model", () => naming().length > 0);
			await ask(server, suggestionAsk(ws));
			expect(naming()).toHaveLength(1);

			const models = (await ask(server, {}, "listSuggestionModels")).result as Record<string, unknown>;
			expect(models.currentModel).toBe(`${FAKE_PROVIDER}/${FAKE_MODEL}`);
			expect(models.models).toEqual(
				expect.arrayContaining([
					expect.objectContaining({
						provider: FAKE_PROVIDER,
						id: OTHER_MODEL,
						model: `${FAKE_PROVIDER}/${OTHER_MODEL}`,
					}),
				]),
			);
			expect(models.cliOverride).toBeUndefined();

			const status = (await rpc.ideStatus()).join("\n");
			expect(status).toMatch(/^Suggestions: /m);
			expect(status).toContain(`${FAKE_PROVIDER}/${FAKE_MODEL}`);
			expect((await ask(server, {}, "somethingElse")).error?.code).toBe(-32601);
		},
	);

	test.skipIf(!line.node)("request_cancelled aborts the model's HTTP request and answers -32800", async () => {
		const { server } = await connected();
		ws.server.delayMs = 3000;
		const id = server.nextAskId;
		const pending = ask(server, suggestionAsk(ws));
		await waitFor("the model asked", () => suggestionRequests(ws).length === 1);
		const cancelledAt = performance.now();
		server.notifyClients("request_cancelled", { id });
		const answered = await pending;
		expect(answered.error?.code).toBe(-32800);
		await waitFor("the model's request aborted", () => ws.server.aborts.length === 1);
		expect((ws.server.aborts[0]?.atMs ?? Number.POSITIVE_INFINITY) - cancelledAt).toBeLessThan(500);
		// A cancel that comes before its request: remembered, the request answered -32800 with no model call.
		ws.server.delayMs = 0;
		server.notifyClients("request_cancelled", { id: server.nextAskId });
		expect((await ask(server, suggestionAsk(ws))).error?.code).toBe(-32800);
		expect(suggestionRequests(ws)).toHaveLength(1);
	});

	test.skipIf(!line.node)("the flag's model wins over the request's; the request's over the session's", async () => {
		const flagged = await connected({ flags: ["--pi-ide-suggestion-model", `${FAKE_PROVIDER}/${OTHER_MODEL}`] });
		expect(
			(await ask(flagged.server, suggestionAsk(ws, { model: `${FAKE_PROVIDER}/${FAKE_MODEL}` }))).suggestions,
		).toEqual([`42 /* ${OTHER_MODEL} */`]);
		const models = (await ask(flagged.server, {}, "listSuggestionModels")).result as Record<string, unknown>;
		expect(models.cliOverride).toBe(`${FAKE_PROVIDER}/${OTHER_MODEL}`);
		await flagged.rpc.stop();
		await flagged.server.stop();

		const plain = await connected();
		expect(
			(await ask(plain.server, suggestionAsk(ws, { model: `${FAKE_PROVIDER}/${OTHER_MODEL}` }))).suggestions,
		).toEqual([`42 /* ${OTHER_MODEL} */`]);
		// A model pi does not have is not taken: the session's.
		expect((await ask(plain.server, suggestionAsk(ws, { model: "nowhere/none" }))).suggestions).toEqual([
			`42 /* ${FAKE_MODEL} */`,
		]);
	});

	test.skipIf(!line.node)("a .env file and a request without filePath: no suggestions, no model call", async () => {
		const { server } = await connected();
		expect(await ask(server, suggestionAsk(ws, { filePath: join(ws.project, ".env") }))).toMatchObject({
			suggestions: [],
		});
		const { filePath: _, ...withoutPath } = suggestionAsk(ws);
		expect(await ask(server, withoutPath)).toMatchObject({ suggestions: [] });
		expect(suggestionRequests(ws)).toEqual([]);
	});

	test.skipIf(!line.node)('"suggestions": false answers nothing; the rate limit holds the model back', async () => {
		const off = await connected({ settings: { suggestions: false } });
		expect(await ask(off.server, suggestionAsk(ws))).toMatchObject({ suggestions: [] });
		expect(suggestionRequests(ws)).toEqual([]);
		await off.rpc.stop();
		await off.server.stop();

		const limited = await connected({ settings: { suggestionsPerMinute: 2 } });
		for (let round = 0; round < 2; round++)
			expect((await ask(limited.server, suggestionAsk(ws))).suggestions).toHaveLength(1);
		expect(await ask(limited.server, suggestionAsk(ws))).toMatchObject({ suggestions: [] });
		expect(suggestionRequests(ws)).toHaveLength(2);
		expect((await limited.rpc.ideStatus()).join("\n")).toMatch(/rate/i);
	});
});
