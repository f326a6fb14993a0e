import { describe, expect, test } from "vitest";
import {
	emptyReply,
	evalRequestLine,
	evalValueOf,
	MAX_REPLY_CHARS,
	MAX_REQUEST_CHARS,
	quoteArgument,
	type ReplyState,
	type ReplyStep,
	readReply,
	replyAtEnd,
	type ServerReply,
	unquoteArgument,
	unquoteAsServer,
} from "../../../../src/editors/emacs/core/server-protocol.ts";

/** Strings an outsider may put in a path or a file's text. */
const HOSTILE: [string, string][] = [
	["empty", ""],
	["a newline", "a\nb"],
	["a newline at each end", "\nx\n"],
	["an ampersand", "&"],
	["ampersand pairs and quote-lookalikes", "&&n&_&-&"],
	["a leading dash (a command)", "-eval (kill-emacs)"],
	["dashes everywhere", "--a-b--"],
	["spaces", "  two  spaces  "],
	["quotes and backslashes", `"\\"\\\\'"`],
	["a Lisp break-out", `") (kill-emacs) ("`],
	["a carriage return and a tab", "a\r\n\tb"],
	["a NUL", "a\u0000b"],
	["non-ASCII", "é中文😀"],
	["a path with all of it", '/tmp/x y/-&\n/"q"\\/ü.ts'],
];

describe("quoting an argument as server-quote-arg does", () => {
	test.each([
		["&", "&&"],
		["-", "&-"],
		[" ", "&_"],
		["\n", "&n"],
		["-a b&c\nd-", "&-a&_b&&c&nd&-"],
		["plain/path.ts", "plain/path.ts"],
	])("%j → %j", (text, quoted) => expect(quoteArgument(text)).toBe(quoted));

	test.each(HOSTILE)(
		"%s: no space or newline, no leading dash, and both unquoting rules read it back",
		(_name, text) => {
			const quoted = quoteArgument(text);
			expect(quoted).not.toMatch(/[ \n]/);
			expect(quoted.startsWith("-")).toBe(false);
			expect(unquoteAsServer(quoted)).toBe(text);
			expect(unquoteArgument(quoted)).toBe(text);
		},
	);

	test("1 MB of hostile text reads back", () => {
		const text = HOSTILE.map(([, value]) => value)
			.join("")
			.repeat(Math.ceil(1_000_000 / 60))
			.slice(0, 1_000_000);
		const quoted = quoteArgument(text);
		expect(quoted).not.toMatch(/[ \n]/);
		expect(unquoteAsServer(quoted)).toBe(text);
	});
});

describe("unquoting", () => {
	test.each([
		["emacsclient: &_ → space, &n → newline, &x → x", unquoteArgument, "a&_b&nc&&d&-e&qf", "a b\nc&d-eqf"],
		["emacsclient: a trailing & is dropped", unquoteArgument, "x&", "x"],
		["server: any other &x is a space", unquoteAsServer, "a&qb&_c", "a b c"],
		["server: a trailing & stays", unquoteAsServer, "x&", "x&"],
	])("%s", (_name, unquote, quoted, text) => expect(unquote(quoted)).toBe(text));
});

/** What the server reads of a request line: its arguments split on spaces, each unquoted. */
function serverReads(line: string): string[] {
	expect(line.endsWith(" \n")).toBe(true);
	return line.slice(0, -1).split(" ").filter(Boolean).map(unquoteAsServer);
}

describe("an -eval request line", () => {
	const FUNCTION = "(lambda (a) a)";

	test.each(HOSTILE)("%s: one ASCII line, one -eval, the argument only inside a base64 string", (_name, text) => {
		const built = evalRequestLine(FUNCTION, { path: text, list: [text] });
		if (!built.ok) throw new Error(built.reason);
		expect(built.line).toMatch(/^[\x20-\x7e]*\n$/);
		expect(built.line.indexOf("\n")).toBe(built.line.length - 1);
		const [command, expression, ...rest] = serverReads(built.line);
		expect([command, rest]).toEqual(["-eval", []]);
		const match = /^\(funcall \(lambda \(a\) a\) "([A-Za-z0-9+/=]*)"\)$/.exec(expression as string);
		expect(match).not.toBeNull();
		expect(JSON.parse(Buffer.from(match?.[1] as string, "base64").toString("utf8"))).toEqual({
			path: text,
			list: [text],
		});
	});

	test("a multi-line elisp text travels with &n", () => {
		const built = evalRequestLine("(lambda (a)\n  a)", "x");
		expect(built.ok && serverReads(built.line)[1]).toBe('(funcall (lambda (a)\n  a) "Ingi")');
	});

	test.each([
		["an empty elisp text", "", 1, "the elisp text is empty or not ASCII"],
		["a non-ASCII elisp text", '(lambda (a) "é")', 1, "the elisp text is empty or not ASCII"],
		["undefined arguments", FUNCTION, undefined, "arguments not JSON: nothing to encode"],
		["a BigInt", FUNCTION, 1n, "arguments not JSON"],
		["a cycle", FUNCTION, cyclic(), "arguments not JSON"],
		["1 MB of arguments", FUNCTION, "x".repeat(1_000_000), `over the ${MAX_REQUEST_CHARS} limit`],
	])("refused, never thrown: %s", (_name, elisp, args, reason) => {
		const built = evalRequestLine(elisp, args);
		expect(built.ok).toBe(false);
		expect(!built.ok && built.reason).toContain(reason);
	});

	test("just under the cap is built", () => {
		const built = evalRequestLine(FUNCTION, "x".repeat(190_000));
		expect(built.ok && built.line.length).toBeLessThanOrEqual(MAX_REQUEST_CHARS);
	});
});

function cyclic(): unknown {
	const value: { self?: unknown } = {};
	value.self = value;
	return value;
}

/** The reply fed in the chunks given; the step after the last one, and the end if it is not done. */
function feed(chunks: string[]): { reply?: ServerReply; state?: ReplyState; steps: number } {
	let state = emptyReply();
	let steps = 0;
	for (const chunk of chunks) {
		const step: ReplyStep = readReply(state, chunk);
		steps++;
		if (step.done) return { reply: step.reply, steps };
		state = step.state;
	}
	return { state, steps };
}

const ended = (chunks: string[]) => {
	const { reply, state } = feed(chunks);
	return reply ?? replyAtEnd(state as ReplyState);
};

describe("reading the reply stream", () => {
	test.each<[string, string[], ServerReply]>([
		[
			"a string value (28.2: no newline after it)",
			['-emacs-pid 4242\n-print "abc"\n'],
			{ ok: true, emacsPid: 4242, printed: '"abc"' },
		],
		["a list ends with &n", ["-emacs-pid 7\n-print (1&_2)&n\n"], { ok: true, emacsPid: 7, printed: "(1 2)\n" }],
		[
			"split anywhere, even inside a line",
			["-emacs-p", "id 7\n-pri", 'nt "a&', '_b"', "\n"],
			{ ok: true, emacsPid: 7, printed: '"a b"' },
		],
		[
			"-print-nonl continues the value (28.2 and 30 cut at 1024 characters)",
			['-emacs-pid 7\n-print "aa\n-print-nonl bb\n-print-nonl cc"\n'],
			{ ok: true, emacsPid: 7, printed: '"aabbcc"' },
		],
		[
			"-emacs-pid once per read Emacs made",
			["-emacs-pid 7\n-emacs-pid 7\n-print 1\n-emacs-pid 7\n"],
			{ ok: true, emacsPid: 7, printed: "1" },
		],
		["a value with no pid", ["-print 1\n"], { ok: true, emacsPid: undefined, printed: "1" }],
		["no value", ["-emacs-pid 7\n"], { ok: false, reason: "Emacs closed the connection without a value", emacsPid: 7 }],
		["nothing at all", [], { ok: false, reason: "Emacs closed the connection without a value" }],
		[
			"closed inside a line",
			['-emacs-pid 7\n-print "ab'],
			{ ok: false, reason: "the connection closed inside a reply line", emacsPid: 7 },
		],
	])("%s", (_name, chunks, reply) => expect(ended(chunks)).toEqual(reply));

	test.each<[string, string[], string]>([
		["28.2's -error: no newline, final at once", ["-emacs-pid 7\n-error Symbol&_s&-x"], "Emacs: Symbol s-x"],
		["30's -error ends with a newline", ["-emacs-pid 7\n-error void&_x\n"], "Emacs: void x"],
		["an -error after a value", ["-print 1\n-error late"], "Emacs: late"],
		["an -error in two chunks is final with the first", ["-error Wrong&_ty", "pe"], "Emacs: Wrong ty"],
		["control characters in an error are shown as ?", ["-error a&nb\u001b[31m"], "Emacs: a?b?[31m"],
		["an unknown message", ["-emacs-pid 7\n-suspend \n"], "unexpected message from Emacs: -suspend "],
		["an empty line", ["\n"], "unexpected message from Emacs: "],
		["two values", ["-print 1\n-print 2\n"], "two values for one request"],
		["a continuation first", ["-print-nonl 1\n"], "a -print-nonl continuation before any -print"],
		["a pid that is no number", ["-emacs-pid 12x\n"], "an unreadable -emacs-pid: 12x"],
		["a pid of 0", ["-emacs-pid 0\n"], "an unreadable -emacs-pid: 0"],
		["two pids", ["-emacs-pid 7\n-emacs-pid 8\n"], "two different -emacs-pid values"],
		["a reply over the cap", ["-print ", "x".repeat(MAX_REPLY_CHARS)], `reply over ${MAX_REPLY_CHARS} characters`],
	])("refused: %s", (_name, chunks, reason) => {
		const { reply } = feed(chunks);
		expect(reply).toMatchObject({ ok: false, reason });
	});

	test("an -error is final when it arrives: nothing after it is read", () => {
		expect(feed(["-error x", "-print 1\n"]).steps).toBe(1);
	});
});

const printed = (value: unknown) => `"${Buffer.from(JSON.stringify(value), "utf8").toString("base64")}"`;

describe("the value of pi's elisp: a string of base64 JSON", () => {
	test.each<[string, string, unknown]>([
		["an object", printed({ a: [1, "é😀\n"] }), { a: [1, "é😀\n"] }],
		["with the newline pp may add", `${printed("x")}\n`, "x"],
		["an empty string is no JSON", '""', undefined],
	])("%s", (_name, text, value) => {
		const result = evalValueOf(text);
		if (value === undefined) expect(result).toEqual({ ok: false, reason: "the value is not JSON" });
		else expect(result).toEqual({ ok: true, value });
	});

	test.each([
		["nil: the user quit", "nil", "Emacs gave nil (a quit?)"],
		["a number", "42", "not a string: 42"],
		["a string with text after it", '"QQ==" x', 'not a string: "QQ==" x'],
		["an unterminated string", '"QQ==', 'not a string: "QQ=='],
		["not base64", '"a b"', "the value is not base64"],
		["base64 of no JSON", `"${Buffer.from("{").toString("base64")}"`, "the value is not JSON"],
		["escapes that hide a quote", '"\\"QQ==\\""', "the value is not base64"],
	])("refused: %s", (_name, text, reason) => expect(evalValueOf(text)).toEqual({ ok: false, reason }));
});
