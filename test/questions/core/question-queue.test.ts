import { describe, expect, test } from "vitest";
import { QuestionQueue, type QuestionView } from "../../../src/questions/core/question-queue.ts";

const yesNo: QuestionView = { kind: "question", title: "Allow a?", choices: ["Yes", "No"] };
const notice: QuestionView = { kind: "notice", text: "pi asks in its terminal: Your name?" };

describe("pi's open questions, one at a time per editor", () => {
	test("the first is shown; the second waits until the first is closed, then shows", () => {
		const queue = new QuestionQueue();
		expect(queue.add({ id: 1, view: yesNo, keys: ["pid:1"] })).toEqual([
			{ key: "pid:1", news: { kind: "question", id: 1, title: "Allow a?", choices: ["Yes", "No"] } },
		]);
		expect(queue.add({ id: 2, view: notice, keys: ["pid:1"] })).toEqual([]);
		expect(queue.shownTo("pid:1", 2)).toBeUndefined();
		expect(queue.close(1)).toEqual([
			{ key: "pid:1", news: { kind: "questionClosed", id: 1 } },
			{ key: "pid:1", news: { kind: "notice", id: 2, text: notice.text } },
		]);
		expect(queue.shownTo("pid:1", 2)?.id).toBe(2);
		expect(queue.close(2)).toEqual([{ key: "pid:1", news: { kind: "questionClosed", id: 2 } }]);
		expect(queue.size).toBe(0);
	});

	test("a dismissal closes that editor's copy only: the next one shows there, the question stays open", () => {
		const queue = new QuestionQueue();
		queue.add({ id: 1, view: yesNo, keys: ["pid:1", "pid:2"] });
		queue.add({ id: 2, view: notice, keys: ["pid:1"] });
		expect(queue.dismiss("pid:1", 1)).toEqual([
			{ key: "pid:1", news: { kind: "questionClosed", id: 1 } },
			{ key: "pid:1", news: { kind: "notice", id: 2, text: notice.text } },
		]);
		expect(queue.shownTo("pid:2", 1)?.id).toBe(1);
		expect(queue.size).toBe(2);
		// Closed in pi later: only the editor still showing it hears of it.
		expect(queue.close(1)).toEqual([{ key: "pid:2", news: { kind: "questionClosed", id: 1 } }]);
	});

	test.each([
		["a question the editor does not show", 2],
		["an id never asked", 9],
	])("dismissing %s changes nothing", (_name, id) => {
		const queue = new QuestionQueue();
		queue.add({ id: 1, view: yesNo, keys: ["pid:1"] });
		queue.add({ id: 2, view: yesNo, keys: ["pid:1"] });
		expect(queue.dismiss("pid:1", id)).toEqual([]);
		expect(queue.shownTo("pid:1", 1)?.id).toBe(1);
	});

	test("holders say who shows what; clear closes every copy", () => {
		const queue = new QuestionQueue();
		queue.add({ id: 1, view: yesNo, keys: ["pid:1"] });
		queue.add({ id: 2, view: notice, keys: ["pid:2"] });
		expect(queue.holders().map(({ key, question }) => `${key} ${question.id}`)).toEqual(["pid:1 1", "pid:2 2"]);
		expect(queue.clear()).toEqual([
			{ key: "pid:1", news: { kind: "questionClosed", id: 1 } },
			{ key: "pid:2", news: { kind: "questionClosed", id: 2 } },
		]);
		expect(queue.holders()).toEqual([]);
	});
});
