import { type Static, Type } from "typebox";
import { Compile } from "typebox/compile";
import { isFields } from "../../shared/core/fields.ts";

/**
 * pi-bridge.nvim's messages, as its source sends them (`../shared/reference/pi-bridge.md`): one JSON object a
 * line, each with a string `type`. Older plugins send more fields: they are allowed and never read.
 */

export type BufferState = "nameless" | "scratch" | "unsaved" | "modified" | "saved";

/** An id as pi sent it: echoed back as it was. */
const Id = Type.Union([Type.String({ maxLength: 200 }), Type.Integer()]);
const Path = Type.String({ maxLength: 4096 });

const BufferStateSchema = Type.Union([
	Type.Literal("nameless"),
	Type.Literal("scratch"),
	Type.Literal("unsaved"),
	Type.Literal("modified"),
	Type.Literal("saved"),
]);
const FiletypeSchema = Type.String({ maxLength: 200 });
const RangeSchema = Type.String({ maxLength: 2000, pattern: "^\\d+(-\\d+)?(,\\d+(-\\d+)?)*$" });

/** What a prompt must have; the optional context fields are read by their own schemas below. */
const PromptSchema = Type.Object({
	type: Type.Literal("prompt"),
	text: Type.String(),
	context: Type.Object({
		file: Path,
		cwd: Path,
		mode: Type.Union([Type.Literal("normal"), Type.Literal("visual")]),
		filetype: Type.Optional(FiletypeSchema),
		buffer_state: Type.Optional(BufferStateSchema),
		range: Type.Optional(RangeSchema),
	}),
});

/**
 * As pi-bridge.ext reads them, an optional context field it does not know (a newer plugin's `buffer_state`, a
 * `filetype` that is no string, a range it cannot read) is dropped, not the prompt: the link or hint says less.
 */
const OPTIONAL_CONTEXT = {
	filetype: Compile(FiletypeSchema),
	buffer_state: Compile(BufferStateSchema),
	range: Compile(RangeSchema),
} as const;

function withKnownContext(raw: Record<string, unknown>): Record<string, unknown> {
	const context = isFields(raw.context) ? { ...raw.context } : raw.context;
	if (isFields(context))
		for (const [name, check] of Object.entries(OPTIONAL_CONTEXT))
			if (context[name] !== undefined && !check.Check(context[name])) delete context[name];
	return { ...raw, context };
}

const ApprovalAckSchema = Type.Object({ type: Type.Literal("approval_ack"), id: Id });
const ApprovalResponseSchema = Type.Object({
	type: Type.Literal("approval_response"),
	id: Id,
	decision: Type.Union([Type.Literal("yes"), Type.Literal("all"), Type.Literal("no")]),
});
const MirrorReadySchema = Type.Object({ type: Type.Literal("mirror_ready") });
const UiPromptResponseSchema = Type.Object({
	type: Type.Literal("ui_prompt_response"),
	id: Id,
	value: Type.Optional(Type.String({ maxLength: 64 * 1024 })),
	cancelled: Type.Optional(Type.Literal(true)),
	key: Type.Optional(Type.String({ maxLength: 64 })),
});

export type BridgePrompt = Static<typeof PromptSchema>;
export type ApprovalDecision = Static<typeof ApprovalResponseSchema>["decision"];
export type BridgeId = Static<typeof Id>;

/** One line of the plugin's, read: what it says, or `ignored` (a type pi does not take), or why it is malformed. */
export type BridgeMessage =
	| { type: "prompt"; prompt: BridgePrompt }
	| { type: "approval_ack"; id: BridgeId }
	| { type: "approval_response"; id: BridgeId; decision: ApprovalDecision }
	| { type: "mirror_ready" }
	| { type: "ui_prompt_response"; id: BridgeId; answer: UiPromptAnswer }
	| { type: "ignored"; name: string };

/** A mirrored question's answer: the chosen label, the copy cancelled, or a key for a custom component. */
export type UiPromptAnswer = { value: string } | { cancelled: true } | { key: string };

const checks = {
	prompt: Compile(PromptSchema),
	approval_ack: Compile(ApprovalAckSchema),
	approval_response: Compile(ApprovalResponseSchema),
	mirror_ready: Compile(MirrorReadySchema),
	ui_prompt_response: Compile(UiPromptResponseSchema),
} as const;

type Read = { ok: true; message: BridgeMessage } | { ok: false; reason: string };

/** One line, checked by its schema. Never throws. */
export function readBridgeLine(line: string): Read {
	let raw: unknown;
	try {
		raw = JSON.parse(line);
	} catch {
		return { ok: false, reason: "a line that is not JSON" };
	}
	if (!isFields(raw) || typeof raw.type !== "string") return { ok: false, reason: "a message without a string type" };
	const type = raw.type;
	if (!Object.hasOwn(checks, type)) return { ok: true, message: { type: "ignored", name: type.slice(0, 60) } };
	const check = checks[type as keyof typeof checks];
	const read = type === "prompt" ? withKnownContext(raw) : raw;
	if (!check.Check(read)) return { ok: false, reason: `a malformed ${type} (${firstError(check, read)})` };
	if (type === "prompt") return { ok: true, message: { type, prompt: read as BridgePrompt } };
	if (type === "mirror_ready") return { ok: true, message: { type } };
	const id = raw.id as BridgeId;
	if (type === "approval_ack") return { ok: true, message: { type, id } };
	if (type === "approval_response")
		return { ok: true, message: { type, id, decision: raw.decision as ApprovalDecision } };
	const given = [raw.value !== undefined, raw.cancelled !== undefined, raw.key !== undefined].filter(Boolean).length;
	if (given !== 1)
		return { ok: false, reason: "a malformed ui_prompt_response (exactly one of value, cancelled, key)" };
	const answer: UiPromptAnswer =
		typeof raw.value === "string"
			? { value: raw.value }
			: typeof raw.key === "string"
				? { key: raw.key }
				: { cancelled: true };
	return { ok: true, message: { type: "ui_prompt_response", id, answer } };
}

function firstError(check: { Errors(value: unknown): { instancePath: string; message: string }[] }, value: unknown) {
	const [error] = check.Errors(value);
	return error ? `${error.instancePath || "the message"}: ${error.message}` : "unreadable";
}

/** What pi sends the plugin, with the field names its source reads. */
export type BridgeOutgoing =
	| { type: "agent_start"; message: string }
	| { type: "agent_end"; message: string }
	| { type: "error"; message: string; code: BridgeErrorCode }
	| { type: "approval_request"; id: string; tool: "edit" | "write"; path: string; diff: string }
	| { type: "approval_resolved"; id: string }
	| {
			type: "ui_prompt_request";
			id: number;
			kind: "select" | "confirm" | "custom";
			title?: string;
			options?: readonly string[];
			lines?: readonly string[];
	  }
	| { type: "ui_prompt_resolved"; id: number };

/** pi-bridge.ext's codes: no model or no pi session; refused or failed; the session ended under it. */
export type BridgeErrorCode = "no_active_pi" | "send_failed" | "stale_context";

export const bridgeLine = (message: BridgeOutgoing) => `${JSON.stringify(message)}\n`;
