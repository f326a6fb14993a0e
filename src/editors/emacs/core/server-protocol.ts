/**
 * Emacs's server protocol as emacsclient speaks it (lisp/server.el and lib-src/emacsclient.c, read for 28.2,
 * Debian's, and for the 30/31 line): one request line of space-separated commands, answered by lines of
 * replies, one request per connection. pi sends only `-eval` of a fixed elisp text whose one argument is a
 * base64 string literal of JSON: base64 has no `"` or `\`, so nothing read from outside can end the string and
 * become code, and the whole line is ASCII, so no coding system of Emacs's can change what it reads.
 */

/** The longest request line: Emacs joins every 4 KiB read onto the pending line (quadratic) and answers each read with `-emacs-pid`. */
export const MAX_REQUEST_CHARS = 256 * 1024;

/** The most reply text read from one connection (every line counted): more is no answer pi asked for. */
export const MAX_REPLY_CHARS = 4 * 1024 * 1024;

/** The longest Emacs error text kept for a reason (it ends up in `/ide status`). */
const MAX_ERROR_CHARS = 300;

const QUOTED: Record<string, string> = { "&": "&&", "-": "&-", "\n": "&n", " ": "&_" };

/**
 * An argument as `server-quote-arg` writes it: `&` → `&&`, `-` → `&-`, newline → `&n`, space → `&_`, so
 * the result holds no space or newline (the line's separators) and never starts with `-` (a command).
 * emacsclient quotes only a leading `-`; every `-` quoted reads back the same under both unquoting rules.
 */
export function quoteArgument(text: string): string {
	return text.replace(/[-&\n ]/g, (char) => QUOTED[char] as string);
}

/** A reply's argument as emacsclient's `unquote_argument` reads it: `&_` → space, `&n` → newline, `&x` → x. */
export function unquoteArgument(text: string): string {
	return text.replace(/&([\s\S]?)/g, (_all, char: string) => (char === "_" ? " " : char === "n" ? "\n" : char));
}

/** A request's argument as the server's `server-unquote-arg` reads it: `&&`, `&-`, `&n`, and any other `&x` a space. */
export function unquoteAsServer(text: string): string {
	return text.replace(/&[\s\S]/g, (pair) => {
		const char = pair[1];
		return char === "&" ? "&" : char === "-" ? "-" : char === "n" ? "\n" : " ";
	});
}

export type RequestLine = { ok: true; line: string } | { ok: false; reason: string };

/** Printable ASCII and nothing else: the fixed elisp may not depend on how Emacs decodes the line. */
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/**
 * The one line that asks Emacs to call `elispFunction` (a fixed `(lambda (args-base64) ...)` text of pi's)
 * with `args` as base64 of their JSON: `-eval <quoted> \n`. Every command is followed by a space, as
 * emacsclient writes it (Emacs 31 asserts that a request ends in a space).
 */
export function evalRequestLine(elispFunction: string, args: unknown): RequestLine {
	if (elispFunction.trim() === "" || !PRINTABLE_ASCII.test(elispFunction.replace(/\n/g, " "))) {
		return { ok: false, reason: "the elisp text is empty or not ASCII" };
	}
	let json: string | undefined;
	try {
		json = JSON.stringify(args);
	} catch (error) {
		return { ok: false, reason: `arguments not JSON: ${(error as Error).message}` };
	}
	if (json === undefined) return { ok: false, reason: "arguments not JSON: nothing to encode" };
	const base64 = Buffer.from(json, "utf8").toString("base64");
	const line = `-eval ${quoteArgument(`(funcall ${elispFunction} "${base64}")`)} \n`;
	if (line.length > MAX_REQUEST_CHARS) {
		return { ok: false, reason: `request of ${line.length} characters, over the ${MAX_REQUEST_CHARS} limit` };
	}
	return { ok: true, line };
}

/** What one connection answered: the `-print` text (its `-print-nonl` continuations joined), or why not. */
export type ServerReply =
	| { ok: true; emacsPid: number | undefined; printed: string }
	| { ok: false; reason: string; emacsPid?: number };

/** The reply read so far: the line not yet ended, the characters read, what the lines said. */
export interface ReplyState {
	pending: string;
	chars: number;
	emacsPid?: number;
	printed?: string;
}

export type ReplyStep = { done: false; state: ReplyState } | { done: true; reply: ServerReply };

export const emptyReply = (): ReplyState => ({ pending: "", chars: 0 });

const ERROR_PREFIX = "-error ";

/**
 * One more chunk of the reply. Replies end with a newline, but `-error` has none in 28.2 (30 adds one), and
 * 28.2 then holds the connection open for a `(sit-for 5)`: an `-error` is final as soon as it arrives. A
 * chunk may end inside a line; the rest waits in `pending`.
 */
export function readReply(state: ReplyState, chunk: string): ReplyStep {
	const chars = state.chars + chunk.length;
	const fail = (reason: string): ReplyStep => ({ done: true, reply: failure(reason, state.emacsPid) });
	if (chars > MAX_REPLY_CHARS) return fail(`reply over ${MAX_REPLY_CHARS} characters`);
	const lines = (state.pending + chunk).split("\n");
	const pending = lines.pop() as string;
	let next: ReplyState = { ...state, pending, chars };
	for (const line of lines) {
		const step = readLine(next, line);
		if (step.done) return step;
		next = step.state;
	}
	if (pending.startsWith(ERROR_PREFIX)) return readLine(next, pending);
	return { done: false, state: next };
}

/** The connection closed: the value read, or why there is none. */
export function replyAtEnd(state: ReplyState): ServerReply {
	if (state.pending !== "") return failure("the connection closed inside a reply line", state.emacsPid);
	if (state.printed === undefined) return failure("Emacs closed the connection without a value", state.emacsPid);
	return { ok: true, emacsPid: state.emacsPid, printed: state.printed };
}

function readLine(state: ReplyState, line: string): ReplyStep {
	const fail = (reason: string): ReplyStep => ({ done: true, reply: failure(reason, state.emacsPid) });
	const [command = "", ...rest] = line.split(" ");
	const argument = unquoteArgument(rest.join(" "));
	switch (command) {
		case "-emacs-pid": {
			// Sent once per read Emacs makes of the request: the same pid every time.
			const pid = /^[1-9]\d{0,9}$/.test(argument) ? Number(argument) : undefined;
			if (pid === undefined) return fail(`an unreadable -emacs-pid: ${visible(argument)}`);
			if (state.emacsPid !== undefined && state.emacsPid !== pid) return fail("two different -emacs-pid values");
			return { done: false, state: { ...state, emacsPid: pid } };
		}
		case "-print":
			if (state.printed !== undefined) return fail("two values for one request");
			return { done: false, state: { ...state, printed: argument } };
		case "-print-nonl":
			if (state.printed === undefined) return fail("a -print-nonl continuation before any -print");
			return { done: false, state: { ...state, printed: state.printed + argument } };
		case "-error":
			return fail(`Emacs: ${visible(argument.trimEnd()) || "an error with no text"}`);
		default:
			return fail(`unexpected message from Emacs: ${visible(line.slice(0, 60))}`);
	}
}

function failure(reason: string, emacsPid: number | undefined): ServerReply {
	return emacsPid === undefined ? { ok: false, reason } : { ok: false, reason, emacsPid };
}

/** Emacs's text as a reason: control characters shown as `?`, cut short. */
function visible(text: string): string {
	let shown = "";
	for (const char of text.slice(0, MAX_ERROR_CHARS)) {
		const code = char.codePointAt(0) as number;
		shown += code < 0x20 || (code >= 0x7f && code < 0xa0) ? "?" : char;
	}
	return shown;
}

export type EvalValue = { ok: true; value: unknown } | { ok: false; reason: string };

/** A Lisp string as `pp` prints it (`prin1`: `\"` and `\\`, and `\n` when `pp-escape-newlines`), maybe with a newline after it. */
const LISP_STRING = /^"((?:[^"\\]|\\[\s\S])*)"\n?$/;

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * The `-print` text of pi's elisp, which returns base64 of UTF-8 JSON as a string (so no print setting of the
 * user's can change the text): the string read, then the base64, then the JSON; each step refused with its
 * reason, never thrown. `nil` is what Emacs prints when the user quit the request with C-g.
 */
export function evalValueOf(printed: string): EvalValue {
	const literal = LISP_STRING.exec(printed);
	if (!literal) {
		const shown = visible(printed.trimEnd().slice(0, 60));
		return { ok: false, reason: printed.trimEnd() === "nil" ? "Emacs gave nil (a quit?)" : `not a string: ${shown}` };
	}
	const text = (literal[1] as string).replace(/\\([\s\S])/g, (_all, char: string) => (char === "n" ? "\n" : char));
	if (!BASE64.test(text)) return { ok: false, reason: "the value is not base64" };
	try {
		return { ok: true, value: JSON.parse(Buffer.from(text, "base64").toString("utf8")) };
	} catch {
		return { ok: false, reason: "the value is not JSON" };
	}
}
