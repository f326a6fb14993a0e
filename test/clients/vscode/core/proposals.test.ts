import { describe, expect, test } from "vitest";
import {
	acceptedAnswer,
	type DiffAnswer,
	diffTitle,
	Proposals,
	proposalPath,
	rejectedAnswer,
} from "../../../../clients/vscode/src/core/proposals.ts";

const make = () => {
	const proposals = new Proposals();
	const answers: DiffAnswer[] = [];
	const add = (tabName = "t1", owner = 1) =>
		proposals.add(
			{
				tabName,
				owner,
				file: "/p/src/main.ts",
				isNew: false,
				text: "proposed\n",
				settle: (answer) => answers.push(answer),
			},
			1000,
		);
	return { proposals, answers, add };
};

describe("the proposals a window shows", () => {
	test("titled by the file's name; the document's path ends with it (VS Code picks the language by it)", () => {
		expect(diffTitle({ file: "/p/src/main.ts", isNew: false })).toBe("main.ts (pi's proposal)");
		expect(diffTitle({ file: "/p/new.py", isNew: true })).toBe("new.py (new file, pi's proposal)");
		expect(proposalPath({ key: 3, file: "/p/src/main.ts" })).toBe("/3/main.ts");
	});

	test("found by its document's path and by its tab name; a path of another key or name is nothing", () => {
		const { proposals, add } = make();
		const { proposal } = add();
		expect(proposals.byPath(proposalPath(proposal))).toBe(proposal);
		expect(proposals.byPath(`/${proposal.key}/other.ts`)).toBeUndefined();
		expect(proposals.byPath("/99/main.ts")).toBeUndefined();
		expect(proposals.byTab("t1")).toBe(proposal);
	});

	test("the first answer settles the openDiff; a second is a no-op", () => {
		const { proposals, answers, add } = make();
		const { proposal } = add();
		expect(proposals.decide(proposal, acceptedAnswer("mine\n"))).toBe(true);
		expect(proposals.decide(proposal, rejectedAnswer("t1"))).toBe(false);
		expect(answers).toEqual([["FILE_SAVED", "mine\n"]]);
	});

	test("a second openDiff under the same tab name hands back the first, to be rejected", () => {
		const { add } = make();
		const first = add("same").proposal;
		expect(add("same").replaced).toBe(first);
		expect(add("other").replaced).toBeUndefined();
	});

	test("a save keeps the text and is no accept; once decided, nothing is served or written (CC#66435)", () => {
		const { proposals, answers, add } = make();
		const { proposal } = add();
		proposal.view = "open";
		const path = proposalPath(proposal);
		expect(proposals.write(path, "edited\n", 2000)).toBe("kept");
		expect(proposals.served(path)?.text).toBe("edited\n");
		expect(proposal.mtimeMs).toBe(2000);
		expect(answers).toEqual([]);
		proposals.decide(proposal, rejectedAnswer("t1"));
		expect(proposals.served(path)).toBeUndefined();
		expect(proposals.write(path, "later\n", 3000)).toBe("refused");
		expect(proposals.write("/99/main.ts", "x", 3000)).toBe("refused");
	});

	test("while the client closes a decided view it may save it silently (so VS Code asks nothing), then never again", () => {
		const { proposals, add } = make();
		const { proposal } = add();
		proposals.decide(proposal, acceptedAnswer("x"));
		proposal.view = "closing";
		expect(proposals.write(proposalPath(proposal), "x", 1000)).toBe("kept-silently");
		// The same millisecond still moves the mtime: VS Code compares it before the next save.
		expect(proposal.mtimeMs).toBe(1001);
		proposals.remove(proposal);
		expect(proposals.write(proposalPath(proposal), "x", 5000)).toBe("refused");
	});

	test("the user closing the tab undecided is news for pi (and decides nothing); a close of the client's is not", () => {
		const { proposals, answers, add } = make();
		const mine = add("a").proposal;
		mine.view = "open";
		expect(proposals.tabGone(mine)).toBe(true);
		expect(mine.phase).toBe("pending");
		expect(answers).toEqual([]);
		const closing = add("b").proposal;
		closing.view = "closing";
		expect(proposals.tabGone(closing)).toBe(false);
		expect(closing.view).toBe("closing");
	});

	test("shown: undecided and on screen; ofOwner: a connection's proposals", () => {
		const { proposals, add } = make();
		const a = add("a", 1).proposal;
		const b = add("b", 2).proposal;
		a.view = "open";
		b.view = "open";
		expect(proposals.shown()).toEqual([a, b]);
		proposals.decide(a, rejectedAnswer("a"));
		expect(proposals.shown()).toEqual([b]);
		expect(proposals.ofOwner(2)).toEqual([b]);
	});
});
