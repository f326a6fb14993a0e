import type { ConnectedView } from "../connection/core/rules.ts";
import { parseReferences } from "../references/core/parse.ts";
import { type ReferenceSections, referenceSections } from "../references/core/sections.ts";
import { type ReferenceContext, resolveReferences } from "../references/reader.ts";
import { type SecretFileMatch, withheldReason } from "../safety/core/secret-files.ts";
import { type findSecrets, redactedText, SCAN_FAILED } from "../safety/secret-scanner.ts";
import type { ContextMode } from "../settings/core/settings.ts";
import { type ContextMessage, contextMessage } from "./core/context-message.ts";
import { DIAGNOSTICS_WITHHELD, diagnosticsSection } from "./core/diagnostics.ts";
import { editorForPrompt, freshSelectionSource } from "./core/editor-for-prompt.ts";
import type { ModelKnowledge } from "./core/model-knowledge.ts";
import {
	cutForPrompt,
	type SelectionPayload,
	type SelectionSource,
	sentSelection,
	withheldSelection,
} from "./core/selection-payload.ts";

/** Turns a selection into what may be sent. */
export type PrepareSelection = (
	source: SelectionSource,
	secret: SecretFileMatch | undefined,
) => Promise<SelectionPayload>;

/**
 * A secret file's selection is withheld whole. Anything else is cut to the cap first (a 16 MiB select-all
 * is never scanned whole), then credentials in what will be sent are redacted.
 */
export function prepareSelection(options: {
	redactSecrets: boolean;
	/** The credential scanner (tests stand in a failing one). */
	scan?: typeof findSecrets;
}): PrepareSelection {
	return async (source, secret) => {
		if (secret) return withheldSelection(source, withheldReason(secret));
		const cut = cutForPrompt(source.selection);
		if (!options.redactSecrets) return sentSelection(source, cut, 0);
		const redacted = await redactedText(cut.text, options.scan);
		if (!redacted) return withheldSelection(source, SCAN_FAILED);
		return sentSelection(source, { ...cut, text: redacted.text }, redacted.count);
	};
}

/** Turns the diagnostics section into what may be sent. */
export type PrepareDiagnostics = (section: string, secret: SecretFileMatch | undefined) => Promise<string>;

/**
 * Diagnostics are the file's own words (a message may quote a line holding a key): withheld in a secret file,
 * redacted like a selection otherwise, and withheld when the scan fails.
 */
export function prepareDiagnostics(options: { redactSecrets: boolean; scan?: typeof findSecrets }): PrepareDiagnostics {
	let cached: { section: string; prepared: Promise<string> } | undefined;
	return (section, secret) => {
		if (secret) return Promise.resolve(DIAGNOSTICS_WITHHELD);
		if (!options.redactSecrets) return Promise.resolve(section);
		if (cached?.section !== section) {
			const prepared = redactedText(section, options.scan).then(
				(redacted) => redacted?.text ?? `Diagnostics: withheld (${SCAN_FAILED.reason})`,
			);
			cached = { section, prepared };
		}
		return cached.prepared;
	};
}

function sameSource(a: SelectionSource, b: SelectionSource): boolean {
	const x = a.selection;
	const y = b.selection;
	return (
		a.file === b.file &&
		a.language === b.language &&
		x.selected_at === y.selected_at &&
		x.start.line === y.start.line &&
		x.start.column === y.start.column &&
		x.end.line === y.end.line &&
		x.end.column === y.end.column &&
		x.text === y.text
	);
}

/**
 * The editor-context message of one prompt. A selection is prepared once (cutting and redaction cost
 * something) and reused while the editor reports the same one: later prompts and cursor moves cost nothing.
 */
export class MessageBuilder {
	private cached?: { source: SelectionSource; secret: string | undefined; payload: Promise<SelectionPayload> };

	constructor(
		private readonly projectDir: () => string,
		private readonly prepare: PrepareSelection,
		private readonly prepareDiagnostics: PrepareDiagnostics = prepareDiagnosticsDefault,
	) {}

	/**
	 * Everything one prompt carries: the ambient block (auto mode only) and the code the prompt references;
	 * one message, or none when there is nothing to say.
	 */
	async forPrompt(
		view: ConnectedView,
		knowledge: ModelKnowledge,
		input: {
			texts: readonly string[];
			mode: ContextMode;
			references: Omit<ReferenceContext, "view" | "projectDir">;
			/** False for a prompt the editor sent (an ask): it carries what the user pointed at, the block no selection. */
			withSelection?: boolean;
		},
	): Promise<ContextMessage | undefined> {
		const ambient = input.mode === "auto" ? await this.ambient(view, knowledge, input.withSelection ?? true) : {};
		const parsed = parseReferences(input.texts.join("\n"));
		if (parsed.references.length === 0 && parsed.notes.length === 0) return ambient.message;
		const context = { ...input.references, view, projectDir: this.projectDir() };
		const resolved = await resolveReferences(parsed.references, context);
		const sections = referenceSections(resolved, parsed.notes, {
			alreadySent: knowledge.sentTextIds,
			...(ambient.selection && { ambientSelection: ambient.selection }),
		});
		return withReferences(ambient.message, sections);
	}

	private async ambient(
		view: ConnectedView,
		knowledge: ModelKnowledge,
		withSelection: boolean,
	): Promise<{ message?: ContextMessage; selection?: { file: string; startLine: number; endLine: number } }> {
		if (view.kind === "gone") return { message: contextMessage(view, knowledge) };
		const fresh = withSelection
			? freshSelectionSource(view.state, view.selectionFirstSeenSeconds, view.nowSeconds)
			: undefined;
		const selection = fresh && (await this.payload(fresh, view.secret));
		const buffer = view.state.active_buffer;
		const section = diagnosticsSection(buffer?.diagnostics, {
			...(fresh && { selection: fresh.selection }),
			...(typeof buffer?.cursor?.line === "number" && { cursorLine: buffer.cursor.line }),
		});
		const diagnostics = section === undefined ? undefined : await this.prepareDiagnostics(section, view.secret);
		const now = editorForPrompt(view.state, this.projectDir(), selection, {
			unsavedUnknown: view.unsavedUnknown,
			...(diagnostics !== undefined && { diagnostics }),
		});
		const message = contextMessage(now, knowledge);
		const carried =
			fresh && selection && !selection.withheld && message
				? { file: fresh.file, startLine: fresh.selection.start.line, endLine: fresh.selection.end.line }
				: undefined;
		return { message, ...(carried && { selection: carried }) };
	}

	private payload(source: SelectionSource, secret: SecretFileMatch | undefined): Promise<SelectionPayload> {
		if (this.cached && this.cached.secret === secret?.pattern && sameSource(this.cached.source, source)) {
			return this.cached.payload;
		}
		const payload = this.prepare(source, secret);
		this.cached = { source, secret: secret?.pattern, payload };
		// A preparation that throws is not cached: the next prompt tries again.
		payload.catch(() => {
			if (this.cached?.payload === payload) this.cached = undefined;
		});
		return payload;
	}
}

const prepareDiagnosticsDefault = prepareDiagnostics({ redactSecrets: true });

/** The reference sections joined to the ambient message, or a message of their own (`kind: "references"`). */
function withReferences(ambient: ContextMessage | undefined, references: ReferenceSections): ContextMessage {
	const summary = references.summaries.join(", ");
	const content = [...(ambient ? [ambient.content] : []), ...references.sections].join("\n\n");
	const details = ambient?.details ?? { v: 1 as const, kind: "references" as const, summary: "" };
	return {
		content,
		details: {
			...details,
			summary: ambient ? `${ambient.details.summary}; ${summary}` : `editor: ${summary}`,
			...(references.sentIds.length > 0 && { sentReferences: references.sentIds }),
		},
	};
}
