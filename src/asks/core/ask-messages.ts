import { type Static, Type } from "typebox";
import { Compile } from "typebox/compile";
import { type AskMethod, MAX_LISTED_BUFFERS } from "../../editors/core/ask-methods.ts";
import { DiagnosticSchema, MAX_DIAGNOSTICS } from "../../editors/core/protocol-state.ts";
import { isFields } from "../../shared/core/fields.ts";

/** What the user typed may be at most this long (UTF-8): a longer ask is refused, never cut. */
export const MAX_TYPED_BYTES = 64 * 1024;
export { MAX_LISTED_BUFFERS };

/** A placeholder's text as the editor sends it; pi cuts it to the references' 64 KiB after. */
const MAX_SPAN_CHARS = 1024 * 1024;
const MAX_LINE = 2_147_483_647;

const Line = Type.Integer({ minimum: 1, maximum: MAX_LINE });
const Column = Type.Integer({ minimum: 1, maximum: MAX_LINE });
/** An absolute path, as every editor reports a named buffer's file. */
const AbsoluteFile = Type.String({ pattern: "^/", minLength: 2, maxLength: 4096 });
const BufferName = Type.String({ maxLength: 4096 });

/**
 * A selection or a line as the editor saw it when the user asked: its file (none for a buffer with no name),
 * its lines, the columns of a selection inside one line (1-based, inclusive), and its text at that moment.
 */
const SpanSchema = Type.Object({
	file: Type.Optional(AbsoluteFile),
	name: Type.Optional(BufferName),
	startLine: Line,
	endLine: Line,
	startColumn: Type.Optional(Column),
	endColumn: Type.Optional(Column),
	text: Type.String({ maxLength: MAX_SPAN_CHARS }),
});

/** A buffer: its file, or (no name) its text. */
const BufferSchema = Type.Object({
	file: Type.Optional(AbsoluteFile),
	name: Type.Optional(BufferName),
	text: Type.Optional(Type.String({ maxLength: MAX_SPAN_CHARS })),
});

const PlaceholdersSchema = Type.Object({
	this: Type.Optional(SpanSchema),
	selection: Type.Optional(SpanSchema),
	buffer: Type.Optional(BufferSchema),
	buffers: Type.Optional(Type.Array(BufferSchema, { maxItems: MAX_LISTED_BUFFERS })),
	diagnostics: Type.Optional(
		Type.Object({
			file: Type.Optional(AbsoluteFile),
			name: Type.Optional(BufferName),
			items: Type.Array(DiagnosticSchema, { maxItems: MAX_DIAGNOSTICS }),
		}),
	),
});

/** An ask: the typed prompt and what each placeholder in it stood for when the user sent it. */
const AskSchema = Type.Object({
	prompt: Type.String({ maxLength: MAX_TYPED_BYTES * 4 }),
	placeholders: Type.Optional(PlaceholdersSchema),
});

/** `add`: references to these lines go into pi's input, nothing runs. */
const AddSchema = Type.Object({ file: AbsoluteFile, startLine: Type.Optional(Line), endLine: Type.Optional(Line) });

/** `answer`: the choice (its number, from 1) the user picked for one of pi's questions; `dismiss`: their copy closed. */
const QuestionId = Type.Integer({ minimum: 1, maximum: MAX_LINE });
const AnswerSchema = Type.Object({ id: QuestionId, choice: Type.Integer({ minimum: 1, maximum: 1000 }) });
const DismissSchema = Type.Object({ id: QuestionId });

export type Span = Static<typeof SpanSchema>;
export type BufferRef = Static<typeof BufferSchema>;
export type Placeholders = Static<typeof PlaceholdersSchema>;
export type Ask = Static<typeof AskSchema>;
export type Add = Static<typeof AddSchema>;

const askCheck = Compile(AskSchema);
const addCheck = Compile(AddSchema);
const answerCheck = Compile(AnswerSchema);
const dismissCheck = Compile(DismissSchema);

export type AskMessage =
	| { method: "ask"; ask: Ask }
	| { method: "add"; add: Add }
	| { method: "stop" }
	| { method: "reply" }
	| { method: "replyClosed" }
	| { method: "answer"; id: number; choice: number }
	| { method: "dismiss"; id: number };

type Checked<T> = { ok: true; value: T } | { ok: false; reason: string };

/** One editor message checked: what it asks, or why it is not one pi takes. Never throws. */
export function parseAskMessage(method: AskMethod, params: unknown): Checked<AskMessage> {
	if (method === "stop" || method === "reply" || method === "replyClosed") return { ok: true, value: { method } };
	if (method === "answer") {
		if (!answerCheck.Check(params))
			return { ok: false, reason: `a malformed answer (${firstError(answerCheck, params)})` };
		return { ok: true, value: { method, id: params.id, choice: params.choice } };
	}
	if (method === "dismiss") {
		if (!dismissCheck.Check(params))
			return { ok: false, reason: `a malformed dismiss (${firstError(dismissCheck, params)})` };
		return { ok: true, value: { method, id: params.id } };
	}
	if (method === "add") {
		if (!addCheck.Check(params)) return { ok: false, reason: `a malformed add (${firstError(addCheck, params)})` };
		return { ok: true, value: { method, add: params } };
	}
	const prompt = isFields(params) ? params.prompt : undefined;
	// Each UTF-16 unit is a byte or more: past the cap in units is past it in bytes, whatever the schema says.
	if (typeof prompt === "string" && prompt.length > MAX_TYPED_BYTES) return tooLong(prompt);
	if (!askCheck.Check(params)) return { ok: false, reason: `a malformed ask (${firstError(askCheck, params)})` };
	if (Buffer.byteLength(params.prompt, "utf8") > MAX_TYPED_BYTES) return tooLong(params.prompt);
	for (const [name, span] of [
		["@this", params.placeholders?.this],
		["@selection", params.placeholders?.selection],
	] as const)
		if (span && span.endLine < span.startLine)
			return { ok: false, reason: `a malformed ask (${name} ends before it starts)` };
	return { ok: true, value: { method, ask: params } };
}

function tooLong(prompt: string): { ok: false; reason: string } {
	const typed = Buffer.byteLength(prompt, "utf8");
	return {
		ok: false,
		reason: `prompt too long (${Math.ceil(typed / 1024)} KiB typed; ${MAX_TYPED_BYTES / 1024} KiB at most)`,
	};
}

function firstError(
	check: { Errors(value: unknown): { instancePath: string; message: string }[] },
	value: unknown,
): string {
	const [error] = check.Errors(value);
	return error ? `${error.instancePath || "the message"}: ${error.message}` : "unreadable";
}
