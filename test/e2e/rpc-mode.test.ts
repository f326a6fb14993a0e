import { chmodSync, readdirSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { goneLine } from "../../src/prompt/core/editor-block.ts";
import { useE2eWorkspace } from "../support/e2e-workspace.ts";
import { messageText } from "../support/fake-model-server.ts";
import {
	clientFixtureText,
	nvimFixtureText,
	projectState,
	type StateOverrides,
	selection,
} from "../support/fixtures.ts";
import { piLines } from "../support/pi-cli.ts";
import { RpcPi } from "../support/rpc-pi.ts";
import { waitFor } from "../support/wait-for.ts";

const now = () => Date.now() / 1000;

describe.each(piLines())("RPC mode through the real $name CLI", (line) => {
	const ws = useE2eWorkspace();
	const start = () =>
		ws.stopLater(RpcPi.start(line, { cwd: ws.project, agentDir: ws.agentDir, stateDir: ws.stateDir }));
	const state = (overrides: StateOverrides = {}) => projectState(ws.project, overrides);

	test.skipIf(!line.node)(
		"the widget follows writes, flips at freshness expiry with no write, clears on kill -9",
		async () => {
			const nvim = ws.editor();
			nvim.write(nvimFixtureText("named-buffer", { project: ws.project, pid: nvim.pid }));
			const rpc = start();
			await waitFor("first widget", () => rpc.lastWidget() === "in main.ts", 30_000);
			expect(rpc.uiRequests("setWidget").find((m) => m.widgetKey === "pi-ide-context")?.widgetPlacement).toBe(
				"belowEditor",
			);

			nvim.write(state({ buffer: { name: "a.ts", selection: selection(4, 4, "x", now()) } }));
			await waitFor("one line selected", () => rpc.lastWidget() === "1 line selected in a.ts");

			// Selected 55 s ago: fresh now, stale 5 s from now (room for a loaded machine to read the write first),
			// and the editor writes nothing more. The real pi has no injectable clock, so read the history of widget
			// updates: the selected line must show, then flip with no write.
			const selectedAt = now() - 55;
			const sentBefore = rpc.widgetUpdates().length;
			nvim.write(state({ buffer: { selection: selection(10, 14, "x", selectedAt) } }));
			await waitFor(
				"flip at expiry",
				() => rpc.lastWidget() === "in main.ts" && rpc.widgetUpdates().length > sentBefore + 1,
				10_000,
			);
			expect(
				rpc
					.widgetUpdates()
					.slice(sentBefore)
					.map((lines) => lines?.[0]),
			).toEqual(["5 lines selected in main.ts", "in main.ts"]);
			expect(now()).toBeGreaterThan(selectedAt + 60);

			const sent = rpc.widgetUpdates().length;
			await nvim.kill("SIGKILL");
			await waitFor(
				"cleared after kill -9",
				() => rpc.widgetUpdates().length > sent && rpc.widgetUpdates().at(-1) === undefined,
				3000,
			);
			// Sent only when the text changes: no duplicates back to back.
			const updates = rpc.widgetUpdates().map((lines) => lines?.[0]);
			expect(updates.filter((text, i) => i > 0 && text === updates[i - 1])).toEqual([]);
		},
	);

	test.skipIf(!line.node)(
		"VS Code closing its last tab: the widget clears at once and the next prompt carries no file",
		async () => {
			const home = ws.root;
			const code = ws.editor();
			code.write(clientFixtureText("vscode-client/named-file", { home, pid: code.pid }));
			const rpc = start();
			await waitFor("connected", () => rpc.lastWidget() === "in main.ts", 30_000);
			await rpc.prompt("before");
			expect(ws.server.requests.at(-1)?.messages.map(messageText).join("\n")).toContain(
				`File: ${ws.project}/src/main.ts`,
			);
			code.write(clientFixtureText("vscode-client/no-editor", { home, pid: code.pid }));
			await waitFor("cleared", () => rpc.lastWidget() === "(cleared)");
			await rpc.prompt("after");
			const last = ws.server.requests.at(-1)?.messages ?? [];
			const afterPrompt = last.slice(last.findLastIndex((m) => messageText(m) === "after"));
			expect(afterPrompt.map(messageText).join("\n")).not.toContain("main.ts");
			await rpc.command({ type: "prompt", message: "/ide status" });
			const status = await waitFor("status", () => rpc.notices().find((n) => n.startsWith("pi-ide status")));
			expect(status).toContain(`${code.pid}.json: live vscode ${code.pid}, tier 0 (cwd equals the project)`);
			expect(status).toContain("no named buffer");
		},
	);

	test.skipIf(!line.node)(
		"trust lost while pi runs (chmod 0666): nothing of the file reaches widget or model, one notice",
		async () => {
			const nvim = ws.editor();
			nvim.write(state());
			const rpc = start();
			await waitFor("connected", () => rpc.lastWidget() === "in main.ts", 30_000);
			chmodSync(nvim.file, 0o666);
			await waitFor("cleared", () => rpc.lastWidget() === "(cleared)");
			await rpc.prompt("what file?");
			const last = ws.server.requests.at(-1)?.messages ?? [];
			const afterPrompt = last.slice(last.findLastIndex((m) => messageText(m) === "what file?"));
			expect(afterPrompt.map(messageText).join("\n")).not.toContain("main.ts");
			const notice = `pi-ide: nvim ${nvim.pid} wrote a state pi cannot use (writable by group or others (mode 0666); chmod 600 it); no editor context until its next valid write`;
			await waitFor("notice", () => rpc.notices().includes(notice));
			expect(rpc.notices().filter((n) => n === notice)).toHaveLength(1);
		},
	);

	test.skipIf(!line.node)("/ide falls back to select; answering it connects that editor", async () => {
		const a = ws.editor();
		const b = ws.editor();
		a.write(state({ argv: ["pi-ide-context/"], buffer: { name: "a.ts" }, timestamp: now() - 150 }));
		b.write(state({ argv: ["pi/"], buffer: { name: "b.ts" } }));
		const rpc = start();
		await rpc.command({ type: "get_state" });
		expect(rpc.lastWidget()).toBeUndefined();

		// The command's response comes only after the dialog is answered, so do not wait for it here.
		rpc.send({ type: "prompt", message: "/ide" });
		const request = await waitFor("select request", () => rpc.uiRequests("select")[0]);
		expect(request.title).toBe("Connect pi to an editor");
		expect(request.options).toEqual([
			// How long ago depends on how long pi took to start on a loaded machine.
			expect.stringMatching(new RegExp(`^nvim ${b.pid}  pi/ - b\\.ts, active (just now|\\d+s ago)$`)),
			`nvim ${a.pid}  pi-ide-context/ - a.ts, active 2m ago`,
		]);
		rpc.respond(String(request.id), { value: (request.options as string[])[1] });
		await waitFor("widget of the picked editor", () => rpc.lastWidget() === "in a.ts");
		// The notice follows the widget update on pi's output: wait for it rather than read it in the same tick.
		await waitFor("the connected notice", () =>
			rpc.notices().includes(`pi-ide: connected to nvim ${a.pid}  pi-ide-context/`),
		);

		await rpc.prompt("what file?");
		const sent = ws.server.requests.at(-1)?.messages.map(messageText).join("\n") ?? "";
		expect(sent).toContain(`File: ${ws.project}/src/main.ts`);

		// Picker again: the connected editor is marked and a Disconnect row is offered; cancelling changes nothing.
		rpc.send({ type: "prompt", message: "/ide" });
		const second = await waitFor("second select", () => rpc.uiRequests("select")[1]);
		expect(second.options).toEqual([
			// How long ago depends on how long pi took to start on a loaded machine.
			expect.stringMatching(new RegExp(`^nvim ${b.pid}  pi/ - b\\.ts, active (just now|\\d+s ago)$`)),
			`* nvim ${a.pid}  pi-ide-context/ - a.ts, active 2m ago  (connected)`,
			"Disconnect - stop sending editor context",
		]);
		rpc.respond(String(second.id), { cancelled: true });
		await rpc.command({ type: "prompt", message: "/ide status" });
		const status = await waitFor("status notice", () => rpc.notices().find((n) => n.startsWith("pi-ide status")));
		expect(status).toContain(`Connected: nvim ${a.pid}: picked with /ide`);
		expect(status).toContain(`${a.pid}.json: live nvim ${a.pid}, tier 0 (cwd equals the project)`);

		// The Disconnect row: widget cleared, nothing sent, auto-connect paused.
		rpc.send({ type: "prompt", message: "/ide" });
		const third = await waitFor("third select", () => rpc.uiRequests("select")[2]);
		rpc.respond(String(third.id), { value: "Disconnect - stop sending editor context" });
		await waitFor("cleared", () => rpc.lastWidget() === "(cleared)");
		await waitFor("the paused notice", () =>
			rpc.notices().includes("pi-ide: disconnected; auto-connect paused until you pick an editor with /ide"),
		);
		await rpc.prompt("anything?");
		const afterPrompt = ws.server.requests.at(-1)?.messages.map(messageText) ?? [];
		expect(afterPrompt.at(-1)).toBe(goneLine("disconnected"));
	});

	test.skipIf(!line.node)(
		"/ide with nothing for this project names the cwd, the editors elsewhere and the state dir",
		async () => {
			const elsewhere = ws.editor();
			elsewhere.write(state({ cwd: "/somewhere/else", buffer: { file: "/somewhere/else/x.ts" } }));
			const rpc = start();
			await rpc.command({ type: "prompt", message: "/ide" });
			const notice = await waitFor("no-match notice", () => rpc.notices().find((n) => n.startsWith("No editor found")));
			expect(notice).toBe(
				[
					`No editor found for ${ws.project}.`,
					"Looked in:",
					`  State dir ${ws.stateDir} (PI_IDE_STATE_DIR, the only dir read): trusted, 1 state file`,
					"  Neovim: 0 found over their own servers (0 with a UI); none in this project",
					"  Emacs: 0 read over their own servers (0 with a frame); none in this project",
					"Editors running elsewhere:",
					`  nvim ${elsewhere.pid} in /somewhere/else`,
					"Use /ide all to pick one anyway.",
				].join("\n"),
			);
			rpc.send({ type: "prompt", message: "/ide all" });
			const request = await waitFor("select over all editors", () => rpc.uiRequests("select")[0]);
			expect(request.options).toEqual([
				expect.stringMatching(
					new RegExp(`^nvim ${elsewhere.pid}  src/main\\.ts - main\\.ts, active (just now|\\d+s ago)$`),
				),
			]);
			// Picking it connects it, project or not, and the prompt carries its file.
			rpc.respond(String(request.id), { value: (request.options as string[])[0] });
			await waitFor("connected elsewhere", () => rpc.lastWidget() === "in main.ts");
			await rpc.prompt("which file?");
			expect(ws.server.requests.at(-1)?.messages.map(messageText).join("\n")).toContain("File: /somewhere/else/x.ts");
			await rpc.command({ type: "prompt", message: "/ide status" });
			const status = await waitFor("status", () => rpc.notices().find((n) => n.startsWith("pi-ide status")));
			expect(status).toContain(`Connected: nvim ${elsewhere.pid}: picked with /ide all`);
		},
	);

	test.skipIf(!line.node)("/ide off disconnects and keeps auto-connect paused", async () => {
		const nvim = ws.editor();
		nvim.write(state());
		const rpc = start();
		await waitFor("connected", () => rpc.lastWidget() === "in main.ts", 30_000);
		await rpc.command({ type: "prompt", message: "/ide off" });
		await waitFor("cleared", () => rpc.lastWidget() === "(cleared)");
		nvim.write(state({ buffer: { name: "z.ts" } }));
		await rpc.prompt("anything?");
		expect(ws.server.requests.at(-1)?.messages.map(messageText).join("\n")).not.toContain("<editor-context>");
		expect(rpc.lastWidget()).toBe("(cleared)");
	});

	test.skipIf(!line.node)(
		"100 new sessions keep the picked editor and leave one watcher, one timer and the same runtime-dir watches open",
		async () => {
			const a = ws.editor();
			const b = ws.editor();
			a.write(state({ buffer: { name: "a.ts" }, timestamp: now() - 30 }));
			b.write(state({ buffer: { name: "b.ts" } }));
			const rpc = start();
			rpc.send({ type: "prompt", message: "/ide" });
			const request = await waitFor("select request", () => rpc.uiRequests("select")[0], 30_000);
			rpc.respond(String(request.id), { value: (request.options as string[])[1] });
			await waitFor("picked a", () => rpc.lastWidget() === "in a.ts");
			// The state dir's watcher, Neovim's runtime-dir watches ($TMPDIR, $XDG_RUNTIME_DIR when set), the two
			// IDE lock dirs' (~/.claude/ide, ~/.pi/ide, or their nearest parents) and Emacs's server socket dirs'.
			const opened = (await rpc.ideStatus()).find((line) => line.startsWith("Open in this process:"));
			expect(opened).toMatch(
				/^Open in this process: 1 watcher\(s\), 1 liveness timer\(s\), [12] Neovim runtime-dir watch\(es\), 2 IDE lock-dir watch\(es\), [12] Emacs server-dir watch\(es\)$/,
			);
			const fdsBefore = readdirSync(`/proc/${rpc.pid}/fd`).length;
			for (let cycle = 0; cycle < 100; cycle++) await rpc.command({ type: "new_session" });
			await waitFor("widget after the last new session", () => rpc.lastWidget() === "in a.ts");
			await rpc.command({ type: "prompt", message: "/ide status" });
			const status = await waitFor("status", () => rpc.notices().find((n) => n.startsWith("pi-ide status")));
			expect(status).toContain(`Connected: nvim ${a.pid}: picked with /ide`);
			expect(status).toContain(opened);
			await waitFor(
				"open file descriptors back to where they were",
				() => readdirSync(`/proc/${rpc.pid}/fd`).length <= fdsBefore,
			);
		},
	);
});
