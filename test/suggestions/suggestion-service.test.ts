import { symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { INVALID_PARAMS, METHOD_NOT_FOUND, REQUEST_CANCELLED } from "../../src/editors/core/json-rpc.ts";
import { messageText } from "../support/fake-model-server.ts";
import { tempDir } from "../support/temp-dir.ts";
import { waitFor } from "../support/wait-for.ts";
import { forgetProcessMemory, getSuggestions, type ServiceRig, serviceRig } from "./service-fixture.ts";

const EDITOR = "pid:4242";
const TOKEN = "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";
const NONE = { result: { suggestions: [] } };

let rig: ServiceRig | undefined;
const cleanups: (() => void)[] = [];
// Each test starts as a fresh pi process would: no counts, no `/ide suggestions`, no notice said yet.
beforeEach(forgetProcessMemory);
afterEach(async () => {
	await rig?.close();
	rig = undefined;
	for (const cleanup of cleanups.splice(0)) cleanup();
});

async function start(...args: Parameters<typeof serviceRig>): Promise<ServiceRig> {
	rig = await serviceRig(...args);
	return rig;
}

/** Everything the fake model was sent, as text. */
const sentText = (rig: ServiceRig) =>
	rig.fake.requests.flatMap((request) => request.messages.map((message) => messageText(message))).join("\n");

describe("getSuggestions answered by the model", () => {
	test("the model's blocks become the suggestions, as display text; the counts and tokens are kept", async () => {
		const { service, fake, counts } = await start();
		fake.reply = () => "<SUGGESTION>a\u001b[31m()</SUGGESTION>\n<SUGGESTION>b()</SUGGESTION>";
		expect(await service.answer(EDITOR, getSuggestions(1))).toEqual({ result: { suggestions: ["a()", "b()"] } });
		expect(fake.requests).toHaveLength(1);
		expect(fake.requests[0]?.model).toBe("coder");
		expect(fake.requests[0]?.max_completion_tokens ?? fake.requests[0]?.max_tokens).toBe(256);
		expect(counts()).toMatchObject({ requests: 1, answered: 1, inputTokens: 1, outputTokens: 1 });
	});

	test("a model answer with no block is an empty answer", async () => {
		const { service, fake, counts } = await start();
		fake.reply = () => "I cannot complete this.";
		expect(await service.answer(EDITOR, getSuggestions(1))).toEqual(NONE);
		expect(counts()).toMatchObject({ requests: 1, empty: 1 });
	});

	test("suggestionCount caps the answer; 0 asks no model", async () => {
		const { service, fake } = await start();
		fake.reply = () => "<SUGGESTION>a</SUGGESTION><SUGGESTION>b</SUGGESTION>";
		expect(await service.answer(EDITOR, getSuggestions(1, { suggestionCount: 1 }))).toEqual({
			result: { suggestions: ["a"] },
		});
		expect(await service.answer(EDITOR, getSuggestions(2, { suggestionCount: 0 }))).toEqual(NONE);
		expect(fake.requests).toHaveLength(1);
	});
});

describe("nothing leaves for a secret file, a request with no file, or suggestions off", () => {
	test.each([
		["a .env file", { filePath: "/home/dev/proj/.env" }],
		["a key file", { filePath: "/home/dev/proj/deploy/id_rsa" }],
		["no filePath", { filePath: undefined }],
		["a null filePath", { filePath: null }],
		["an empty filePath", { filePath: "" }],
	])("%s: no suggestions, no model call", async (_name, params) => {
		const { service, fake, counts } = await start();
		expect(await service.answer(EDITOR, getSuggestions(1, params))).toEqual(NONE);
		expect(fake.requests).toEqual([]);
		expect(counts()).toMatchObject({ requests: 1, refused: 1 });
	});

	test("a link to a secret file (notes.txt -> .env): no suggestions, no model call", async () => {
		const dir = tempDir("suggest-secret-link");
		cleanups.push(dir.cleanup);
		writeFileSync(join(dir.path, ".env"), "TOKEN=1\n");
		symlinkSync(join(dir.path, ".env"), join(dir.path, "notes.txt"));
		const { service, fake, counts } = await start();
		const params = { filePath: join(dir.path, "notes.txt") };
		expect(await service.answer(EDITOR, getSuggestions(1, params))).toEqual(NONE);
		expect(fake.requests).toEqual([]);
		expect(counts()).toMatchObject({ requests: 1, refused: 1 });
	});

	test("off: no suggestions, no model call; on again answers", async () => {
		const { service, fake, now } = await start();
		now.standing = { mode: "off", source: "global" };
		expect(await service.answer(EDITOR, getSuggestions(1))).toEqual(NONE);
		expect(fake.requests).toEqual([]);
		now.standing = { mode: "on", source: "process" };
		expect(await service.answer(EDITOR, getSuggestions(2))).toEqual({ result: { suggestions: ["fromModel()"] } });
	});

	test("a token in cursorBefore (and in every other text field) never reaches the model", async () => {
		const { service, fake } = await start();
		const secret = `const token = "${TOKEN}";\n`;
		await service.answer(
			EDITOR,
			getSuggestions(1, {
				cursorBefore: `${secret}const value = `,
				cursorAfter: `;\n${secret}`,
				outline: secret,
				enclosingScope: secret,
			}),
		);
		expect(fake.requests).toHaveLength(1);
		const body = JSON.stringify(fake.requests[0]);
		expect(body).not.toContain(TOKEN);
		expect(body).not.toContain("wWPw5k4aXcaT4fNP0UcnZwJUVFk6LO0pINUx");
		expect(sentText(rig as ServiceRig)).toContain("const value = ");
	});

	test("a scan that fails: the request is withheld, no model call", async () => {
		const { service, fake, counts } = await start({
			redact: async () => {
				throw new Error("secretlint broke");
			},
		});
		expect(await service.answer(EDITOR, getSuggestions(1))).toEqual(NONE);
		expect(fake.requests).toEqual([]);
		expect(counts()).toMatchObject({ refused: 1 });
	});
});

describe("the rate limit, per editor", () => {
	test("over N a minute: no suggestions and counted; another editor has its own; a minute later again", async () => {
		const { service, fake, now, clock, counts } = await start();
		now.perMinute = 2;
		for (const id of [1, 2]) expect(await service.answer(EDITOR, getSuggestions(id))).not.toEqual(NONE);
		// No suggestions, with why: the editor can say so (VS Code's "pi" output channel logs it).
		expect(await service.answer(EDITOR, getSuggestions(3))).toEqual({
			result: { suggestions: [], reason: "rate limited: at most 2 a minute" },
		});
		expect(await service.answer("pid:7", getSuggestions(4))).not.toEqual(NONE);
		expect(fake.requests).toHaveLength(3);
		expect(counts()).toMatchObject({ requests: 4, rateLimited: 1, answered: 3 });
		clock.advance(60_000);
		expect(await service.answer(EDITOR, getSuggestions(5))).not.toEqual(NONE);
		expect(fake.requests).toHaveLength(4);
	});
});

describe("one request in flight per editor, cancels and timeouts", () => {
	test("a newer request aborts the older one's model call; the older answers cancelled", async () => {
		const { service, fake, counts } = await start();
		fake.delayMs = 10_000;
		const older = service.answer(EDITOR, getSuggestions(1));
		await waitFor("the first model request", () => fake.requests.length === 1);
		fake.delayMs = 0;
		const newer = service.answer(EDITOR, getSuggestions(2));
		expect(await older).toEqual({ error: { code: REQUEST_CANCELLED, message: "request cancelled" } });
		expect(await newer).toEqual({ result: { suggestions: ["fromModel()"] } });
		await waitFor("the first model request aborted", () => fake.aborts.some((abort) => abort.index === 0));
		expect(counts()).toMatchObject({ requests: 2, cancelled: 1, answered: 1 });
	});

	test("another editor's request does not abort it", async () => {
		const { service, fake } = await start();
		fake.delayMs = 300;
		const first = service.answer(EDITOR, getSuggestions(1));
		const second = service.answer("pid:7", getSuggestions(1));
		expect(await first).toEqual({ result: { suggestions: ["fromModel()"] } });
		expect(await second).toEqual({ result: { suggestions: ["fromModel()"] } });
		expect(fake.aborts).toEqual([]);
	});

	test("a cancel before its request came: answered cancelled, no model call", async () => {
		const { service, fake, counts } = await start();
		service.cancelled(EDITOR, 7);
		expect(await service.answer(EDITOR, getSuggestions(7))).toEqual({
			error: { code: REQUEST_CANCELLED, message: "request cancelled" },
		});
		expect(fake.requests).toEqual([]);
		// Remembered once, and for that editor's id only: "7" and another editor's 7 are other requests.
		service.cancelled(EDITOR, 8);
		expect(await service.answer(EDITOR, getSuggestions("8"))).not.toHaveProperty("error");
		expect(await service.answer("pid:7", getSuggestions(8))).not.toHaveProperty("error");
		expect(counts()).toMatchObject({ requests: 3, cancelled: 1 });
	});

	test("a cancel after the request reached the model: the HTTP request aborted, answered cancelled", async () => {
		const { service, fake } = await start();
		fake.delayMs = 10_000;
		const answering = service.answer(EDITOR, getSuggestions(3));
		await waitFor("the model request", () => fake.requests.length === 1);
		const cancelledAt = performance.now();
		service.cancelled(EDITOR, 3);
		expect(await answering).toEqual({ error: { code: REQUEST_CANCELLED, message: "request cancelled" } });
		const abort = await waitFor("the model request aborted", () => fake.aborts[0]);
		expect(abort.atMs - cancelledAt).toBeLessThan(1000);
	});

	test("the editor's connection gone: its model call aborted", async () => {
		const { service, fake } = await start();
		fake.delayMs = 10_000;
		const answering = service.answer(EDITOR, getSuggestions(1));
		await waitFor("the model request", () => fake.requests.length === 1);
		service.editorGone(EDITOR);
		expect(await answering).toMatchObject({ error: { code: REQUEST_CANCELLED } });
		await waitFor("the model request aborted", () => fake.aborts.length === 1);
	});

	test("a model that does not answer in time: the call aborted, an error naming the timeout", async () => {
		const { service, fake, counts } = await start({ timeoutMs: 150 });
		fake.delayMs = 10_000;
		const answer = await service.answer(EDITOR, getSuggestions(1));
		expect(answer).toEqual({ error: { code: -32603, message: "no answer within 150 ms" } });
		await waitFor("the model request aborted", () => fake.aborts.length === 1);
		expect(counts()).toMatchObject({ errors: 1 });
		expect(service.statusLines()).toContain("  last error: no answer within 150 ms");
	});

	test("close: every call aborted and answered before it resolves; later requests ask nothing", async () => {
		const { service, fake } = await start();
		fake.delayMs = 10_000;
		const settled: unknown[] = [];
		for (const key of [EDITOR, "pid:7"])
			void service.answer(key, getSuggestions(1)).then((answer) => settled.push(answer));
		await waitFor("both model requests", () => fake.requests.length === 2);
		await service.close();
		expect(settled).toEqual([
			{ error: { code: REQUEST_CANCELLED, message: "request cancelled" } },
			{ error: { code: REQUEST_CANCELLED, message: "request cancelled" } },
		]);
		expect(await service.answer(EDITOR, getSuggestions(2))).toEqual(NONE);
		expect(fake.requests).toHaveLength(2);
	});
});

describe("the one notice of asked-only", () => {
	test("the first answer of the pi process names the model; no second notice, not even in a new session", async () => {
		const { service, notices } = await start();
		await service.answer(EDITOR, getSuggestions(1));
		await service.answer("pid:7", getSuggestions(2));
		expect(notices).toHaveLength(1);
		expect(notices[0]).toContain("pi answers with fake/coder");
		expect(notices[0]).toContain("/ide suggestions off");
		const nextSession = await serviceRig();
		await nextSession.service.answer(EDITOR, getSuggestions(1));
		expect(nextSession.notices).toEqual([]);
		await nextSession.close();
	});

	test("a notice that throws (its UI gone) does not cost the answer", async () => {
		const { service } = await start({
			notify: () => {
				throw new Error("stale ctx");
			},
		});
		expect(await service.answer(EDITOR, getSuggestions(1))).toEqual({ result: { suggestions: ["fromModel()"] } });
	});

	test("none when the user turned suggestions on, and none for a request that asked no model", async () => {
		const { service, notices, now } = await start();
		await service.answer(EDITOR, getSuggestions(1, { filePath: "/p/.env" }));
		expect(notices).toEqual([]);
		now.standing = { mode: "on", source: "global" };
		await service.answer(EDITOR, getSuggestions(2));
		expect(notices).toEqual([]);
	});
});

describe("which model", () => {
	test("the flag wins over the request's model; the request's over the session's; an unknown one is skipped", async () => {
		const { service, fake, now } = await start();
		await service.answer(EDITOR, getSuggestions(1, { model: "fake/other" }));
		await service.answer(EDITOR, getSuggestions(2, { model: "nowhere/model" }));
		now.flag = "fake/thinker";
		await service.answer(EDITOR, getSuggestions(3, { model: "fake/other" }));
		expect(fake.requests.map((request) => request.model)).toEqual(["other", "coder", "thinker"]);
	});

	test("the global setting's model over the session's; a flag naming a model pi lacks is an error", async () => {
		const { service, fake, now } = await start();
		now.standing = { mode: "on", model: "fake/other", source: "global" };
		await service.answer(EDITOR, getSuggestions(1));
		now.flag = "fake/missing";
		expect(await service.answer(EDITOR, getSuggestions(2))).toEqual({
			error: { code: -32603, message: "--pi-ide-suggestion-model names fake/missing, which pi does not have" },
		});
		expect(fake.requests.map((request) => request.model)).toEqual(["other"]);
	});
});

describe("the other methods", () => {
	test("listSuggestionModels as pi-ide answers it: the flag, the session's model, every model pi has a key for", async () => {
		const { service, now } = await start();
		expect(await service.answer(EDITOR, { id: 1, method: "listSuggestionModels", params: undefined })).toEqual({
			result: {
				currentModel: "fake/coder",
				models: [
					{ provider: "fake", id: "coder", name: "Fake coder", model: "fake/coder" },
					{ provider: "fake", id: "other", name: "Fake other", model: "fake/other" },
					{ provider: "fake", id: "thinker", name: "Fake thinker", model: "fake/thinker" },
				],
			},
		});
		now.flag = "fake/other";
		expect(await service.answer(EDITOR, { id: 2, method: "listSuggestionModels", params: {} })).toMatchObject({
			result: { cliOverride: "fake/other", currentModel: "fake/coder" },
		});
	});

	test("any other method: method not found, nothing counted", async () => {
		const { service, counts } = await start();
		expect(await service.answer(EDITOR, { id: 1, method: "openDiff\u001b[2J", params: {} })).toEqual({
			error: { code: METHOD_NOT_FOUND, message: "pi does not serve openDiff" },
		});
		expect(counts().requests).toBe(0);
	});

	test.each<[string, unknown]>([
		["no params", undefined],
		["an array", [1, 2]],
		["cursorBefore missing", { cursorAfter: "", filePath: "/a.ts" }],
		["a number for a path", { cursorBefore: "", cursorAfter: "", filePath: 5 }],
	])("not a request (%s): invalid params, no model call", async (_name, params) => {
		const { service, fake } = await start();
		const answer = await service.answer(EDITOR, { id: 1, method: "getSuggestions", params });
		expect(answer).toMatchObject({ error: { code: INVALID_PARAMS } });
		expect(fake.requests).toEqual([]);
	});
});

describe("/ide status and the editors' side", () => {
	test("the standing, the model and the counts of this pi process", async () => {
		const { service, fake } = await start();
		fake.reply = () => "nothing";
		await service.answer(EDITOR, getSuggestions(1));
		await service.answer(EDITOR, getSuggestions(2, { filePath: "/p/.env" }));
		expect(service.statusLines()).toEqual([
			'Suggestions: answered when an editor asks on its own (the default; /ide suggestions on|off, or "suggestions" in pi\'s global settings)',
			"  model: fake/coder (the session's model, unless the editor names one pi has)",
			"  requests: 2: 1 empty, 1 refused (no model call)",
			"  tokens: 1 in, 1 out",
		]);
	});

	test("forEditors: the same service as the editors' requests hook; wanted unless off", async () => {
		const { service, now } = await start();
		const hook = service.forEditors();
		expect(hook.wanted()).toBe(true);
		expect(await hook.answer(EDITOR, getSuggestions(1))).toEqual({ result: { suggestions: ["fromModel()"] } });
		now.standing = { mode: "off", source: "process" };
		expect(hook.wanted()).toBe(false);
	});
});
