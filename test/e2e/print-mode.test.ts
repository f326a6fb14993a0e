import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { useE2eWorkspace } from "../support/e2e-workspace.ts";
import { type ChatRequest, messageText } from "../support/fake-model-server.ts";
import { nvimFixtureText } from "../support/fixtures.ts";
import { PACKAGE_ROOT, piLines, spawnPi, writeAgentDir } from "../support/pi-cli.ts";

const now = () => Math.floor(Date.now() / 1000);

describe.each(piLines())("print mode (-p) through the real $name CLI", (line) => {
	const ws = useE2eWorkspace();

	// The model's answer and nothing else on stdout: the transcript line is for the TUI only.
	const ask = (prompt: string) => ws.print(line, prompt);

	const texts = (request: ChatRequest) => request.messages.map(messageText);

	test.skipIf(!line.node)(
		"the editor block follows the prompt, with the absolute path and the fresh selection",
		async () => {
			const nvim = ws.editor();
			nvim.write(nvimFixtureText("visual-line-selection", { project: ws.project, pid: nvim.pid, selectedAt: now() }));
			const request = await ask("explain this");
			const all = texts(request);
			const prompt = all.indexOf("explain this");
			expect(prompt).toBeGreaterThan(0);
			const block = all[prompt + 1] ?? "";
			expect(block.startsWith("<editor-context>\n")).toBe(true);
			expect(block).toContain(`File: ${ws.project}/src/main.ts\n`);
			expect(block).toContain(
				"Selection: lines 2-4 (from line 2 column 1 to line 4 column 5)\n```typescript\nline2\nline3\nline4\n```",
			);
			expect(request.messages[prompt + 1]?.role).toBe("user");
		},
	);

	test.skipIf(!line.node)("a stale selection's text is not sent", async () => {
		const nvim = ws.editor();
		nvim.write(
			nvimFixtureText("visual-line-selection", { project: ws.project, pid: nvim.pid, selectedAt: now() - 120 }),
		);
		const all = texts(await ask("what now")).join("\n");
		expect(all).toContain(`File: ${ws.project}/src/main.ts`);
		expect(all).not.toContain("line2\nline3");
		expect(all).not.toContain("Selection:");
	});

	test.skipIf(!line.node)("two editors tied in the best tier: nothing is injected", async () => {
		for (const nvim of [ws.editor(), ws.editor()]) {
			nvim.write(nvimFixtureText("named-buffer", { project: ws.project, pid: nvim.pid }));
		}
		expect(texts(await ask("hello")).join("\n")).not.toContain("<editor-context>");
	});

	test.skipIf(!line.node)("the system prompt is byte-identical with and without an editor", async () => {
		const without = (await ask("hello")).messages[0];
		const nvim = ws.editor();
		nvim.write(nvimFixtureText("charwise-selection", { project: ws.project, pid: nvim.pid, selectedAt: now() }));
		const withEditor = await ask("hello");
		expect(texts(withEditor).join("\n")).toContain("<editor-context>");
		expect(without?.role).toBe("system");
		expect(withEditor.messages[0]).toEqual(without);
	});
});

describe.each(piLines())("as a pi package through the real $name CLI", (line) => {
	const ws = useE2eWorkspace();

	test.skipIf(!line.node)("`pi install <checkout>` loads it from the package manifest, no -e needed", async () => {
		const install = spawnPi(line, {
			cwd: ws.project,
			agentDir: ws.agentDir,
			stateDir: ws.stateDir,
			args: [],
			extension: null,
			command: ["install", PACKAGE_ROOT],
		});
		expect(await install.exited, install.stderr()).toBe(0);
		const nvim = ws.editor();
		nvim.write(nvimFixtureText("named-buffer", { project: ws.project, pid: nvim.pid }));
		const run = spawnPi(line, {
			cwd: ws.project,
			agentDir: ws.agentDir,
			stateDir: ws.stateDir,
			args: ["-p", "hi"],
			extension: null,
		});
		expect(await run.exited, run.stderr()).toBe(0);
		expect(ws.server.requests.at(-1)?.messages.map(messageText).join("\n")).toContain(
			`File: ${ws.project}/src/main.ts`,
		);
	});
});

describe.each(piLines())("settings through the real $name CLI", (line) => {
	const ws = useE2eWorkspace();

	async function injected(): Promise<boolean> {
		const run = spawnPi(line, { cwd: ws.project, agentDir: ws.agentDir, stateDir: ws.stateDir, args: ["-p", "hi"] });
		expect(await run.exited, run.stderr()).toBe(0);
		return (ws.server.requests.at(-1)?.messages.map(messageText).join("\n") ?? "").includes("<editor-context>");
	}

	test.skipIf(!line.node)('global "autoconnect": false turns auto-connect off; the project setting wins', async () => {
		const nvim = ws.editor();
		nvim.write(nvimFixtureText("named-buffer", { project: ws.project, pid: nvim.pid }));
		writeAgentDir(ws.agentDir, ws.server.baseUrl, { "pi-ide": { autoconnect: false } });
		expect(await injected()).toBe(false);
		mkdirSync(join(ws.project, ".pi"), { recursive: true });
		writeFileSync(join(ws.project, ".pi", "settings.json"), JSON.stringify({ "pi-ide": { autoconnect: true } }));
		expect(await injected()).toBe(true);
		writeFileSync(join(ws.project, ".pi", "settings.json"), JSON.stringify({ "pi-ide": { autoconnect: false } }));
		writeAgentDir(ws.agentDir, ws.server.baseUrl, {});
		expect(await injected()).toBe(false);
	});
});
