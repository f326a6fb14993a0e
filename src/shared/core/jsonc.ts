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

/**
 * The text with string literals copied whole and every other character handed to `step`, which says what it
 * becomes and where to go on; undefined when `step` finds the text broken.
 */
function outsideStrings(
	text: string,
	step: (at: number) => { out: string; next: number } | undefined,
): string | undefined {
	let out = "";
	let at = 0;
	while (at < text.length) {
		if (text[at] === '"') {
			let end = at + 1;
			while (end < text.length && text[end] !== '"') end += text[end] === "\\" ? 2 : 1;
			out += text.slice(at, end + 1);
			at = end + 1;
			continue;
		}
		const next = step(at);
		if (!next) return undefined;
		out += next.out;
		at = next.next;
	}
	return out;
}

function withoutComments(text: string): string | undefined {
	return outsideStrings(text, (at) => {
		if (text[at] === "/" && text[at + 1] === "/") {
			const end = text.indexOf("\n", at);
			return { out: blank(text.slice(at, end < 0 ? text.length : end)), next: end < 0 ? text.length : end };
		}
		if (text[at] === "/" && text[at + 1] === "*") {
			const end = text.indexOf("*/", at + 2);
			return end < 0 ? undefined : { out: blank(text.slice(at, end + 2)), next: end + 2 };
		}
		return { out: text[at] as string, next: at + 1 };
	});
}

/**
 * What was a comment, as white space of the same length with its line breaks kept: JSON.parse's positions are
 * then positions in the file as written, which a broken settings file's report names.
 */
const blank = (cut: string) => cut.replace(/[^\r\n]/g, " ");

/** A comma followed (after white space) by a closing bracket becomes a space. */
function withoutTrailingCommas(text: string | undefined): string | undefined {
	if (text === undefined) return undefined;
	return outsideStrings(text, (at) => {
		if (text[at] === "," && /^\s*[}\]]/.test(text.slice(at + 1, at + 1 + 4096))) return { out: " ", next: at + 1 };
		return { out: text[at] as string, next: at + 1 };
	});
}
