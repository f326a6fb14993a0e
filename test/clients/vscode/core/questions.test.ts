/**
 * pi's questions as the VS Code client shows them (clients/vscode/src/core/questions.ts, pure): pi's news of a
 * question, a notice and a question's end read and checked (through readNews, as the window reads every piece of
 * news); what pi's own mirror sends is read back unchanged; a question made the quick pick's title, placeholder
 * and numbered items; a notice's line; which question the one quick pick shows among several pis' (the oldest, a
 * pi's new one replacing its old one, none while the client's own input box holds it); the accept's deaf time.
 */
import { describe, expect, test } from "vitest";
import { readNews } from "../../../../clients/vscode/src/core/asks.ts";
import {
	acceptTaken,
	DEAF_MS,
	MAX_CHOICES,
	MAX_TITLE_LINES,
	noticeText,
	PICK_HINT,
	pickTexts,
	QuestionLine,
	questionKey,
	type WindowQuestion,
} from "../../../../clients/vscode/src/core/questions.ts";
import { QuestionQueue } from "../../../../src/questions/core/question-queue.ts";
import { confirmView, noticeView, questionView } from "../../../../src/questions/core/question-texts.ts";

describe("pi's news of a question, read", () => {
	test.each([
		[
			"a confirm: the title's two lines kept, Yes and No",
			{ kind: "question", id: 3, title: "Allow deploy?\nThe test tool would run deploy.", choices: ["Yes", "No"] },
			{ kind: "question", id: 3, title: "Allow deploy?\nThe test tool would run deploy.", choices: ["Yes", "No"] },
		],
		[
			"control characters a space, CRLF a line break, a choice one line",
			{ kind: "question", id: 1, title: "a\u001b[31mb\r\nc\u0007", choices: ["x\ny", "\tz "] },
			{ kind: "question", id: 1, title: "a [31mb\nc", choices: ["x y", "z"] },
		],
		[
			"a notice: one line",
			{ kind: "notice", id: 9, text: "pi asks in its terminal: Your name?\u2028x" },
			{ kind: "notice", id: 9, text: "pi asks in its terminal: Your name? x" },
		],
		["a question's end", { kind: "questionClosed", id: 9 }, { kind: "questionClosed", id: 9 }],
		["no id", { kind: "questionClosed" }, undefined],
		["an id of 0", { kind: "questionClosed", id: 0 }, undefined],
		["a fractional id", { kind: "notice", id: 1.5, text: "x" }, undefined],
		["an id as text", { kind: "notice", id: "1", text: "x" }, undefined],
		["a notice without text", { kind: "notice", id: 1 }, undefined],
		["no choices", { kind: "question", id: 1, title: "t", choices: [] }, undefined],
		["a choice that is no text", { kind: "question", id: 1, title: "t", choices: ["a", 2] }, undefined],
		["choices that are no list", { kind: "question", id: 1, title: "t", choices: "Yes,No" }, undefined],
		["no title", { kind: "question", id: 1, choices: ["a"] }, undefined],
	])("%s", (_name, params, news) => {
		expect(readNews(params)).toEqual(news);
	});

	test(`at most ${MAX_CHOICES} choices (pi sends more as a notice); at most ${MAX_TITLE_LINES} title lines, each cut`, () => {
		const choices = (count: number) => Array.from({ length: count }, (_, index) => `c${index}`);
		expect(readNews({ kind: "question", id: 1, title: "t", choices: choices(MAX_CHOICES) })).toBeDefined();
		expect(readNews({ kind: "question", id: 1, title: "t", choices: choices(MAX_CHOICES + 1) })).toBeUndefined();
		const long = readNews({ kind: "question", id: 1, title: `${"l\n".repeat(20)}${"x".repeat(900)}`, choices: ["a"] });
		expect(long?.kind === "question" && long.title.split("\n")).toHaveLength(MAX_TITLE_LINES);
		const wide = readNews({ kind: "question", id: 1, title: "x".repeat(900), choices: ["y".repeat(900)] });
		expect(wide?.kind === "question" && [wide.title.length, wide.choices[0]?.length]).toEqual([400, 200]);
	});

	test("what pi's own mirror sends is read back as it was", () => {
		const queue = new QuestionQueue();
		const sent = [
			...queue.add({ id: 1, view: confirmView("Allow deploy?", "The test tool would run deploy."), keys: ["k"] }),
			...queue.close(1),
			...queue.add({ id: 2, view: questionView("Pick a colour", ["red", "green", "blue"]), keys: ["k"] }),
			...queue.add({ id: 3, view: noticeView("Your name?"), keys: ["k"] }),
			...queue.close(2),
		].map(({ news }) => news);
		expect(sent.map((news) => news.kind)).toEqual([
			"question",
			"questionClosed",
			"question",
			"questionClosed",
			"notice",
		]);
		// What the window shows of each, as sent; `confirm` and a notice's `lines` are for clients that draw them.
		for (const news of sent) {
			const { confirm: _confirm, lines: _lines, ...shown } = news as typeof news & { confirm?: true; lines?: unknown };
			expect(readNews(JSON.parse(JSON.stringify(news)))).toEqual(shown);
		}
	});
});

describe("the quick pick of a question", () => {
	test("a confirm: the first line after the pi as the title, the message as the placeholder, 1 Yes, 2 No", () => {
		expect(
			pickTexts(4242, { title: "Allow deploy?\nThe test tool would run deploy.", choices: ["Yes", "No"] }),
		).toEqual({
			title: "pi 4242: Allow deploy?",
			placeholder: "The test tool would run deploy.",
			items: [
				{ label: "1 Yes", choice: 1 },
				{ label: "2 No", choice: 2 },
			],
		});
	});

	test("one line of title: the hint as the placeholder", () => {
		expect(pickTexts(7, { title: "Pick a colour", choices: ["red"] }).placeholder).toBe(PICK_HINT);
	});

	test("several lines: the rest joined on one line, empty ones left out", () => {
		const texts = pickTexts(7, { title: "Accept?\n\n  +3 lines \nin a.ts", choices: ["a"] });
		expect(texts.placeholder).toBe("+3 lines in a.ts");
	});

	test("pi's $( is never one of VS Code's icons, in the title, the placeholder or a choice", () => {
		const texts = pickTexts(7, { title: "$(zap) go\n$(alert) sure", choices: ["$(check) yes"] });
		expect([texts.title, texts.placeholder, texts.items[0]?.label].join(" ")).not.toContain("$(");
		expect(texts.title).toBe("pi 7: $\u200b(zap) go");
	});

	test("a long placeholder is cut", () => {
		const texts = pickTexts(7, { title: `t\n${"x".repeat(400)}\n${"y".repeat(400)}`, choices: ["a"] });
		expect(texts.placeholder).toHaveLength(600);
		expect(texts.placeholder.endsWith("…")).toBe(true);
	});

	test("a notice names its pi; no icon, no link", () => {
		expect(noticeText(12, "pi asks in its terminal: Your name?")).toBe("pi asks in its terminal: Your name? (pi 12)");
		expect(noticeText(12, "pi asks in its terminal: [x](command:evil) $(zap)")).toBe(
			"pi asks in its terminal: [x]\u200b(command:evil) $\u200b(zap) (pi 12)",
		);
	});
});

const asked = (peer: number, id: number, kind: "question" | "notice" = "question"): WindowQuestion => ({
	peer,
	pid: 1000 + peer,
	news: kind === "question" ? { kind, id, title: `q${id}`, choices: ["Yes", "No"] } : { kind, id, text: `n${id}` },
});

describe("which question the quick pick shows", () => {
	test("several pis: the oldest first, the next once it closed; each notice at once", () => {
		const line = new QuestionLine();
		const a = asked(1, 1);
		const b = asked(2, 1);
		const note = asked(3, 5, "notice");
		line.arrived(a);
		line.arrived(note);
		line.arrived(b);
		expect(line.picked()).toBe(a);
		expect(line.notices()).toEqual([note]);
		expect(line.closed(2, 2)).toBe(false);
		expect(line.closed(1, 1)).toBe(true);
		expect(line.picked()).toBe(b);
		expect(line.closed(1, 1)).toBe(false);
	});

	test("the same id of another pi is another question", () => {
		const line = new QuestionLine();
		line.arrived(asked(1, 1));
		line.arrived(asked(2, 1));
		line.closed(2, 1);
		expect(line.picked()?.peer).toBe(1);
	});

	test("a pi's new question replaces its old one (pi closes the old one first, but the window does not rely on it)", () => {
		const line = new QuestionLine();
		line.arrived(asked(1, 1));
		line.arrived(asked(2, 1));
		line.arrived(asked(1, 2));
		expect(line.picked()?.peer).toBe(2);
		line.closed(2, 1);
		expect(line.picked()?.news.id).toBe(2);
		line.arrived(asked(1, 3, "notice"));
		expect([line.picked(), line.notices().map(questionKey)]).toEqual([undefined, ["1:3"]]);
	});

	test("a pi gone takes its question with it; clear takes all", () => {
		const line = new QuestionLine();
		line.arrived(asked(1, 1));
		line.arrived(asked(2, 4, "notice"));
		line.gone(1);
		expect([line.picked(), line.notices().length]).toEqual([undefined, 1]);
		line.clear();
		expect(line.notices()).toEqual([]);
	});

	test("held (the client's own input box open): no quick pick until every hold is released, each once", () => {
		const line = new QuestionLine();
		const question = asked(1, 1);
		line.arrived(question);
		const first = line.hold();
		const second = line.hold();
		expect(line.picked()).toBeUndefined();
		first();
		first();
		expect(line.picked()).toBeUndefined();
		second();
		expect(line.picked()).toBe(question);
	});

	test("notices show while held: they take no input's place", () => {
		const line = new QuestionLine();
		line.hold();
		line.arrived(asked(1, 2, "notice"));
		expect(line.notices().map(questionKey)).toEqual(["1:2"]);
	});
});

describe("an accept too soon after the quick pick showed", () => {
	test.each([
		[0, false],
		[DEAF_MS - 1, false],
		[DEAF_MS, true],
		[5000, true],
	])("%i ms after: taken %s", (afterMs, taken) => {
		expect(acceptTaken(10_000, 10_000 + afterMs)).toBe(taken);
	});
});
