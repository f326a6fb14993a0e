import { CHUNK_BODY_COLUMNS, elispChunk, indent } from "../../src/editors/emacs/core/elisp/elisp-chunk.ts";
import { EMACS_ELISP_CHUNKS } from "../../src/editors/emacs/core/elisp/push-elisp.ts";
import { SNAPSHOT_FORM } from "../../src/editors/emacs/core/elisp/state-elisp.ts";
import { EMACS_REVIEW_ELISP_CHUNKS } from "../../src/review/core/emacs-diff-elisp.ts";

/**
 * How docs/security.md quotes every chunk of elisp pi sends into Emacs: verbatim, in pieces a reader can follow,
 * each shared text once. A chunk made by `elispChunk` is the frame with `BODY` standing for its body (indented
 * `CHUNK_BODY_COLUMNS` more); in a body, `(SNAPSHOT_FORM :indent n)` stands for the snapshot form (its later lines n more); the
 * review's chunks share one text, `REVIEW_BODY` standing for what each adds. `chunkFromQuotes` puts the pieces
 * back together, and the docs test checks that this gives every chunk exactly, so the quotes can never drift.
 */
export interface ElispQuote {
	/** What the docs call it (a heading's words). */
	title: string;
	text: string;
}

const BODY = "BODY";
const FORM = "SNAPSHOT_FORM";
const REVIEW = "REVIEW_BODY";
const [FRAME_HEAD, FRAME_TAIL] = elispChunk(BODY).split(indent(BODY, CHUNK_BODY_COLUMNS)) as [string, string];

/** The body of a framed chunk, or undefined for a chunk of its own (the probe). */
function bodyOf(chunk: string): string | undefined {
	if (!chunk.startsWith(FRAME_HEAD) || !chunk.endsWith(FRAME_TAIL)) return undefined;
	const middle = chunk.slice(FRAME_HEAD.length, chunk.length - FRAME_TAIL.length);
	const body = middle
		.split("\n")
		.map((line) => line.slice(Math.min(CHUNK_BODY_COLUMNS, line.length - line.trimStart().length)))
		.join("\n");
	return elispChunk(body) === chunk ? body : undefined;
}

/** Where the snapshot form stands in a body: `(SNAPSHOT_FORM :indent n)`, n the indentation of its later lines. */
const formToken = (columns: number) => `(${FORM} :indent ${columns})`;
const FORM_TOKEN = new RegExp(`\\(${FORM} :indent (\\d+)\\)`, "g");

function withFormNamed(body: string): string {
	let named = body;
	for (let columns = 80; columns >= 0; columns--) {
		named = named.replaceAll(indent(SNAPSHOT_FORM, columns).trimStart(), formToken(columns));
	}
	return named;
}

function withFormInlined(body: string): string {
	return body.replace(FORM_TOKEN, (_token, columns: string) => indent(SNAPSHOT_FORM, Number(columns)).trimStart());
}

/** The lines every review body starts and ends with: quoted once, `REVIEW_BODY` between them. */
function reviewShared(bodies: string[]): { head: string[]; tail: string[] } {
	const split = bodies.map((body) => body.split("\n"));
	const shortest = Math.min(...split.map((lines) => lines.length));
	let head = 0;
	while (head < shortest && split.every((lines) => lines[head] === split[0]?.[head])) head++;
	let tail = 0;
	while (
		tail < shortest - head &&
		split.every((lines) => lines[lines.length - 1 - tail] === split[0]?.[split[0].length - 1 - tail])
	) {
		tail++;
	}
	const first = split[0] ?? [];
	return { head: first.slice(0, head), tail: first.slice(first.length - tail) };
}

function reviewPieces() {
	const bodies = Object.values(EMACS_REVIEW_ELISP_CHUNKS).map((chunk) => bodyOf(chunk) ?? chunk);
	const { head, tail } = reviewShared(bodies);
	const own = (body: string) => {
		const lines = body.split("\n");
		return lines.slice(head.length, lines.length - tail.length).join("\n");
	};
	return { shared: [...head, REVIEW, ...tail].join("\n"), own };
}

/** Every quote the docs hold, in the order they appear there. */
export function emacsElispQuotes(): ElispQuote[] {
	const quotes: ElispQuote[] = [
		{
			title: "The frame of every chunk",
			text: FRAME_HEAD + indent(BODY, CHUNK_BODY_COLUMNS) + FRAME_TAIL,
		},
		{ title: "SNAPSHOT_FORM: what the user sees now", text: SNAPSHOT_FORM },
	];
	for (const [name, chunk] of Object.entries(EMACS_ELISP_CHUNKS)) {
		const body = bodyOf(chunk);
		quotes.push({ title: name, text: body === undefined ? chunk : withFormNamed(body) });
	}
	const review = reviewPieces();
	quotes.push({ title: "The review's shared form", text: review.shared });
	for (const [name, chunk] of Object.entries(EMACS_REVIEW_ELISP_CHUNKS)) {
		const body = bodyOf(chunk);
		quotes.push({ title: name, text: body === undefined ? chunk : review.own(body) });
	}
	return quotes;
}

/** A chunk put back together from the quotes, as the docs say to read them. */
export function chunkFromQuotes(name: string, quotes: readonly ElispQuote[]): string {
	const text = (title: string) => quotes.find((quote) => quote.title === title)?.text ?? "";
	const frame = (body: string) =>
		text("The frame of every chunk").replace(indent(BODY, CHUNK_BODY_COLUMNS), indent(body, CHUNK_BODY_COLUMNS));
	if (name in EMACS_REVIEW_ELISP_CHUNKS) {
		return frame(text("The review's shared form").replace(REVIEW, text(name)));
	}
	const quoted = text(name);
	return bodyOf(EMACS_ELISP_CHUNKS[name] ?? "") === undefined ? quoted : frame(withFormInlined(quoted));
}
