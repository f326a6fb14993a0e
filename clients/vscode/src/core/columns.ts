/**
 * VS Code counts columns in UTF-16 code units, the protocol in UTF-8 bytes (1-based). `é` is one unit and two
 * bytes, `🌍` two units (a surrogate pair) and four bytes.
 */
export function byteColumn(lineText: string, utf16Offset: number): number {
	const offset = Math.max(0, Math.min(utf16Offset, lineText.length));
	// Never split a surrogate pair: an offset inside one counts from the pair's start.
	const end =
		offset > 0 && offset < lineText.length && isLowSurrogate(lineText.charCodeAt(offset)) ? offset - 1 : offset;
	return utf8Length(lineText, end) + 1;
}

function utf8Length(text: string, end: number): number {
	let bytes = 0;
	for (let index = 0; index < end; index++) {
		const code = text.charCodeAt(index);
		if (code < 0x80) bytes += 1;
		else if (code < 0x800) bytes += 2;
		else if (isHighSurrogate(code) && index + 1 < end && isLowSurrogate(text.charCodeAt(index + 1))) {
			bytes += 4;
			index++;
		} else bytes += 3;
	}
	return bytes;
}

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;
const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff;
