import { realpath } from "node:fs/promises";
import { DIAGNOSTICS_NONE_NOW, DIAGNOSTICS_WITHHELD, diagnosticsSection } from "../prompt/core/diagnostics.ts";
import type { ResolvedReference } from "../references/core/sections.ts";
import { finishedReference, type ReferenceContext } from "../references/reader.ts";
import { withheldReason } from "../safety/core/secret-files.ts";
import { redactedText } from "../safety/secret-scanner.ts";
import { shownPath } from "../shared/core/paths.ts";
import type { AskPlan, SpanToAttach } from "./core/placeholders.ts";

export type PlaceholderContext = Pick<ReferenceContext, "secretFile" | "redactSecrets" | "scan"> & {
	projectDir: string;
};

/**
 * Each text an ask carries, checked as a reference's: a secret file's withheld (by the path the editor named
 * and by its real path), cut to the references' cap, credentials redacted. pi never reads it again from disk:
 * the editor's text is what the user saw when they asked.
 */
export async function resolvePlaceholders(plan: AskPlan, context: PlaceholderContext): Promise<ResolvedReference[]> {
	return Promise.all(plan.spans.map((span) => resolveSpan(span, context)));
}

async function resolveSpan(span: SpanToAttach, context: PlaceholderContext): Promise<ResolvedReference> {
	const file = span.file ?? span.name;
	const shown = span.file !== undefined ? shownPath(span.file, context.projectDir) : span.name;
	const place = { file, shown, startLine: span.startLine, endLine: span.endLine };
	if (span.file !== undefined) {
		const real = await realpath(span.file).catch(() => undefined);
		const secret = context.secretFile([span.file, real]);
		if (secret) return { kind: "withheld", ...place, ...withheldReason(secret) };
	}
	return finishedReference(
		{
			...place,
			text: span.text,
			from: "selection",
			unsavedInEditor: false,
			...(span.columns && { columns: span.columns }),
		},
		context,
	);
}

/**
 * `@diagnostics` as the prompt's block has them; a secret file's withheld. Undefined when it has no errors or
 * warnings (the section says nothing then).
 */
export async function diagnosticsOfAsk(plan: AskPlan, context: PlaceholderContext): Promise<string | undefined> {
	const asked = plan.diagnostics;
	if (!asked) return undefined;
	if (asked.file !== undefined) {
		const real = await realpath(asked.file).catch(() => undefined);
		if (context.secretFile([asked.file, real])) return DIAGNOSTICS_WITHHELD;
	}
	const section = diagnosticsSection(asked.items, {}) ?? DIAGNOSTICS_NONE_NOW;
	if (!context.redactSecrets) return section;
	return (await redactedText(section, context.scan))?.text ?? "Diagnostics: withheld (the credential scan failed)";
}
