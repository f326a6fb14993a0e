import { existsSync } from "node:fs";
import { realpath } from "node:fs/promises";
import type { SecretFileMatch } from "../safety/core/secret-files.ts";
import { withheldReason } from "../safety/core/secret-files.ts";
import { type findSecrets, redactedText, SCAN_FAILED } from "../safety/secret-scanner.ts";
import type { BridgePrompt } from "./core/bridge-messages.ts";
import { type PromptPart, promptParts } from "./core/prompt-parts.ts";
import { type FinishedPrompt, finishedPrompt, type PartVerdict, promptLead } from "./core/prompt-text.ts";

export interface BridgePromptContext {
	projectDir: string;
	secretFile: (paths: readonly (string | undefined)[]) => SecretFileMatch | undefined;
	redactSecrets: boolean;
	/** The credential scanner (tests stand in a failing one). */
	scan?: typeof findSecrets;
}

/**
 * A prompt of pi-bridge.nvim's as pi sends it: the code it inlined checked as references are (a secret file's
 * withheld, by the path named and by its real path; credentials redacted; cut), a link or a hint first.
 */
export async function composeBridgePrompt(prompt: BridgePrompt, context: BridgePromptContext): Promise<FinishedPrompt> {
	const { file } = prompt.context;
	// CR LF as LF: a fence line ending in CR would not read as a fence, and its code would pass as words.
	const parts = promptParts(prompt.text.replace(/\r\n?/g, "\n"), prompt.context);
	const secrets = new Map<string, Promise<string | undefined>>();
	const secretOf = (path: string) => {
		let found = secrets.get(path);
		if (!found) {
			found = secretReason(path, context);
			secrets.set(path, found);
		}
		return found;
	};
	const bufferSecret = file.startsWith("/") ? await secretOf(file) : undefined;
	const verdicts = await Promise.all(
		parts.map((part) => {
			if (part.kind === "words") return undefined;
			// From a secret file's buffer, whatever a header or a fence claims, nothing inlined goes.
			if (bufferSecret !== undefined) return { withheld: bufferSecret };
			return verdictOf(part, file, secretOf, context);
		}),
	);
	const exists = prompt.context.buffer_state === undefined && file.startsWith("/") ? existsSync(file) : undefined;
	const lead = promptLead(prompt.context, { projectDir: context.projectDir, ...(exists !== undefined && { exists }) });
	return finishedPrompt({
		...(lead !== undefined && { lead }),
		parts,
		verdicts,
		...(bufferSecret !== undefined && { bufferSecret }),
	});
}

async function verdictOf(
	part: Exclude<PromptPart, { kind: "words" }>,
	bufferFile: string,
	secretOf: (path: string) => Promise<string | undefined>,
	context: BridgePromptContext,
): Promise<PartVerdict> {
	const file = part.origin.from === "buffer" ? bufferFile : part.origin.from === "mark" ? part.origin.file : undefined;
	const named = [file, ...(part.kind === "block" ? part.mentions : [])];
	for (const one of named) {
		if (!one?.startsWith("/")) continue;
		const secret = await secretOf(one);
		if (secret !== undefined) return { withheld: secret };
	}
	const text = part.kind === "block" ? part.body : part.kind === "mark" ? part.code : part.text;
	if (!context.redactSecrets) return { redacted: text };
	const redacted = await redactedText(text, context.scan);
	return redacted ? { redacted: redacted.text } : { withheld: SCAN_FAILED.reason };
}

async function secretReason(path: string, context: BridgePromptContext): Promise<string | undefined> {
	const real = await realpath(path).catch(() => undefined);
	const match = context.secretFile([path, real]);
	return match ? withheldReason(match).reason : undefined;
}
