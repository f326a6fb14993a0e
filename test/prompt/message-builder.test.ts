import { describe, expect, test } from "vitest";
import type { ConnectedView } from "../../src/connection/core/rules.ts";
import { NO_KNOWLEDGE } from "../../src/prompt/core/model-knowledge.ts";
import { MessageBuilder, prepareDiagnostics, prepareSelection } from "../../src/prompt/message-builder.ts";
import { editorState, selection } from "../support/fixtures.ts";

const NOW = 1_800_000_000;
/** A prompt without references: the ambient block alone, as a first prompt in auto mode gets it. */
const ambientMessage = (builder: MessageBuilder, connected: ConnectedView) =>
	builder.forPrompt(connected, NO_KNOWLEDGE, { texts: [], mode: "auto", references: NO_REFERENCES });
const NO_REFERENCES = { cwd: "/p", home: "/nonexistent-home", secretFile: () => undefined, redactSecrets: true };
const TOKEN = "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";
const view = (overrides: { cursorLine?: number; text?: string } = {}, secret = false): ConnectedView => ({
	kind: "editor",
	state: editorState({
		cwd: "/p",
		buffer: {
			file: "/p/src/main.ts",
			cursor: { line: overrides.cursorLine ?? 1, column: 1 },
			selection: selection(1, 2, overrides.text ?? `const t = "${TOKEN}";\nuse(t);`, NOW),
		},
	}),
	selectionFirstSeenSeconds: NOW,
	nowSeconds: NOW,
	...(secret && { secret: { pattern: ".env", path: "/p/.env" } }),
});

describe("MessageBuilder prepares each selection once", () => {
	test("the scan runs once per distinct selection, not per prompt or cursor move", async () => {
		let scans = 0;
		const prompts = new MessageBuilder(
			() => "/p",
			prepareSelection({
				redactSecrets: true,
				scan: async (text) => {
					scans++;
					const at = text.indexOf(TOKEN);
					return at < 0 ? [] : [{ start: at, end: at + TOKEN.length, kind: "github" }];
				},
			}),
		);
		const first = await ambientMessage(prompts, view());
		expect(first?.content).toContain('const t = "[redacted: github]";');
		await ambientMessage(prompts, view({ cursorLine: 9 }));
		await ambientMessage(prompts, view({ cursorLine: 12 }));
		expect(scans).toBe(1);
		await ambientMessage(prompts, view({ text: "other text" }));
		expect(scans).toBe(2);
	});

	test("a scan that fails withholds the text instead of sending it unchecked", async () => {
		const prompts = new MessageBuilder(
			() => "/p",
			prepareSelection({
				redactSecrets: true,
				scan: async () => {
					throw new Error("rule crashed");
				},
			}),
		);
		const message = await ambientMessage(prompts, view());
		expect(message?.content).not.toContain(TOKEN);
		expect(message?.content).toContain("text withheld: the credential scan failed, so the text stays on this machine");
		expect(message?.details.summary).toBe("editor: src/main.ts line 1, selection withheld (scan failed)");
	});

	test("a secret file's selection is never scanned; with redaction off the text goes as it is", async () => {
		let scans = 0;
		const counting = async () => {
			scans++;
			return [];
		};
		const guarded = new MessageBuilder(() => "/p", prepareSelection({ redactSecrets: true, scan: counting }));
		expect((await ambientMessage(guarded, view({}, true)))?.content).not.toContain(TOKEN);
		expect(scans).toBe(0);
		const open = new MessageBuilder(() => "/p", prepareSelection({ redactSecrets: false, scan: counting }));
		expect((await ambientMessage(open, view()))?.content).toContain(TOKEN);
		expect(scans).toBe(0);
	});
});

describe("the diagnostics section as a prompt carries it", () => {
	const withDiagnostics = (message: string, secret = false): ConnectedView => {
		const base = view({}, secret);
		if (base.kind !== "editor" || !base.state.active_buffer) throw new Error("fixture");
		return {
			...base,
			state: {
				...base.state,
				active_buffer: {
					...base.state.active_buffer,
					diagnostics: [{ line: 2, column: 1, severity: "error", message, source: "tsc" }],
				},
			},
		};
	};
	const builder = (redactSecrets: boolean, scan?: Parameters<typeof prepareDiagnostics>[0]["scan"]) =>
		new MessageBuilder(
			() => "/p",
			prepareSelection({ redactSecrets }),
			prepareDiagnostics({ redactSecrets, ...(scan && { scan }) }),
		);

	test("after the selection's text, credentials redacted like a selection", async () => {
		const message = await ambientMessage(builder(true), withDiagnostics(`token "${TOKEN}" is not used`));
		const content = message?.content ?? "";
		expect(content).toContain(
			'Diagnostics: 1 error, 0 warnings\n- line 2: error: token "[redacted: github]" is not used [tsc]',
		);
		expect(content.indexOf("Diagnostics:")).toBeGreaterThan(content.indexOf("use(t);"));
		expect(content).not.toContain(TOKEN);
	});

	test("withheld in a secret file", async () => {
		const message = await ambientMessage(builder(true), withDiagnostics("API_KEY is unused", true));
		expect(message?.content).toContain("Diagnostics: withheld (secret file)");
		expect(message?.content).not.toContain("API_KEY is unused");
	});

	test("a scan that fails withholds them", async () => {
		const failing = builder(true, async () => {
			throw new Error("rule crashed");
		});
		const message = await ambientMessage(failing, withDiagnostics("anything"));
		expect(message?.content).toContain("Diagnostics: withheld (the credential scan failed");
		expect(message?.content).not.toContain("anything");
	});

	test("not sent in explicit mode", async () => {
		const message = await builder(true).forPrompt(withDiagnostics("x is undefined"), NO_KNOWLEDGE, {
			texts: [],
			mode: "explicit",
			references: NO_REFERENCES,
		});
		expect(message?.content ?? "").not.toContain("Diagnostics");
	});
});
