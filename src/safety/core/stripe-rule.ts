/**
 * A secretlint rule for Stripe keys, which secretlint's recommended preset does not cover: secret and
 * restricted API keys (live and test) and webhook signing secrets. Publishable keys (`pk_`) are public.
 */
const STRIPE_KEY =
	/(?<![A-Za-z0-9_])(?:(?:sk|rk)_(?:live|test)_[0-9A-Za-z]{16,247}|whsec_[0-9A-Za-z]{24,})(?![0-9A-Za-z])/g;

const messages = {
	STRIPE_KEY: { en: () => "found a Stripe secret key" },
};

/** The part of secretlint's rule context this rule uses. */
interface RuleContext {
	createTranslator: (translations: Record<string, { en: () => string }>) => (id: string) => unknown;
	report: (descriptor: { message: unknown; range: [number, number] }) => void;
}

export const STRIPE_RULE_ID = "pi-ide-context/stripe";

export const stripeRule = {
	messages,
	meta: {
		id: STRIPE_RULE_ID,
		recommended: true,
		type: "scanner" as const,
		supportedContentTypes: ["text" as const],
		docs: { url: "https://docs.stripe.com/keys" },
	},
	create(context: RuleContext) {
		const t = context.createTranslator(messages);
		return {
			file(source: { content: string }) {
				for (const match of source.content.matchAll(STRIPE_KEY)) {
					context.report({ message: t("STRIPE_KEY"), range: [match.index, match.index + match[0].length] });
				}
			},
		};
	},
};
