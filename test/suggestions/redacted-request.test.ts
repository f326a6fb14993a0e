import { describe, expect, test } from "vitest";
import { REMEMBERED_REDACTIONS, redactedRequest, suggestionRedaction } from "../../src/suggestions/redacted-request.ts";

const GITHUB_TOKEN = "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";

/** A scanner that counts what it was asked, redacting "secret" (or failing on "unscannable"). */
function countingScan() {
	const asked: string[] = [];
	const scan = async (text: string) => {
		asked.push(text);
		return text.includes("unscannable") ? undefined : { text: text.replaceAll("secret", "[redacted]"), count: 0 };
	};
	return { asked, scan };
}

describe("a suggestion's redaction", () => {
	test("the same text is scanned once and redacted alike each time (a path, a language, an outline unchanged)", async () => {
		const { asked, scan } = countingScan();
		const redact = suggestionRedaction(true, scan);
		expect(await redact("outline secret")).toBe("outline [redacted]");
		expect(await redact("outline secret")).toBe("outline [redacted]");
		expect(await redact("cursor 1")).toBe("cursor 1");
		expect(asked).toEqual(["outline secret", "cursor 1"]);
	});

	test(`the last ${REMEMBERED_REDACTIONS} texts are kept, the one used longest ago goes first`, async () => {
		const { asked, scan } = countingScan();
		const redact = suggestionRedaction(true, scan);
		await redact("outline");
		for (let i = 0; i < REMEMBERED_REDACTIONS; i++) {
			await redact(`cursor ${i}`);
			await redact("outline");
		}
		expect(asked.filter((text) => text === "outline")).toHaveLength(1);
		await redact("cursor 0");
		expect(asked.filter((text) => text === "cursor 0")).toHaveLength(2);
	});

	test("a failed scan is not kept: the next request scans again, and sends nothing meanwhile", async () => {
		const { asked, scan } = countingScan();
		const redact = suggestionRedaction(true, scan);
		expect(await redact("unscannable")).toBeUndefined();
		expect(await redact("unscannable")).toBeUndefined();
		expect(asked).toEqual(["unscannable", "unscannable"]);
	});

	test("redactSecrets off: the text as it is, nothing scanned", async () => {
		const { asked, scan } = countingScan();
		expect(await suggestionRedaction(false, scan)("secret")).toBe("secret");
		expect(asked).toEqual([]);
	});

	test("the real scanner through the memo: a token redacted in every field, again when the text comes again", async () => {
		const redact = suggestionRedaction(true);
		const request = {
			filePath: "/p/src/main.ts",
			outline: `const token = "${GITHUB_TOKEN}"`,
			cursorBefore: `const t = "${GITHUB_TOKEN}";\nconst a = `,
			cursorAfter: "",
			suggestionCount: 1,
		};
		for (const _ of [1, 2]) {
			const sent = JSON.stringify(await redactedRequest(request, redact));
			expect(sent).not.toContain(GITHUB_TOKEN);
			expect(sent).toContain("const a = ");
		}
	});
});
