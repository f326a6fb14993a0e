import { type ChatRequest, messageText } from "../support/fake-model-server.ts";

/**
 * The demo's offline model: it answers every prompt by quoting back the editor block that came with it,
 * so a newcomer sees exactly what the model received.
 */
export function echoReply(request: ChatRequest): string {
	const texts = request.messages.filter((message) => message.role === "user").map(messageText);
	const block = texts.findLast((text) => text.startsWith("<editor-context>"));
	const prompt = texts.findLast((text) => !text.startsWith("<editor-context>")) ?? "";
	const asked = prompt.length > 60 ? `${prompt.slice(0, 57)}...` : prompt;
	if (!block || texts.at(-1) !== block) {
		return `(offline echo model) No editor context came with "${asked}". Is an editor connected? Try /ide or /ide status.`;
	}
	const quoted = block
		.split("\n")
		.map((line) => `    ${line}`)
		.join("\n");
	return `(offline echo model) You asked "${asked}". Along with it I received this editor context:\n\n${quoted}`;
}
