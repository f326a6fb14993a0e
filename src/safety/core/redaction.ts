/** A credential found in text about to be sent: `[start, end)` in UTF-16 units, and what kind it is. */
export interface SecretSpan {
	start: number;
	end: number;
	kind: string;
}

const RULE_PREFIXES = ["@secretlint/secretlint-rule-", "pi-ide-context/"];

/** `@secretlint/secretlint-rule-github` -> `github`, `pi-ide-context/stripe` -> `stripe`. */
export function kindOfRule(ruleId: string): string {
	const prefix = RULE_PREFIXES.find((candidate) => ruleId.startsWith(candidate));
	return prefix ? ruleId.slice(prefix.length) : ruleId;
}

/** How far past a reported range a detector's own copy of the secret is looked for. */
const VALUE_SEARCH_WINDOW = 256;

/**
 * A span widened to cover the secret values the detector reported with it. Detectors can report a range
 * that does not cover the value (secretlint's AWS secret-key rule gives the start of the whole match with
 * the length of the key alone), and half a key must never be sent: the span only grows.
 */
export function widenToReportedValues(text: string, span: SecretSpan, values: readonly unknown[]): SecretSpan {
	let { start, end } = span;
	for (const value of values) {
		if (typeof value !== "string" || value.length < 8) continue;
		const at = text.indexOf(value, Math.max(0, span.start - VALUE_SEARCH_WINDOW));
		if (at < 0 || at > span.end + VALUE_SEARCH_WINDOW) continue;
		start = Math.min(start, at);
		end = Math.max(end, at + value.length);
	}
	return { ...span, start, end };
}

const SURROUNDING = /["'`;,()[\]{}<>\s]/;

/**
 * A span without the quotes, brackets, separators and white space at its edges: some detectors (connection
 * strings) run on to the end of the line and would take the code after the secret with them. No credential
 * starts or ends with these characters, so nothing of one is ever let through.
 */
export function trimSpan(text: string, span: SecretSpan): SecretSpan {
	let { start, end } = span;
	while (end > start && SURROUNDING.test(text[end - 1] as string)) end--;
	while (start < end && SURROUNDING.test(text[start] as string)) start++;
	return { ...span, start, end };
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
