import { describe, expect, test } from "vitest";
import { kindOfRule, mergeSpans, openPrivateKeySpans, redact, trimSpan } from "../../../src/safety/core/redaction.ts";

describe("redaction spans", () => {
	test.each([
		["nothing to redact", "const a = 1;", [], "const a = 1;", 0],
		["one span", "token=abcdef;", [{ start: 6, end: 12, kind: "github" }], "token=[redacted: github];", 1],
		[
			"two spans, the rest untouched",
			"a=XXXX b=YYYY c",
			[
				{ start: 2, end: 6, kind: "npm" },
				{ start: 9, end: 13, kind: "slack" },
			],
			"a=[redacted: npm] b=[redacted: slack] c",
			2,
		],
		[
			"overlapping spans become one",
			"key: ABCDEFGH end",
			[
				{ start: 5, end: 11, kind: "aws" },
				{ start: 8, end: 13, kind: "generic" },
			],
			"key: [redacted: aws] end",
			1,
		],
		["an empty span is ignored", "abc", [{ start: 1, end: 1, kind: "x" }], "abc", 0],
	])("%s", (_name, text, spans, expected, count) => {
		expect(redact(text, spans)).toEqual({ text: expected, count });
	});

	test("merge keeps order whatever the input order", () => {
		expect(
			mergeSpans([
				{ start: 10, end: 12, kind: "b" },
				{ start: 0, end: 3, kind: "a" },
				{ start: 2, end: 5, kind: "c" },
			]),
		).toEqual([
			{ start: 0, end: 5, kind: "a" },
			{ start: 10, end: 12, kind: "b" },
		]);
	});

	test("a private-key block cut open (BEGIN, no END) is key material to the end of the text", () => {
		const text = "config:\n-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\nAAAABG5vbmUAAAAEbm9uZQ";
		expect(openPrivateKeySpans(text)).toEqual([{ start: 8, end: text.length, kind: "privatekey" }]);
		expect(redact(text, openPrivateKeySpans(text)).text).toBe("config:\n[redacted: privatekey]");
		const closed = "-----BEGIN RSA PRIVATE KEY-----\nabc\n-----END RSA PRIVATE KEY-----\nafter";
		expect(openPrivateKeySpans(closed)).toEqual([]);
		expect(openPrivateKeySpans("-----BEGIN PUBLIC KEY-----\nabc")).toEqual([]);
	});

	test("spans lose quotes, separators and white space at their edges, never a credential's own characters", () => {
		const text = `x = "postgres://a:b@h/db";\nnext`;
		expect(trimSpan(text, { start: 4, end: 26, kind: "db" })).toEqual({ start: 5, end: 24, kind: "db" });
		expect(trimSpan("(abc=)", { start: 0, end: 6, kind: "k" })).toEqual({ start: 1, end: 5, kind: "k" });
	});

	test("rule ids read as kinds", () => {
		expect(kindOfRule("@secretlint/secretlint-rule-github")).toBe("github");
		expect(kindOfRule("pi-ide-context/stripe")).toBe("stripe");
		expect(kindOfRule("someone/else")).toBe("someone/else");
	});
});
