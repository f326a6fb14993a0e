import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import type { Ask } from "../../src/asks/core/ask-messages.ts";
import { planAsk } from "../../src/asks/core/placeholders.ts";
import { diagnosticsOfAsk, type PlaceholderContext, resolvePlaceholders } from "../../src/asks/placeholder-reader.ts";
import type { Diagnostic } from "../../src/editors/core/protocol-state.ts";
import { DIAGNOSTICS_NONE_NOW, DIAGNOSTICS_WITHHELD } from "../../src/prompt/core/diagnostics.ts";
import { DEFAULT_SECRET_FILE_PATTERNS, secretFileMatcher } from "../../src/safety/core/secret-files.ts";
import { SCAN_FAILED } from "../../src/safety/secret-scanner.ts";
import { MAX_SENT_TEXT_BYTES } from "../../src/shared/core/text-cuts.ts";
import { tempDir } from "../support/temp-dir.ts";

const TOKEN = "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";
const failingScan = async (): Promise<never> => {
	throw new Error("secretlint failed to load");
};

const cleanups: (() => void)[] = [];
afterEach(() => {
	for (const cleanup of cleanups.splice(0)) cleanup();
});

function project(overrides: Partial<PlaceholderContext> = {}) {
	const dir = tempDir("asks-reader");
	cleanups.push(dir.cleanup);
	mkdirSync(join(dir.path, "src"));
	writeFileSync(join(dir.path, "src", "a.ts"), "on disk, never read\n");
	writeFileSync(join(dir.path, ".env"), `TOKEN=${TOKEN}\n`);
	symlinkSync(join(dir.path, ".env"), join(dir.path, "notes.txt"));
	const context: PlaceholderContext = {
		projectDir: dir.path,
		secretFile: secretFileMatcher(DEFAULT_SECRET_FILE_PATTERNS),
		redactSecrets: true,
		...overrides,
	};
	return { root: dir.path, context };
}

const resolved = (ask: Ask, context: PlaceholderContext) => resolvePlaceholders(planAsk(ask), context);

describe("the texts an ask carries, checked as a reference's", () => {
	test("the editor's text, never the disk's; named relative to the project; a part of a line keeps its columns", async () => {
		const { root, context } = project();
		const file = join(root, "src", "a.ts");
		const ask = {
			prompt: "@this",
			placeholders: { this: { file, startLine: 3, endLine: 3, startColumn: 2, endColumn: 4, text: "abc" } },
		};
		expect(await resolved(ask, context)).toEqual([
			{
				kind: "text",
				file,
				shown: "src/a.ts",
				startLine: 3,
				endLine: 3,
				text: "abc",
				language: "ts",
				from: "selection",
				unsavedInEditor: false,
				columns: { start: 2, end: 4 },
				redactions: 0,
			},
		]);
	});

	test("a buffer with no file: by its name, its text checked all the same", async () => {
		const { context } = project();
		const ask = {
			prompt: "@this",
			placeholders: { this: { name: "[No Name]", startLine: 1, endLine: 2, text: `a\n${TOKEN}` } },
		};
		const [reference] = await resolved(ask, context);
		expect(reference).toMatchObject({ kind: "text", file: "[No Name]", shown: "[No Name]", redactions: 1 });
		expect(reference?.kind === "text" && reference.text).toBe("a\n[redacted: github]");
	});

	test.each([
		[".env", ".env"],
		["a link to .env", "notes.txt"],
	])("a secret file withheld, by its path or its real path: %s", async (_name, name) => {
		const { root, context } = project();
		const file = join(root, name);
		const [reference] = await resolved(
			{ prompt: "@this", placeholders: { this: { file, startLine: 1, endLine: 1, text: `TOKEN=${TOKEN}` } } },
			context,
		);
		expect(reference).toEqual({
			kind: "withheld",
			file,
			shown: name,
			startLine: 1,
			endLine: 1,
			reason: '.env matches the secret-file pattern ".env"',
			label: ".env",
		});
	});

	test("a text over the cap is cut with its note", async () => {
		const { root, context } = project();
		const text = Array.from({ length: 3000 }, (_, index) => `line ${index} ${"x".repeat(40)}`).join("\n");
		const ask = {
			prompt: "@this",
			placeholders: { this: { file: join(root, "src", "a.ts"), startLine: 1, endLine: 3000, text } },
		};
		const [reference] = await resolved(ask, context);
		expect(reference?.kind).toBe("text");
		if (reference?.kind !== "text") return;
		expect(Buffer.byteLength(reference.text)).toBeLessThanOrEqual(MAX_SENT_TEXT_BYTES);
		expect(reference.cutNote).toMatch(/^\[reference cut at 64 KiB: lines \d+-3000 left out\]$/);
	});

	test("a failing credential scan withholds the text; redaction off sends it as it is", async () => {
		const file = "/nonexistent/src/a.ts";
		const ask = { prompt: "@this", placeholders: { this: { file, startLine: 1, endLine: 1, text: TOKEN } } };
		const failed = await resolved(ask, project({ scan: failingScan }).context);
		expect(failed).toEqual([{ kind: "withheld", file, shown: file, startLine: 1, endLine: 1, ...SCAN_FAILED }]);
		const off = await resolved(ask, project({ redactSecrets: false }).context);
		expect(off[0]).toMatchObject({ kind: "text", text: TOKEN, redactions: 0 });
	});
});

describe("@diagnostics as the prompt's block has them", () => {
	const error = { line: 4, column: 2, severity: "error" as const, message: `leaked ${TOKEN} here` };
	const diagnosticsAsk = (file: string | undefined, items: Diagnostic[]) =>
		planAsk({ prompt: "fix @diagnostics", placeholders: { diagnostics: { ...(file && { file }), items } } });

	test("none asked: nothing", async () => {
		expect(await diagnosticsOfAsk(planAsk({ prompt: "fix it" }), project().context)).toBeUndefined();
	});

	test("errors listed, a credential in a message redacted", async () => {
		const { root, context } = project();
		const section = await diagnosticsOfAsk(diagnosticsAsk(join(root, "src", "a.ts"), [error]), context);
		expect(section).toBe("Diagnostics: 1 error, 0 warnings\n- line 4: error: leaked [redacted: github] here");
	});

	test("only hints and infos: none now", async () => {
		const { root, context } = project();
		const hint = { ...error, severity: "hint" as const };
		expect(await diagnosticsOfAsk(diagnosticsAsk(join(root, "src", "a.ts"), [hint]), context)).toBe(
			DIAGNOSTICS_NONE_NOW,
		);
	});

	test.each([".env", "notes.txt"])("a secret file's (%s) withheld", async (name) => {
		const { root, context } = project();
		expect(await diagnosticsOfAsk(diagnosticsAsk(join(root, name), [error]), context)).toBe(DIAGNOSTICS_WITHHELD);
	});

	test("a failing scan withholds them", async () => {
		const { context } = project({ scan: failingScan });
		expect(await diagnosticsOfAsk(diagnosticsAsk(undefined, [error]), context)).toBe(
			"Diagnostics: withheld (the credential scan failed)",
		);
	});
});
