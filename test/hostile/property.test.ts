/**
 * Property tests: random states, random bytes and random sequences of state-dir operations, through the
 * real parser, formatters, watcher and controller. `npm test` runs a fixed seed; set PI_IDE_PROPERTY_RUNS
 * (and optionally PI_IDE_PROPERTY_SEED) for a longer hunt. fast-check prints the seed and the shrunk
 * counterexample on failure.
 */
import { chmodSync, readFileSync, rmSync, symlinkSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { visibleWidth } from "@mariozechner/pi-tui";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { autoConnectTarget } from "../../src/connection/core/rules.ts";
import { fitWidgetLine, widgetText } from "../../src/connection/core/widget-line.ts";
import { parseStateFile } from "../../src/editors/state-dir/core/parse.ts";
import { controllerBlock, firstBlockFor } from "../support/blocks.ts";
import { ControllerHarness } from "../support/controller-harness.ts";
import { FakeEditor, writeAtomic } from "../support/fake-editor.ts";
import { waitFor } from "../support/wait-for.ts";

const RUNS = Number(process.env.PI_IDE_PROPERTY_RUNS ?? 0);
const SEED = Number(process.env.PI_IDE_PROPERTY_SEED ?? 20261129);
const params = (defaultRuns: number) => ({ seed: SEED, numRuns: RUNS > 0 ? RUNS : defaultRuns });

const UNSAFE_FOR_TERMINAL = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
const UNSAFE_FOR_PROMPT =
	/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
const NOW = 1_800_000_000;

/** Strings that mix ordinary text with what attackers put in: escape sequences, controls, bidi, wide chars. */
const hostileString = fc.oneof(
	fc.string({ unit: "binary", maxLength: 40 }),
	fc
		.array(
			fc.constantFrom(
				"main",
				".ts",
				"/",
				"\u001b[2J",
				"\u001b]0;x\u0007",
				"\u009b31m",
				"\u202E",
				"\u2066",
				"\n",
				"\t",
				"\r",
				"\u0000",
				"文件",
				"😀",
				"`",
				"```",
				"~~~",
				"</editor-context>",
				" ",
			),
			{ maxLength: 12 },
		)
		.map((parts) => parts.join("")),
);

const position = fc.record({
	line: fc.oneof(fc.integer({ min: 1, max: 5000 }), fc.constant("1" as unknown as number)),
	column: fc.integer({ min: 0, max: 500 }),
});

/** State-shaped objects: mostly valid, sometimes with a field of the wrong type or missing. */
const stateLike = fc.record(
	{
		pid: fc.oneof(fc.constant(4242), fc.integer({ min: -5, max: 2 ** 33 }), fc.constant("4242" as unknown as number)),
		cwd: fc.oneof(
			fc.constant("/home/dev/proj"),
			hostileString.map((s) => `/${s}`),
			fc.constant(7 as unknown as string),
		),
		timestamp: fc.oneof(fc.integer({ min: 0, max: NOW + 1000 }), fc.double()),
		app: fc.oneof(fc.constant("nvim"), hostileString),
		argv: fc.oneof(fc.array(hostileString, { maxLength: 80 }), fc.constant("x" as unknown as string[])),
		active_buffer: fc.oneof(
			fc.record(
				{
					file: fc.oneof(
						fc.constant("/home/dev/proj/src/main.ts"),
						hostileString.map((s) => `/home/dev/proj/${s}`),
						hostileString,
						fc.constant(null),
					),
					name: hostileString,
					language: fc.oneof(fc.constant("typescript"), hostileString, fc.constant(null)),
					cursor: fc.record({
						line: fc.oneof(fc.integer({ min: 1, max: 9999 }), fc.constant(null)),
						column: fc.oneof(fc.integer({ min: 0, max: 999 }), fc.constant(null)),
					}),
					selection: fc.oneof(
						fc.constant(null),
						fc.record({
							start: position,
							end: position,
							text: fc.oneof(hostileString, fc.string({ maxLength: 400 }), fc.constant(5 as unknown as string)),
							selected_at: fc.oneof(fc.integer({ min: NOW - 200, max: NOW + 200 }), fc.constant(null)),
						}),
					),
					modified: fc.oneof(fc.boolean(), fc.constant("no" as unknown as boolean)),
					lines_total: fc.oneof(fc.integer({ min: 0, max: 100_000 }), fc.double(), fc.constant(-1)),
				},
				{ requiredKeys: ["name", "cursor", "modified", "lines_total"] },
			),
			fc.constant(null),
			fc.constant("main.ts" as unknown as null),
		),
	},
	{ requiredKeys: ["pid", "cwd", "timestamp", "app"] },
);

const bytesOf = fc.oneof(
	stateLike.map((state) => new TextEncoder().encode(JSON.stringify(state))),
	fc.uint8Array({ maxLength: 300 }),
	stateLike.chain((state) => {
		const text = JSON.stringify(state);
		return fc.integer({ min: 0, max: text.length }).map((cut) => new TextEncoder().encode(text.slice(0, cut)));
	}),
);

function checkDisplayAndPrompt(bytes: Uint8Array, width: number, firstSeen: number): void {
	const result = parseStateFile("4242.json", bytes);
	if (!result.ok) {
		expect(typeof result.reason).toBe("string");
		expect(result.reason.length).toBeGreaterThan(0);
		return;
	}
	const text = widgetText(result.state, firstSeen, NOW);
	if (text !== undefined) {
		expect(text).toMatch(/^(\d+ lines? selected )?in /);
		const line = fitWidgetLine(text, width);
		expect(line).not.toMatch(UNSAFE_FOR_TERMINAL);
		expect(visibleWidth(line)).toBeLessThanOrEqual(width);
	}
	const block = firstBlockFor(result.state, firstSeen, NOW);
	if (block !== undefined) expect(block).not.toMatch(UNSAFE_FOR_PROMPT);
}

describe("properties of the pure core", () => {
	test("parse never throws; widget lines stay clean and within the width; blocks carry no raw controls", () => {
		fc.assert(
			fc.property(
				bytesOf,
				fc.integer({ min: 0, max: 200 }),
				fc.integer({ min: NOW - 100, max: NOW }),
				(bytes, width, firstSeen) => {
					checkDisplayAndPrompt(bytes, width, firstSeen);
				},
			),
			params(3000),
		);
	});
});

// --- through the real watcher + controller -------------------------------------------------------------

type DirOp =
	| { kind: "write"; slot: number; valid: boolean; atomic: boolean; cwdInProject: boolean }
	| { kind: "truncate"; slot: number }
	| { kind: "unlink"; slot: number }
	| { kind: "chmod"; slot: number; mode: number }
	| { kind: "symlink"; slot: number }
	| { kind: "garbage"; slot: number; bytes: Uint8Array };

const slot = fc.integer({ min: 0, max: 2 });
const dirOp: fc.Arbitrary<DirOp> = fc.oneof(
	{
		weight: 5,
		arbitrary: fc.record({
			kind: fc.constant("write" as const),
			slot,
			valid: fc.boolean(),
			atomic: fc.boolean(),
			cwdInProject: fc.boolean(),
		}),
	},
	{ weight: 1, arbitrary: fc.record({ kind: fc.constant("truncate" as const), slot }) },
	{ weight: 1, arbitrary: fc.record({ kind: fc.constant("unlink" as const), slot }) },
	{
		weight: 1,
		arbitrary: fc.record({
			kind: fc.constant("chmod" as const),
			slot,
			mode: fc.constantFrom(0o600, 0o644, 0o666, 0o620),
		}),
	},
	{ weight: 1, arbitrary: fc.record({ kind: fc.constant("symlink" as const), slot }) },
	{
		weight: 1,
		arbitrary: fc.record({ kind: fc.constant("garbage" as const), slot, bytes: fc.uint8Array({ maxLength: 64 }) }),
	},
);

describe("properties of the watcher + controller on a real dir", () => {
	let editors: FakeEditor[] = [];
	beforeAll(() => {
		editors = [0, 1, 2].map(() => FakeEditor.spawn("/nonexistent"));
	});
	afterAll(async () => {
		await Promise.all(editors.map((editor) => editor.kill()));
	});

	test("random sequences of dir operations end in a consistent, safe state", async () => {
		let runIndex = 0;
		await fc.assert(
			fc.asyncProperty(fc.array(dirOp, { minLength: 1, maxLength: 12 }), async (ops) => {
				runIndex++;
				const connections: { key: string; unique: boolean }[] = [];
				let lastConnected: string | undefined;
				const h: ControllerHarness = new ControllerHarness({
					onAnnounce: (editor) => {
						// At the moment of an automatic connection, the connected editor must be the single best-tier one.
						if (editor && editor.key !== lastConnected) {
							const target = autoConnectTarget(h.controller.liveEditors());
							connections.push({ key: editor.key, unique: target?.key === editor.key });
						}
						lastConnected = editor?.key;
					},
				});
				const { controller, project, stateDir, widgets } = h;
				/** Undefined while nothing is connected; else whether the connected editor's file is valid now. */
				const connectedFileIsValid = () => {
					const pid = h.connectedPid();
					if (pid === undefined) return undefined;
					return expectedVerdict(join(stateDir, `${pid}.json`), `${pid}.json`) === "valid";
				};
				const rejectedTokens: string[] = [];
				try {
					await controller.start();
					let counter = 0;
					for (const op of ops) {
						const editor = editors[op.slot] as FakeEditor;
						const file = join(stateDir, `${editor.pid}.json`);
						counter++;
						switch (op.kind) {
							case "write": {
								const token = `${op.valid ? "VALID" : "REJECTED"}-${runIndex}-${counter}`;
								const state = {
									pid: editor.pid,
									cwd: op.cwdInProject ? project : "/elsewhere",
									timestamp: Date.now() / 1000,
									app: "nvim",
									active_buffer: {
										file: `${project}/src/main.ts`,
										name: "main.ts",
										cursor: { line: 1, column: 1 },
										modified: false,
										lines_total: op.valid ? 3 : -3,
										selection: {
											start: { line: 1, column: 1 },
											end: { line: 1, column: 2 },
											text: token,
											selected_at: Date.now() / 1000,
										},
									},
								};
								if (!op.valid) rejectedTokens.push(token);
								rmSync(file, { force: true, recursive: true });
								if (op.atomic) writeAtomic(file, JSON.stringify(state));
								else writeFileSync(file, JSON.stringify(state), { mode: 0o600 });
								break;
							}
							case "truncate":
								try {
									truncateSync(file, 5);
								} catch {
									// Nothing to truncate: fine.
								}
								break;
							case "unlink":
								rmSync(file, { force: true, recursive: true });
								break;
							case "chmod":
								try {
									chmodSync(file, op.mode);
								} catch {
									// No file: fine.
								}
								break;
							case "symlink":
								rmSync(file, { force: true, recursive: true });
								symlinkSync(join(h.root, "elsewhere.json"), file);
								break;
							case "garbage":
								rmSync(file, { force: true, recursive: true });
								writeFileSync(file, op.bytes, { mode: 0o600 });
								break;
						}
						const block = await controllerBlock(controller);
						for (const token of rejectedTokens) expect(block ?? "").not.toContain(token);
					}

					// Every *.json in the dir ends as a valid editor or a rejection with a reason that matches its content.
					await waitFor(
						"the watcher to agree with the dir",
						() =>
							editors.every((editor) => {
								const fileName = `${editor.pid}.json`;
								const line = controller
									.statusText()
									.split("\n")
									.find((l) => l.trim().startsWith(`${fileName}: `));
								const expected = expectedVerdict(join(stateDir, fileName), fileName);
								if (expected === "absent") return line === undefined;
								if (expected === "valid") return line?.includes(": live ") === true;
								return line?.includes("rejected") === true;
							}) &&
							// Connected to an editor whose file is valid: status never says its write was rejected.
							connectedFileIsValid() !== controller.statusText().includes("its latest write was rejected"),
						3000,
						10,
					);
					for (const widget of widgets) if (widget !== undefined) expect(widget).not.toMatch(UNSAFE_FOR_TERMINAL);
					const block = await controllerBlock(controller);
					if (block) expect(block).not.toMatch(UNSAFE_FOR_PROMPT);
					for (const token of rejectedTokens) expect(block ?? "").not.toContain(token);
					for (const connection of connections) expect(connection.unique).toBe(true);
				} finally {
					await h.cleanup();
				}
			}),
			params(100),
		);
	}, 120_000);
});

/** What the trust rules and the parser say about a file, decided independently of the watcher. */
function expectedVerdict(path: string, fileName: string): "absent" | "valid" | "rejected" {
	let bytes: Buffer;
	try {
		const stat = require("node:fs").lstatSync(path);
		if (!stat.isFile() || (stat.mode & 0o022) !== 0) return "rejected";
		bytes = readFileSync(path);
	} catch (error) {
		return (error as NodeJS.ErrnoException).code === "ENOENT" ? "absent" : "rejected";
	}
	return parseStateFile(fileName, bytes).ok ? "valid" : "rejected";
}
