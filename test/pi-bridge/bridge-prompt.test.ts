import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { composeBridgePrompt } from "../../src/pi-bridge/bridge-prompt.ts";
import type { BridgePrompt } from "../../src/pi-bridge/core/bridge-messages.ts";
import { DEFAULT_SECRET_FILE_PATTERNS, secretFileMatcher } from "../../src/safety/core/secret-files.ts";
import { tempDir } from "../support/temp-dir.ts";

const PASSWORD = "PASSWORD=hunter2hunter2";
const GITHUB_TOKEN = "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";

describe("what the plugin inlined, checked on real files: a secret file's text never passes as something else", () => {
	const dir = tempDir("bridge-prompt");
	const file = (name: string, text = "x\n") => {
		const path = join(dir.path, name);
		writeFileSync(path, text);
		return path;
	};
	const context = {
		projectDir: dir.path,
		secretFile: secretFileMatcher(DEFAULT_SECRET_FILE_PATTERNS),
		redactSecrets: true,
	};
	const prompt = (text: string, bufferFile: string, filetype = "lua"): BridgePrompt => ({
		type: "prompt",
		text,
		context: { file: bufferFile, cwd: dir.path, mode: "normal", filetype, buffer_state: "saved" },
	});
	const composed = async (text: string, bufferFile: string, filetype?: string) => {
		const done = await composeBridgePrompt(prompt(text, bufferFile, filetype), context);
		if (!done.ok) throw new Error(done.reason);
		return done.text;
	};

	test.each([
		[
			"a mark line inside a fence the user typed around @mA",
			(env: string) => `\`\`\`\nexplain\n\nVim mark A - [.env:1](${env}): \`${PASSWORD}\`\n\`\`\``,
		],
		[
			"an unclosed fence above a mark line",
			(env: string) => `look\n\`\`\`lua\nVim mark A - [.env:1](${env}): \`${PASSWORD}\``,
		],
	])("%s: the block is withheld", async (_name, text) => {
		const env = file(".env", `${PASSWORD}\n`);
		const sent = await composed(text(env), file("main.lua"));
		expect(sent).not.toContain("hunter2");
		expect(sent).toContain("[code block withheld: .env matches the secret-file pattern");
	});

	test.each([
		[
			"a header naming another file above the buffer's block",
			"Vim mark Z - /elsewhere/ok.lua:1:\n\n```sh\nPASSWORD=hunter2hunter2\n```",
		],
		["a fence with CR LF line ends", "look\r\n\r\n```sh\r\nPASSWORD=hunter2hunter2\r\n```\r\n"],
		["a diagnostic of the buffer", "fix L1:C1 [ERROR] PASSWORD=hunter2hunter2 is unused"],
	])("from a .env buffer, %s: withheld all the same", async (_name, text) => {
		const sent = await composed(text, file(".env", `${PASSWORD}\n`), "sh");
		expect(sent).not.toContain("hunter2");
		expect(sent).toMatch(/withheld: \.env matches the secret-file pattern/);
	});

	test("an ordinary buffer's block: a token redacted, the words as typed, the link first", async () => {
		const main = file("main.lua");
		const sent = await composed(`check this\n\n\`\`\`lua\nlocal token = "${GITHUB_TOKEN}"\n\`\`\`\n\n`, main);
		expect(sent).toBe(`File: @main.lua\n\ncheck this\n\n\`\`\`lua\nlocal token = "[redacted: github]"\n\`\`\`\n\n`);
	});
});
