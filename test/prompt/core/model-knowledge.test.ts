import { describe, expect, test } from "vitest";
import { CONTEXT_MESSAGE_TYPE } from "../../../src/prompt/core/context-message.ts";
import {
	advanceKnowledge,
	type BranchEntry,
	type ContextDetails,
	modelKnowledge,
} from "../../../src/prompt/core/model-knowledge.ts";

const FIELDS = { App: "App: nvim", File: "File: /p/a.ts", Buffer: "Buffer: 1 lines, no unsaved changes" };
let ids = 0;
const ours = (details: Partial<ContextDetails> & Pick<ContextDetails, "kind">, id = `e${++ids}`): BranchEntry => ({
	type: "custom_message",
	id,
	customType: CONTEXT_MESSAGE_TYPE,
	details: { v: 1, summary: "s", ...(details.kind === "gone" ? {} : { fields: FIELDS }), ...details },
});
const user = (id = `e${++ids}`): BranchEntry => ({ type: "message", id });
const compaction = (firstKeptEntryId: string): BranchEntry => ({
	type: "compaction",
	id: `c${++ids}`,
	firstKeptEntryId,
});

describe("referenced code: its own bookkeeping beside the ambient chain", () => {
	test("texts sent with references count as held; a references-only message leaves the ambient chain alone", () => {
		const branch = [
			user(),
			ours({ kind: "full", selection: "s1" }),
			user(),
			ours({ kind: "references", sentReferences: ["r1", "r2"] }),
			user(),
			ours({ kind: "unchanged", selection: "s1", sentReferences: ["r3"] }),
		];
		const walked = modelKnowledge(branch, CONTEXT_MESSAGE_TYPE);
		expect(walked).toEqual({ known: { fields: FIELDS, selection: "s1" }, sentTextIds: new Set(["r1", "r2", "r3"]) });
		const before = modelKnowledge(branch.slice(0, 2), CONTEXT_MESSAGE_TYPE);
		expect(advanceKnowledge(before, branch.slice(2), CONTEXT_MESSAGE_TYPE)).toEqual(walked);
	});

	test("references alone (explicit mode) never make the model know an editor", () => {
		const branch = [user(), ours({ kind: "references", sentReferences: ["r1"] })];
		expect(modelKnowledge(branch, CONTEXT_MESSAGE_TYPE)).toEqual({ known: undefined, sentTextIds: new Set(["r1"]) });
	});

	test("a reference compacted away is sent again", () => {
		const kept = user();
		const branch = [user(), ours({ kind: "references", sentReferences: ["r1"] }), kept, compaction(kept.id)];
		expect(modelKnowledge(branch, CONTEXT_MESSAGE_TYPE).sentTextIds).toEqual(new Set());
	});
});

describe("modelKnowledge: what the model still has, from the branch", () => {
	test("an empty branch (new session): nothing", () => {
		expect(modelKnowledge([], CONTEXT_MESSAGE_TYPE)).toEqual({ known: undefined, sentTextIds: new Set() });
	});

	test("the latest full block is known; selections sent anywhere in context are collected", () => {
		const branch = [
			user(),
			ours({ kind: "full", selection: "s1", sentSelection: "s1" }),
			user(),
			ours({ kind: "unchanged", selection: "s1" }),
		];
		expect(modelKnowledge(branch, CONTEXT_MESSAGE_TYPE)).toEqual({
			known: { fields: FIELDS, selection: "s1" },
			sentTextIds: new Set(["s1"]),
		});
	});

	test("a delta counts only while the full block it builds on is in context", () => {
		const full = ours({ kind: "full" }, "full");
		const delta = ours({ kind: "delta", fields: { ...FIELDS, Cursor: "Cursor: line 9" } }, "delta");
		expect(modelKnowledge([user(), full, user("u2"), delta], CONTEXT_MESSAGE_TYPE).known?.fields.Cursor).toBe(
			"Cursor: line 9",
		);
		// A compaction that kept the delta but not the full block: the model lacks the file, so nothing is known.
		expect(
			modelKnowledge([user(), full, user("u2"), delta, compaction("u2")], CONTEXT_MESSAGE_TYPE).known,
		).toBeUndefined();
	});

	test("a compaction that kept the block changes nothing; one that dropped it forgets it and its selection", () => {
		const branch = [user("u1"), ours({ kind: "full", selection: "s", sentSelection: "s" }), user("u2"), user("u3")];
		const kept = modelKnowledge([...branch, compaction("u1")], CONTEXT_MESSAGE_TYPE);
		expect(kept.known?.fields).toEqual(FIELDS);
		expect(kept.sentTextIds).toEqual(new Set(["s"]));
		const dropped = modelKnowledge([...branch, compaction("u2")], CONTEXT_MESSAGE_TYPE);
		expect(dropped).toEqual({ known: undefined, sentTextIds: new Set() });
		// Only the latest compaction matters; entries after it are in context.
		const later = modelKnowledge([...branch, compaction("u2"), ours({ kind: "full" })], CONTEXT_MESSAGE_TYPE);
		expect(later.known?.fields).toEqual(FIELDS);
		// A kept id that is not on the branch keeps nothing from before the compaction (as pi does).
		expect(modelKnowledge([...branch, compaction("nowhere")], CONTEXT_MESSAGE_TYPE).known).toBeUndefined();
	});

	test("after 'gone' the model knows no editor, but texts it was sent are still in its context", () => {
		const branch = [ours({ kind: "full", sentSelection: "s" }), ours({ kind: "gone" })];
		expect(modelKnowledge(branch, CONTEXT_MESSAGE_TYPE)).toEqual({ known: undefined, sentTextIds: new Set(["s"]) });
	});

	test("other extensions' messages, other types and tampered details are ignored", () => {
		const branch: BranchEntry[] = [
			ours({ kind: "full" }),
			{ type: "custom_message", id: "x", customType: "someone-else", details: { v: 1, kind: "gone", summary: "" } },
			{ type: "custom_message", id: "y", customType: CONTEXT_MESSAGE_TYPE, details: { kind: "gone" } },
			{ type: "custom_message", id: "z", customType: CONTEXT_MESSAGE_TYPE, details: "not an object" },
		];
		expect(modelKnowledge(branch, CONTEXT_MESSAGE_TYPE).known?.fields).toEqual(FIELDS);
	});

	test("a pi 1.x context edit that omits or rewrites a message takes it out of what the model has", () => {
		const full = ours({ kind: "full", sentSelection: "s" }, "full-1");
		const edit: BranchEntry = { type: "context_edit", id: "edit", targetId: "full-1" };
		expect(modelKnowledge([full, user(), edit], CONTEXT_MESSAGE_TYPE)).toEqual({
			known: undefined,
			sentTextIds: new Set(),
		});
	});

	test("a full block whose fields lack a File is no knowledge", () => {
		expect(
			modelKnowledge([ours({ kind: "full", fields: { App: "App: x" } })], CONTEXT_MESSAGE_TYPE).known,
		).toBeUndefined();
	});
});
