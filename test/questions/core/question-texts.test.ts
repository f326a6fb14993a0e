import { describe, expect, test } from "vitest";
import {
	confirmView,
	MAX_MIRRORED_CHOICES,
	noticeView,
	questionStatusLines,
	questionView,
} from "../../../src/questions/core/question-texts.ts";

describe("a question as an editor shows it", () => {
	test.each([
		[
			"confirm: the message under the title, Yes and No",
			confirmView("Allow bash?", "rm -rf build"),
			{ kind: "question", title: "Allow bash?\nrm -rf build", choices: ["Yes", "No"], confirm: true },
		],
		[
			"confirm without a message",
			confirmView("Allow bash?", "  "),
			{ kind: "question", title: "Allow bash?", choices: ["Yes", "No"], confirm: true },
		],
		[
			"escape sequences dropped, control characters made spaces",
			questionView("Pick\u001b[31m one\u0007", ["a\tb", "c\u202ed"]),
			{ kind: "question", title: "Pick one ", choices: ["a b", "c d"] },
		],
		["CRLF lines", questionView("one\r\ntwo", ["x"]), { kind: "question", title: "one\ntwo", choices: ["x"] }],
		[
			"no choices: a notice",
			questionView("Empty", []),
			{ kind: "notice", text: "pi asks in its terminal: Empty (0 choices)" },
		],
		[
			"input's notice names the title",
			noticeView("Your name?\nmore"),
			{ kind: "notice", text: "pi asks in its terminal: Your name?" },
		],
		["custom has no title", noticeView(undefined), { kind: "notice", text: "pi asks in its terminal" }],
	])("%s", (_name, view, expected) => expect(view).toEqual(expected));

	test("a dozen title lines at most; each cut; too many choices: a notice", () => {
		const view = questionView(Array.from({ length: 20 }, (_, i) => `${i}`.repeat(500)).join("\n"), ["a"]);
		expect(view.kind === "question" && view.title.split("\n")).toHaveLength(12);
		expect(view.kind === "question" && view.title.split("\n")[0]?.length).toBe(400);
		const many = Array.from({ length: MAX_MIRRORED_CHOICES + 1 }, (_, i) => `c${i}`);
		expect(questionView("Pick", many)).toEqual({ kind: "notice", text: "pi asks in its terminal: Pick (51 choices)" });
		expect(questionView("Pick", many.slice(1)).kind).toBe("question");
	});
});

describe("/ide status's part", () => {
	const base = { holders: [], open: 0, unable: [], mirrored: 0, answeredInEditor: 0 };
	test.each([
		[
			"off, with why",
			{ ...base, on: false, offReason: '"mirrorQuestions": false in the global settings' },
			['pi\'s questions in the editor: off ("mirrorQuestions": false in the global settings)'],
		],
		[
			"on, nobody holds one",
			{ ...base, on: true },
			["pi's questions in the editor: on, for runs an editor asked (0 mirrored, 0 answered there)"],
		],
		[
			"who holds which, how many wait, who cannot",
			{
				...base,
				on: true,
				holders: [{ label: "Neovim 42", title: "Allow bash?\nrm" }],
				open: 3,
				unable: [{ label: "VS Code 7", reason: "VS Code client 0.6.0; 0.7.0 shows pi's questions" }],
				mirrored: 5,
				answeredInEditor: 2,
			},
			[
				"pi's questions in the editor: on, for runs an editor asked (5 mirrored, 2 answered there)",
				"  Neovim 42 holds: Allow bash?",
				"  3 open in all, one at a time",
				"  VS Code 7: questions stay in pi (VS Code client 0.6.0; 0.7.0 shows pi's questions)",
			],
		],
	])("%s", (_name, facts, lines) => expect(questionStatusLines(facts)).toEqual(lines));
});
