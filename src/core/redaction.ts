/** A credential found in text about to be sent: `[start, end)` in UTF-16 units, and what kind it is. */
export interface SecretSpan {
	start: number;
	end: number;
	kind: string;
}

const RULE_PREFIX = "@secretlint/secretlint-rule-";

/** `@secretlint/secretlint-rule-github` -> `github`; other ids are kept as they are. */
export function kindOfRule(ruleId: string): string {
	return ruleId.startsWith(RULE_PREFIX) ? ruleId.slice(RULE_PREFIX.length) : ruleId;
}

const BEGIN_PRIVATE_KEY = /-----BEGIN[A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----/g;
const END_PRIVATE_KEY = /-----END[A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----/;

/**
 * Private-key blocks with no END after them: the 64 KiB cut (or the user's selection) opened them, and
 * detectors that want a whole block miss them. Everything from BEGIN to the end of the text is key material.
 */
export function openPrivateKeySpans(text: string): SecretSpan[] {
	const spans: SecretSpan[] = [];
	for (const match of text.matchAll(BEGIN_PRIVATE_KEY)) {
		const rest = text.slice(match.index + match[0].length);
		if (END_PRIVATE_KEY.test(rest)) continue;
		spans.push({ start: match.index, end: text.length, kind: "privatekey" });
		break;
	}
	return spans;
}

/** Overlapping or touching spans become one, in order; the first kind names a merged span. */
export function mergeSpans(spans: readonly SecretSpan[]): SecretSpan[] {
	const sorted = [...spans].filter((span) => span.end > span.start).sort((a, b) => a.start - b.start || b.end - a.end);
	const merged: SecretSpan[] = [];
	for (const span of sorted) {
		const last = merged.at(-1);
		if (last && span.start <= last.end) last.end = Math.max(last.end, span.end);
		else merged.push({ ...span });
	}
	return merged;
}

/** Each span becomes `[redacted: <kind>]`; the rest of the text is untouched. */
export function redact(text: string, spans: readonly SecretSpan[]): { text: string; count: number } {
	const merged = mergeSpans(spans);
	if (merged.length === 0) return { text, count: 0 };
	let out = "";
	let at = 0;
	for (const span of merged) {
		out += `${text.slice(at, span.start)}[redacted: ${span.kind}]`;
		at = span.end;
	}
	return { text: out + text.slice(at), count: merged.length };
}
