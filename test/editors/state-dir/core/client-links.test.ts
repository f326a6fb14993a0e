import { describe, expect, test } from "vitest";
import {
	askingClientOf,
	questioningClientOf,
	suggestingClientOf,
} from "../../../../src/editors/state-dir/core/client-channel.ts";
import {
	clientLabel,
	linkOffers,
	linkStatusText,
	olderClientNotes,
} from "../../../../src/editors/state-dir/core/client-links.ts";

const both = { suggestions: true, asks: true };
const suggestions = { suggestions: true, asks: false };
const asks = { suggestions: false, asks: true };
const none = { suggestions: false, asks: false };

describe("what a link offers a window", () => {
	test.each([
		["both on, a 0.6.0 client", both, true, both],
		["both on, an older client: inline completions only", both, false, suggestions],
		["asks alone, a 0.6.0 client", asks, true, asks],
		["asks alone, an older client: no link", asks, false, undefined],
		["suggestions alone, any client", suggestions, false, suggestions],
		["neither: no link", none, true, undefined],
	])("%s", (_name, on, clientAsks, offers) => {
		expect(linkOffers(on, { asks: clientAsks })).toEqual(offers);
	});
});

describe("a link in /ide status", () => {
	test.each([
		[{ state: "offered", offers: suggestions } as const, "inline completions: offered (VS Code asks pi as you type)"],
		[{ state: "offered", offers: asks } as const, 'asks: offered ("pi: Ask…" in the palette)'],
		[
			{ state: "offered", offers: both } as const,
			'inline completions: offered (VS Code asks pi as you type); asks: offered ("pi: Ask…" in the palette)',
		],
		[{ state: "connecting", offers: both } as const, "inline completions and asks: connecting"],
		[{ state: "connecting", offers: asks } as const, "asks: connecting"],
		[
			{ state: "failed", offers: suggestions, reason: "nothing listens on /s/1.sock" } as const,
			"inline completions: not offered: nothing listens on /s/1.sock",
		],
	])("%j", (link, text) => {
		expect(linkStatusText(link)).toBe(text);
	});
});

describe("what an older client cannot do, said on its state file's line", () => {
	const named = (name: string) => ({
		suggesting: suggestingClientOf(name),
		asking: askingClientOf(name),
		questioning: questioningClientOf(name),
	});
	const client = (version: string) => named(`pi-ide-context-vscode/${version}`);
	test.each([
		[
			"0.4.0, both on",
			client("0.4.0"),
			both,
			[
				"inline completions: client 0.4.0 does not ask pi (0.5.0 on does)",
				"asks: client 0.4.0 cannot ask pi (0.6.0 on can)",
			],
		],
		[
			"0.4.0, suggestions alone",
			client("0.4.0"),
			suggestions,
			["inline completions: client 0.4.0 does not ask pi (0.5.0 on does)"],
		],
		["0.5.0, both on", client("0.5.0"), both, ["asks: client 0.5.0 cannot ask pi (0.6.0 on can)"]],
		["0.5.0, suggestions alone", client("0.5.0"), suggestions, []],
		[
			"0.6.0, both on: it asks, but pi's questions stay in pi",
			client("0.6.0"),
			both,
			["questions: client 0.6.0 cannot show pi's questions, they stay in pi (0.7.0 on can)"],
		],
		["0.6.0, suggestions alone: no asks, so no questions to say", client("0.6.0"), suggestions, []],
		["0.7.0, both on", client("0.7.0"), both, []],
		["0.7.0, asks alone", client("0.7.0"), asks, []],
		["0.5.0, neither on", client("0.5.0"), none, []],
		["another client", named("someone-else/0.1.0"), both, []],
	])("%s", (_name, of, on, notes) => {
		expect(olderClientNotes(on, of)).toEqual(notes);
	});
});

describe("how an ask names the window", () => {
	test.each([
		["vscode", "VS Code 4242"],
		["cursor", "Cursor 4242"],
		["windsurf", "Windsurf 4242"],
		["vscodium", "VSCodium 4242"],
		["code-oss", "code-oss 4242"],
		["", "VS Code 4242"],
	])("%s", (app, label) => {
		expect(clientLabel(app, 4242)).toBe(label);
	});

	test("an app's own name is shown safe: no control characters, cut", () => {
		const label = clientLabel(`\u001b]0;evil\u0007${"x".repeat(100)}`, 4242);
		expect(label).not.toMatch(/[\u0000-\u001f\u007f]/);
		expect(label.length).toBeLessThanOrEqual(24 + " 4242".length);
	});
});
