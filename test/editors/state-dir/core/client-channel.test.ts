import { describe, expect, test } from "vitest";
import {
	askingClientOf,
	CHANNEL_SERVER_NAME,
	channelClientOf,
	channelSocketName,
	missingChannelText,
	noQuestionsReason,
	questioningClientOf,
	suggestingClientOf,
} from "../../../../src/editors/state-dir/core/client-channel.ts";

describe("which state files name a client with the channel", () => {
	test.each([
		["pi-ide-context-vscode/0.4.0", { kind: "channel" }],
		["pi-ide-context-vscode/0.4.1", { kind: "channel" }],
		["pi-ide-context-vscode/1.0.0", { kind: "channel" }],
		["pi-ide-context-vscode/0.10.0", { kind: "channel" }],
		["pi-ide-context-vscode/0.4.0-beta.1", { kind: "channel" }],
		["pi-ide-context-vscode/0.3.0", { kind: "without-channel", version: "0.3.0" }],
		["pi-ide-context-vscode/0.3.9", { kind: "without-channel", version: "0.3.9" }],
		["pi-ide-context-vscode/unknown", { kind: "without-channel", version: "unknown" }],
		["pi-ide-context-vscode-fork/9.9.9", { kind: "other" }],
		["someone-else/1.0.0", { kind: "other" }],
		[undefined, { kind: "other" }],
	])("%s", (client, kind) => {
		expect(channelClientOf(client)).toEqual(kind);
	});

	test("the socket's name and the server's name", () => {
		expect(channelSocketName(4242)).toBe("4242.sock");
		expect(CHANNEL_SERVER_NAME).toBe("pi-ide-context-vscode");
	});
});

describe("which clients ask for inline completions (0.5.0 on) and send asks (0.6.0 on)", () => {
	test.each([
		["pi-ide-context-vscode/0.4.9", { kind: "older", version: "0.4.9" }, { kind: "older", version: "0.4.9" }],
		["pi-ide-context-vscode/0.5.0", { kind: "does" }, { kind: "older", version: "0.5.0" }],
		["pi-ide-context-vscode/0.5.9", { kind: "does" }, { kind: "older", version: "0.5.9" }],
		["pi-ide-context-vscode/0.6.0", { kind: "does" }, { kind: "does" }],
		["pi-ide-context-vscode/0.6.0-rc.1", { kind: "does" }, { kind: "does" }],
		["pi-ide-context-vscode/1.0.0", { kind: "does" }, { kind: "does" }],
		["pi-ide-context-vscode/unknown", { kind: "older", version: "unknown" }, { kind: "older", version: "unknown" }],
		["someone-else/9.9.9", { kind: "other" }, { kind: "other" }],
		[undefined, { kind: "other" }, { kind: "other" }],
	])("%s", (client, suggesting, asking) => {
		expect(suggestingClientOf(client)).toEqual(suggesting);
		expect(askingClientOf(client)).toEqual(asking);
	});
});

describe("which clients show pi's questions (0.7.0 on), and why not", () => {
	test.each([
		[
			"pi-ide-context-vscode/0.6.0",
			{ kind: "older", version: "0.6.0" },
			"VS Code client 0.6.0; 0.7.0 shows pi's questions",
		],
		[
			"pi-ide-context-vscode/0.6.9",
			{ kind: "older", version: "0.6.9" },
			"VS Code client 0.6.9; 0.7.0 shows pi's questions",
		],
		["pi-ide-context-vscode/0.7.0", { kind: "does" }, undefined],
		["pi-ide-context-vscode/0.7.0-rc.1", { kind: "does" }, undefined],
		["pi-ide-context-vscode/1.2.3", { kind: "does" }, undefined],
		["someone-else/0.1.0", { kind: "other" }, undefined],
		[undefined, { kind: "other" }, undefined],
	])("%s", (client, since, reason) => {
		expect(questioningClientOf(client)).toEqual(since);
		expect(noQuestionsReason(client)).toBe(reason);
	});

	test("the version is the state file's word: shown without control characters, cut", () => {
		const reason = noQuestionsReason(`pi-ide-context-vscode/0.6.0\u001b[31m${"x".repeat(200)}`) ?? "";
		expect(reason).not.toMatch(/[\u0000-\u001f\u007f]/);
		expect(reason.length).toBeLessThan(100);
		expect(reason).toMatch(/^VS Code client 0\.6\.0.*; 0\.7\.0 shows pi's questions$/);
	});
});

describe("what /ide status says of a client without a channel", () => {
	test.each([
		[
			"an older client",
			{ kind: "without-channel", version: "0.3.0" } as const,
			undefined,
			"client 0.3.0 has no review channel: update with /ide install vscode",
		],
		[
			"a client with the channel but no socket",
			{ kind: "channel" } as const,
			"/s/7.sock: no socket",
			"review channel: /s/7.sock: no socket: update with /ide install vscode",
		],
		["a client with its socket", { kind: "channel" } as const, undefined, undefined],
		["another client", { kind: "other" } as const, "/s/7.sock: no socket", undefined],
	])("%s", (_name, client, problem, text) => {
		expect(missingChannelText(client, problem)).toBe(text);
	});
});
