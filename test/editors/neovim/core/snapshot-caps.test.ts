import { describe, expect, test } from "vitest";
import { DiagnosticSchema } from "../../../../src/editors/core/protocol-state.ts";
import { parseSnapshot, type Snapshot, SnapshotSchema } from "../../../../src/editors/neovim/core/snapshot.ts";
import {
	LUA_SELECTION_BYTES,
	MAX_ARGS,
	MAX_DIAGNOSTIC_MESSAGE_BYTES,
	MAX_DIAGNOSTIC_SOURCE_BYTES,
	MAX_LANGUAGE_BYTES,
	MAX_LISTED_FILES,
	MAX_MODE_BYTES,
	MAX_PATH_BYTES,
	SNAPSHOT_SELECTION_CHARS,
} from "../../../../src/editors/neovim/core/snapshot-caps.ts";
import { MAX_SENT_TEXT_BYTES } from "../../../../src/shared/core/text-cuts.ts";

const snapshot = (): Snapshot => ({
	cwd: "/p",
	argv: ["nvim", "src/main.ts"],
	ui: true,
	mode: "n",
	unsaved: ["/p/a.ts"],
	buffer: {
		file: "/p/src/main.ts",
		language: "typescript",
		cursor: { line: 1, column: 1 },
		modified: false,
		lines_total: 1,
		autoread: true,
		diagnostics: [],
	},
	selection: { start: { line: 1, column: 1 }, end: { line: 1, column: 1 }, text: "x", visual: false, linewise: false },
});

describe("the caps' order: the Lua's cut, then pi's, under the schema's bound", () => {
	const schema = SnapshotSchema.properties;
	const buffer = schema.buffer.properties;
	/** A bound as the schema states it (JSON Schema's keywords, read from the schema object itself). */
	const bound = (of: object, keyword: "maxLength" | "maxItems") => (of as Record<string, number | undefined>)[keyword];
	// Every Lua cap is in UTF-8 bytes and each schema bound in UTF-16 units: n bytes are never more than n units.
	test.each<[string, number, number]>([
		[
			"pi's 64 KiB cut is below the Lua's (a cut selection always gets the block's cut note)",
			MAX_SENT_TEXT_BYTES,
			LUA_SELECTION_BYTES,
		],
		[
			"the Lua's selection cut is below the schema's bound",
			LUA_SELECTION_BYTES,
			bound(schema.selection.properties.text, "maxLength") as number,
		],
		["pi's own cut is below the schema's bound", MAX_SENT_TEXT_BYTES, SNAPSHOT_SELECTION_CHARS],
	])("%s", (_name, below, above) => expect(below).toBeLessThan(above));
	test.each<[string, number, number | undefined]>([
		["cwd", MAX_PATH_BYTES, bound(schema.cwd, "maxLength")],
		["each argument", MAX_PATH_BYTES, bound(schema.argv.items, "maxLength")],
		["arguments", MAX_ARGS, bound(schema.argv, "maxItems")],
		["the mode", MAX_MODE_BYTES, bound(schema.mode, "maxLength")],
		["each unsaved name", MAX_PATH_BYTES, bound(schema.unsaved.items, "maxLength")],
		["unsaved names", MAX_LISTED_FILES, bound(schema.unsaved, "maxItems")],
		["the file", MAX_PATH_BYTES, bound(buffer.file, "maxLength")],
		["the language", MAX_LANGUAGE_BYTES, bound(buffer.language, "maxLength")],
		["a diagnostic's message", MAX_DIAGNOSTIC_MESSAGE_BYTES, bound(DiagnosticSchema.properties.message, "maxLength")],
		["a diagnostic's source", MAX_DIAGNOSTIC_SOURCE_BYTES, bound(DiagnosticSchema.properties.source, "maxLength")],
	])("the Lua's cap on %s is within the schema's bound", (_name, cap, limit) => {
		expect(limit).toBeDefined();
		expect(cap).toBeLessThanOrEqual(limit as number);
	});
});

describe("an oversize field is cut with a reason; the rest of the snapshot stands", () => {
	const long = (chars: number) => `/${"a".repeat(chars - 1)}`;
	const diagnostic = { line: 1, column: 1, severity: "error", message: "m" };
	const inBuffer = (fields: Record<string, unknown>) => ({ buffer: { ...snapshot().buffer, ...fields } });
	const selected = (text: string) => ({ selection: { ...snapshot().selection, text } });
	test.each<[string, Record<string, unknown>, (kept: Snapshot) => void, string]>([
		[
			"the selection's text",
			selected("é".repeat(100_000)),
			(kept) => expect(kept.selection?.text).toBe("é".repeat(SNAPSHOT_SELECTION_CHARS)),
			"the selection cut at 70000 characters (100000 sent)",
		],
		[
			"the selection's text, never inside a surrogate pair",
			selected(`${"a".repeat(SNAPSHOT_SELECTION_CHARS - 1)}🌍🌍`),
			(kept) => expect(kept.selection?.text).toBe("a".repeat(SNAPSHOT_SELECTION_CHARS - 1)),
			"the selection cut",
		],
		["cwd", { cwd: long(5000) }, (kept) => expect(kept.cwd).toBe(long(MAX_PATH_BYTES)), "cwd cut"],
		[
			"argv: too many",
			{ argv: Array.from({ length: 70 }, (_, index) => `f${index}`) },
			(kept) => expect(kept.argv.at(-1)).toBe("f63"),
			"argv: the first 64 of 70 kept",
		],
		[
			"an argument",
			{ argv: ["nvim", long(5000)] },
			(kept) => expect(kept.argv[1]).toHaveLength(MAX_PATH_BYTES),
			"an argument cut",
		],
		[
			"the unsaved list: too many",
			{ unsaved: Array.from({ length: 1001 }, (_, index) => `/f${index}`) },
			(kept) => expect(kept.unsaved).toHaveLength(MAX_LISTED_FILES),
			"the unsaved list: the first 1000 of 1001 kept",
		],
		[
			"an unsaved name too long to be a path",
			{ unsaved: [long(5000), "/p/b.ts"] },
			(kept) => expect(kept.unsaved).toEqual(["/p/b.ts"]),
			"unsaved file names over 4096 characters left out",
		],
		[
			"the file: left out, the buffer unnamed",
			inBuffer({ file: long(5000) }),
			(kept) => expect(kept.buffer?.file).toBeUndefined(),
			"the file name over 4096 characters left out",
		],
		[
			"the language",
			inBuffer({ language: "x".repeat(300) }),
			(kept) => expect(kept.buffer?.language).toHaveLength(MAX_LANGUAGE_BYTES),
			"the language cut",
		],
		[
			"diagnostics: too many, a message too long",
			inBuffer({ diagnostics: [{ ...diagnostic, message: "m".repeat(2000) }, ...Array(150).fill(diagnostic)] }),
			(kept) => {
				expect(kept.buffer?.diagnostics).toHaveLength(100);
				expect(kept.buffer?.diagnostics[0]?.message).toHaveLength(MAX_DIAGNOSTIC_MESSAGE_BYTES);
			},
			"the diagnostics: the first 100 of 151 kept",
		],
		["the mode", { mode: "v".repeat(40) }, (kept) => expect(kept.mode).toBe("v".repeat(16)), "mode cut"],
	])("%s", (_name, oversize, check, reason) => {
		const raw = { ...snapshot(), ...oversize };
		const sent = structuredClone(raw);
		const parsed = parseSnapshot(raw);
		expect(parsed.ok).toBe(true);
		if (!parsed.ok) return;
		check(parsed.snapshot);
		expect(parsed.cuts.join("; ")).toContain(reason);
		// What Neovim sent is not changed in place, and the other fields are as sent.
		expect(raw).toEqual(sent);
		expect(parsed.snapshot.ui).toBe(true);
		expect(parsed.snapshot.buffer?.cursor).toEqual({ line: 1, column: 1 });
	});

	test("a snapshot within every cap: nothing cut", () => {
		expect(parseSnapshot(snapshot())).toMatchObject({ ok: true, cuts: [] });
	});
});
