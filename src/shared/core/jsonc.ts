/**
 * JSON with comments (`//`, `/* *\/`) and trailing commas, as editors write their settings files (Zed's
 * `settings.json`). Untrusted text: a reason, never a throw.
 */
export function parseJsonc(text: string): { ok: true; value: unknown } | { ok: false; reason: string } {
	const plain = withoutTrailingCommas(withoutComments(text));
	if (plain === undefined) return { ok: false, reason: "a comment is never closed" };
	try {
		return { ok: true, value: JSON.parse(plain) };
	} catch (error) {
		return {
			ok: false,
			reason: `not valid JSON with comments (${error instanceof Error ? error.message : String(error)})`,
		};
	}
}

/** The end of the string literal that opens at `start` (the index after its closing quote). */
function stringEnd(text: string, start: number): number {
	let at = start + 1;
	while (at < text.length && text[at] !== '"') at += text[at] === "\\" ? 2 : 1;
	return at + 1;
}

function withoutComments(text: string): string | undefined {
	let out = "";
	let at = 0;
	while (at < text.length) {
		const char = text[at];
		if (char === '"') {
			const end = stringEnd(text, at);
			out += text.slice(at, end);
			at = end;
		} else if (char === "/" && text[at + 1] === "/") {
			while (at < text.length && text[at] !== "\n") at++;
		} else if (char === "/" && text[at + 1] === "*") {
			const end = text.indexOf("*/", at + 2);
			if (end < 0) return undefined;
			out += " ";
			at = end + 2;
		} else {
			out += char;
			at++;
		}
	}
	return out;
}

function withoutTrailingCommas(text: string | undefined): string | undefined {
	if (text === undefined) return undefined;
	let out = "";
	let at = 0;
	while (at < text.length) {
		const char = text[at];
		if (char === '"') {
			const end = stringEnd(text, at);
			out += text.slice(at, end);
			at = end;
			continue;
		}
		if (char === ",") {
			let next = at + 1;
			while (next < text.length && /\s/.test(text[next] as string)) next++;
			if (text[next] === "}" || text[next] === "]") {
				at++;
				continue;
			}
		}
		out += char;
		at++;
	}
	return out;
}
