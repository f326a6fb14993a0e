import { generateKeyPairSync } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { cutForPrompt } from "../../src/prompt/core/selection-payload.ts";
import { redact, widenToReportedValues } from "../../src/safety/core/redaction.ts";
import { findSecrets } from "../../src/safety/secret-scanner.ts";
import { MAX_SENT_TEXT_BYTES } from "../../src/shared/core/text-cuts.ts";
import { selection } from "../support/fixtures.ts";
import { PACKAGE_ROOT } from "../support/pi-cli.ts";

const { privateKey } = generateKeyPairSync("rsa", {
	modulusLength: 1024,
	privateKeyEncoding: { type: "pkcs8", format: "pem" },
	publicKeyEncoding: { type: "spki", format: "pem" },
});

/** Credentials of each kind the issue names, shaped like real ones (none is live). */
const SECRETS: [string, string, string][] = [
	["GitHub token", "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", "github"],
	["GitLab token", "glpat-Xk9vR2mQ7pL4sT8wY1zB", "gitlab"],
	["Slack bot token", "xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx", "slack"],
	["Stripe live key", "sk_live_51H8xYzAbCdEfGhIjKlMnOpQrStUvWx", "stripe"],
	["Stripe restricted key", "rk_live_51H8xYzAbCdEfGhIjKlMnOpQrStUvWx", "stripe"],
	["npm token", "npm_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789", "npm"],
	["OpenAI key", "sk-abcdefghij0123456789T3BlbkFJabcdefghij0123456789", "openai"],
	["Anthropic key", `sk-ant-api03-${"Ab1".repeat(31)}AA`, "anthropic"],
	["Postgres URL password", "postgres://app:S3cr3tPassw0rd@db.internal:5432/app", "database-connection-string"],
	["basic-auth URL", "https://admin:hunter2hunter2@example.com/x", "basicauth"],
	["private key", privateKey, "privatekey"],
];

async function redacted(text: string) {
	return redact(text, await findSecrets(text));
}

describe("credentials in a selection are redacted, the rest untouched", () => {
	test.each(SECRETS)("%s", async (_name, secret, kind) => {
		const text = `before();\nconst value = ${JSON.stringify(secret)};\nafter();`;
		const out = await redacted(text);
		expect(out.count).toBeGreaterThanOrEqual(1);
		expect(out.text).toContain(`[redacted: ${kind}]`);
		expect(out.text).not.toContain(secret.trim().split("\n")[1] ?? secret);
		expect(out.text).not.toContain(secret.slice(8, 24));
		expect(out.text.startsWith("before();\nconst value = ")).toBe(true);
		expect(out.text.endsWith(";\nafter();")).toBe(true);
	});

	test("an AWS secret access key is removed whole (the detector's own range would leave half of it)", async () => {
		const key = "Xk9vR2mQ7pL4sT8wY1zB3nC6dF0gH5jK2lM9qW4e";
		const out = await redacted(`x = 1\naws_secret_access_key = "${key}"\ny = 2`);
		expect(out.count).toBe(1);
		expect(out.text).not.toContain(key.slice(-12));
		expect(out.text).toContain("[redacted: aws]");
		expect(widenToReportedValues("ab KEY1234567 cd", { start: 0, end: 5, kind: "k" }, ["KEY1234567"])).toEqual({
			start: 0,
			end: 13,
			kind: "k",
		});
	});

	test("a GCP service-account key file loses its private key", async () => {
		const json = JSON.stringify(
			{
				type: "service_account",
				project_id: "p",
				private_key: privateKey,
				client_email: "x@p.iam.gserviceaccount.com",
			},
			null,
			2,
		);
		const out = await redacted(json);
		expect(out.text).not.toContain(privateKey.split("\n")[2] ?? "MII");
		expect(out.text).toContain("x@p.iam.gserviceaccount.com");
	});

	test("secretlint-disable comments inside the selection do not switch redaction off", async () => {
		const token = "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";
		for (const comment of ["// secretlint-disable", "// secretlint-disable-next-line", "# secretlint-disable-line"]) {
			const out = await redacted(`${comment}\nconst t = "${token}"; ${comment.startsWith("#") ? comment : ""}`);
			expect(out.text, comment).not.toContain(token);
		}
	});

	test("a private key cut open by the 64 KiB cap is redacted to the end", async () => {
		const filler = Array.from({ length: 2200 }, (_, i) => `const filler${i} = ${i};`).join("\n");
		// Padding puts BEGIN just inside the cap and END beyond it.
		const padding = "x".repeat(MAX_SENT_TEXT_BYTES - Buffer.byteLength(filler) - 200);
		const text = `${filler}\n${padding}\n${privateKey}`;
		const opened = cutForPrompt(selection(1, text.split("\n").length, text, 1));
		expect(opened.text).toContain("-----BEGIN PRIVATE KEY-----");
		expect(opened.text).not.toContain("-----END PRIVATE KEY-----");
		const out = await redacted(opened.text);
		expect(out.text.endsWith("[redacted: privatekey]")).toBe(true);
		expect(out.text).not.toContain(privateKey.split("\n")[1]);
		expect(out.text.startsWith("const filler0 = 0;")).toBe(true);
	});
});

/** Every `.ts` file under `dir` (no node_modules below it). */
function typescriptFiles(dir: string): string[] {
	return readdirSync(dir).flatMap((name) => {
		const path = join(dir, name);
		if (name === "node_modules") return [];
		if (statSync(path).isDirectory()) return typescriptFiles(path);
		return /\.m?ts$/.test(name) ? [path] : [];
	});
}

describe("no false positives on ordinary code", () => {
	const modules = (path: string) => join(PACKAGE_ROOT, "node_modules", path);
	const corpus = [
		...typescriptFiles(join(PACKAGE_ROOT, "src")),
		...typescriptFiles(modules("@mariozechner/pi-ai/dist")),
		...typescriptFiles(modules("@mariozechner/pi-tui/dist")),
		...typescriptFiles(modules("@mariozechner/pi-coding-agent/dist")),
		...typescriptFiles(modules("@secretlint/core/src")),
		...typescriptFiles(modules("typebox/build")).slice(0, 200),
	];

	test(`${corpus.length} real source files, most of which mention password, token, secret or apiKey: zero redactions`, async () => {
		expect(corpus.length).toBeGreaterThan(400);
		let mentioning = 0;
		for (const file of corpus) {
			const text = readFileSync(file, "utf8").slice(0, MAX_SENT_TEXT_BYTES);
			if (/password|token|secret|apiKey/i.test(text)) mentioning++;
			const spans = await findSecrets(text);
			expect(spans, `${file}: ${JSON.stringify(spans.map((s) => text.slice(s.start, s.end)))}`).toEqual([]);
		}
		expect(mentioning).toBeGreaterThan(30);
	});
});

describe("secretlint's profiler is quieted", () => {
	test("scans leave no performance mark behind (its observer kept every one and looked through all at each scan)", async () => {
		for (let i = 0; i < 20; i++) await findSecrets(`const value${i} = "${"a".repeat(i)}";`);
		const marks = performance.getEntriesByType("mark").filter((mark) => mark.name.startsWith("@core>"));
		expect(marks.map((mark) => mark.name)).toEqual([]);
	});
});
