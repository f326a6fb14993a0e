import { SessionManager } from "@mariozechner/pi-coding-agent";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { CONTEXT_MESSAGE_TYPE } from "../../src/prompt/core/context-message.ts";
import {
	advanceKnowledge,
	type BranchEntry,
	type ContextDetails,
	modelKnowledge,
} from "../../src/prompt/core/model-knowledge.ts";
import { KnowledgeCache } from "../../src/prompt/knowledge-cache.ts";

const fields = (file: string) => ({
	App: "App: nvim",
	File: `File: ${file}`,
	Buffer: "Buffer: 1 lines, no unsaved changes",
});

/** One of our messages, with the details a prompt would have stored. */
const ourDetails = fc.oneof(
	fc.record({
		kind: fc.constant("full" as const),
		file: fc.constantFrom("/a", "/b"),
		sel: fc.option(fc.constantFrom("s1", "s2"), { nil: undefined }),
	}),
	fc.record({
		kind: fc.constant("delta" as const),
		file: fc.constantFrom("/a", "/b"),
		sel: fc.option(fc.constantFrom("s1", "s2"), { nil: undefined }),
	}),
	fc.record({
		kind: fc.constant("unchanged" as const),
		file: fc.constantFrom("/a", "/b"),
		sel: fc.constant(undefined),
	}),
	fc.record({ kind: fc.constant("gone" as const), file: fc.constant("/a"), sel: fc.constant(undefined) }),
);
const step = fc.oneof(
	{ arbitrary: ourDetails.map((d) => ({ our: d })), weight: 3 },
	{ arbitrary: fc.constant({ user: true }), weight: 2 },
	{ arbitrary: fc.constant({ other: true }), weight: 1 },
);

function toDetails(d: { kind: ContextDetails["kind"]; file: string; sel: string | undefined }): ContextDetails {
	return {
		v: 1,
		kind: d.kind,
		summary: d.kind,
		...(d.kind === "gone" ? {} : { fields: fields(d.file) }),
		...(d.sel && { selection: d.sel, ...(d.kind !== "unchanged" && { sentSelection: d.sel }) }),
	};
}

function entries(
	steps: ({ our: Parameters<typeof toDetails>[0] } | { user: true } | { other: true })[],
): BranchEntry[] {
	return steps.map((s, i) =>
		"our" in s
			? { type: "custom_message", id: `e${i}`, customType: CONTEXT_MESSAGE_TYPE, details: toDetails(s.our) }
			: "user" in s
				? { type: "message", id: `e${i}` }
				: { type: "custom_message", id: `e${i}`, customType: "other", details: { v: 1, kind: "gone", summary: "" } },
	);
}

describe("advanceKnowledge gives what a full walk gives", () => {
	test("for every branch and every point the previous prompt could have stopped at", () => {
		fc.assert(
			fc.property(fc.array(step, { maxLength: 30 }), fc.nat(), (steps, cut) => {
				const branch = entries(steps);
				const at = branch.length === 0 ? 0 : cut % (branch.length + 1);
				const before = modelKnowledge(branch.slice(0, at), CONTEXT_MESSAGE_TYPE);
				expect(advanceKnowledge(before, branch.slice(at), CONTEXT_MESSAGE_TYPE)).toEqual(
					modelKnowledge(branch, CONTEXT_MESSAGE_TYPE),
				);
			}),
			{ numRuns: 2000, seed: 20261129 },
		);
	});

	test("a compaction or context edit among the new entries means: walk again", () => {
		const before = modelKnowledge([], CONTEXT_MESSAGE_TYPE);
		expect(
			advanceKnowledge(before, [{ type: "compaction", id: "c", firstKeptEntryId: "x" }], CONTEXT_MESSAGE_TYPE),
		).toBeUndefined();
		expect(
			advanceKnowledge(before, [{ type: "context_edit", id: "c", targetId: "x" }], CONTEXT_MESSAGE_TYPE),
		).toBeUndefined();
	});
});

describe("KnowledgeCache on pi's real SessionManager", () => {
	const ours = (manager: SessionManager, kind: ContextDetails["kind"], file = "/a", sel?: string) =>
		manager.appendCustomMessageEntry(CONTEXT_MESSAGE_TYPE, "x", true, toDetails({ kind, file, sel }));
	const user = (manager: SessionManager, text: string) =>
		manager.appendMessage({ role: "user", content: [{ type: "text", text }], timestamp: Date.now() });

	/** The cache's answer next to a full walk, and whether it had to walk the whole branch. */
	function probe(cache: KnowledgeCache, manager: SessionManager) {
		let walked = false;
		const session = {
			getSessionId: () => manager.getSessionId(),
			getLeafId: () => manager.getLeafId(),
			getEntry: (id: string) => manager.getEntry(id),
			getBranch: () => {
				walked = true;
				return manager.getBranch();
			},
		};
		const knowledge = cache.knowledge(session as never);
		expect(knowledge).toEqual(modelKnowledge(manager.getBranch() as BranchEntry[], CONTEXT_MESSAGE_TYPE));
		return walked;
	}

	test("advances along the branch, walks again after a fork, a new session or a compaction", () => {
		const cache = new KnowledgeCache(CONTEXT_MESSAGE_TYPE);
		const manager = SessionManager.inMemory("/p");
		user(manager, "hello");
		expect(probe(cache, manager)).toBe(true);
		const firstFull = ours(manager, "full", "/a", "s1");
		for (let i = 0; i < 100; i++) user(manager, `q${i}`);
		user(manager, "next");
		expect(probe(cache, manager)).toBe(false);
		ours(manager, "unchanged", "/a", "s1");
		user(manager, "again");
		expect(probe(cache, manager)).toBe(false);
		// Back to before the block, as /fork or /tree does: not an ancestor any more.
		manager.branch(firstFull);
		ours(manager, "gone");
		expect(probe(cache, manager)).toBe(true);
		user(manager, "after gone");
		expect(probe(cache, manager)).toBe(false);
		manager.appendCompaction("summary", firstFull, 1000);
		expect(probe(cache, manager)).toBe(true);
		manager.newSession();
		user(manager, "fresh");
		expect(probe(cache, manager)).toBe(true);
		// Hundreds of entries since the last prompt (another extension's flood): one walk is as cheap.
		for (let i = 0; i < 300; i++) user(manager, `bulk${i}`);
		expect(probe(cache, manager)).toBe(true);
	});
});
