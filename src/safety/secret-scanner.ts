import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import {
	kindOfRule,
	openPrivateKeySpans,
	redact,
	type SecretSpan,
	trimSpan,
	widenToReportedValues,
} from "./core/redaction.ts";
import { STRIPE_RULE_ID, stripeRule } from "./core/stripe-rule.ts";

/**
 * secretlint's recommended rules (a maintained rule set: GitHub, GitLab, Slack, npm, OpenAI, Anthropic, AWS,
 * GCP, private keys, connection strings, basic auth, ...) plus a Stripe rule, run on selection text before
 * it is sent. The preset's comment filter is left out: a `secretlint-disable` comment inside the selected
 * text must not switch redaction off. Loaded on first use, so a session that never sends a selection never
 * pays for it.
 */
const FILTER_COMMENTS_RULE = "@secretlint/secretlint-rule-filter-comments";

type Finding = { ruleId: string; range: readonly [number, number]; type: string; data?: Record<string, unknown> };
type Engine = { lint: (text: string) => Promise<Finding[]> };
let engine: Promise<Engine> | undefined;

/**
 * secretlint's profiler made a no-op. `@secretlint/core` marks the start and end of every lint and every rule
 * with `performance.mark` through the profiler's singleton, whose observer keeps every mark for the life of the
 * process and, at each end mark, looks through all of them (secretlint/secretlint#1633, #1653): each scan cost
 * more than the last, ~40 ms per suggestion's six scans after 30 suggestions, and the marks were never freed.
 * The marks only feed secretlint's CLI `--profile`; the findings do not depend on them. The profiler patched is
 * the module core itself imports: resolved from core's own location, so a second copy elsewhere cannot be hit
 * in its place.
 */
async function quietProfiler(): Promise<void> {
	const core = createRequire(import.meta.url).resolve("@secretlint/core");
	const path = createRequire(core).resolve("@secretlint/profiler");
	const { secretLintProfiler } = (await import(pathToFileURL(path).href)) as {
		secretLintProfiler: { mark: (marker: unknown) => void };
	};
	secretLintProfiler.mark = () => {};
}

async function loadEngine(): Promise<Engine> {
	const [{ lintSource }, { rules }] = await Promise.all([
		import("@secretlint/core"),
		import("@secretlint/secretlint-rule-preset-recommend"),
		// Not quieted (a layout where core's profiler cannot be found): scans still run, only slower.
		quietProfiler().catch(() => undefined),
	]);
	const config = {
		rules: [
			...rules.filter((rule) => rule.meta.id !== FILTER_COMMENTS_RULE).map((rule) => ({ id: rule.meta.id, rule })),
			{ id: STRIPE_RULE_ID, rule: stripeRule },
		],
	};
	return {
		lint: async (content) => {
			const result = await lintSource({
				source: { filePath: "selection.txt", content, contentType: "text" },
				options: { config: config as never },
			});
			return result.messages as Finding[];
		},
	};
}

/** Every credential span in `text` (empty when there is none). */
export async function findSecrets(text: string): Promise<SecretSpan[]> {
	engine ??= loadEngine();
	const messages = await (await engine).lint(text);
	return [
		...messages
			.filter((message) => message.type === "message")
			.map((message) =>
				trimSpan(
					text,
					widenToReportedValues(
						text,
						{ start: message.range[0], end: message.range[1], kind: kindOfRule(message.ruleId) },
						Object.values(message.data ?? {}),
					),
				),
			),
		...openPrivateKeySpans(text),
	];
}

/** Why a text stays on this machine when it could not be scanned. */
export const SCAN_FAILED = {
	reason: "the credential scan failed, so the text stays on this machine",
	label: "scan failed",
};

/**
 * `text` with its credentials redacted, or undefined when the scan failed: unscanned text could carry a
 * credential, so the caller withholds it and says why (`SCAN_FAILED`).
 */
export async function redactedText(
	text: string,
	scan: typeof findSecrets = findSecrets,
): Promise<{ text: string; count: number } | undefined> {
	try {
		return redact(text, await scan(text));
	} catch {
		return undefined;
	}
}
