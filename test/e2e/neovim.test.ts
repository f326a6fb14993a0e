/**
 * Neovim through the real pi, with nothing installed in Neovim: pi finds each Neovim in /proc, talks to its
 * own server, and Neovim pushes its state. The Neovims run with a UI in tmux (a plain `nvim --clean`), their
 * sockets in the test's TMPDIR, seen only by the test's pi (the /proc scope).
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { useE2eWorkspace } from "../support/e2e-workspace.ts";
import { messageText, writerModel } from "../support/fake-model-server.ts";
import { processesLinePattern, processFactsLines } from "../support/pi-cli.ts";
import { RealNeovim, requireNeovim } from "../support/real-neovim.ts";
import { RpcPi } from "../support/rpc-pi.ts";
import { PI_START_TIMEOUT_MS, waitFor } from "../support/wait-for.ts";

const available = requireNeovim("the Neovim end-to-end tests");

describe.skipIf(!available).each(processFactsLines())("Neovim's own server through the real $name (RPC)", (line) => {
	const ws = useE2eWorkspace();
	const scope = () => `nvim-e2e-${process.pid}-${ws.root.split("-").at(-1)}`;
	const tmp = () => join(ws.root, "tmp");
	const main = () => join(ws.project, "src", "main.ts");

	async function neovim(options: { cwd?: string; args?: string[] } = {}): Promise<RealNeovim> {
		const nvim = await RealNeovim.start({
			cwd: options.cwd ?? ws.project,
			args: options.args ?? ["src/main.ts"],
			tmpDir: tmp(),
			ui: true,
			scope: scope(),
		});
		ws.defer(() => nvim.close());
		return nvim;
	}

	function startPi(env: Record<string, string> = {}): RpcPi {
		mkdirSync(tmp(), { recursive: true });
		return ws.stopLater(
			RpcPi.start(line, {
				cwd: ws.project,
				agentDir: ws.agentDir,
				stateDir: ws.stateDir,
				env: { TMPDIR: tmp(), XDG_RUNTIME_DIR: "", NVIM: "", PI_IDE_TEST_PROC_SCOPE: scope(), ...env },
			}),
		);
	}

	const lastRequest = () => ws.server.requests.at(-1)?.messages.map(messageText).join("\n") ?? "";
	/** What the last prompt added: the messages after the model's last answer. */
	const lastContext = () => ws.lastContext();

	test.skipIf(!line.node)(
		"a plain nvim in the project connects on its own; selection, cursor and a diagnostic reach the widget and the model; :qa! clears",
		async () => {
			const nvim = await neovim();
			const rpc = startPi();
			await rpc.waitForWidget("in main.ts", PI_START_TIMEOUT_MS);
			await nvim.keys("2GVj", "V");
			await rpc.waitForWidget("2 lines selected in main.ts", 3000);
			await nvim.lua(
				`vim.diagnostic.set(vim.api.nvim_create_namespace("lint"), 0, {
					{ lnum = 1, col = 0, severity = vim.diagnostic.severity.ERROR, message = "Undefined variable 'x'", source = "tsc" },
				})`,
			);
			await nvim.keys("<Esc>", "n");
			// A prompt uses what Neovim pushed last: a test's prompt right after a key would beat the 20 ms push.
			await waitFor("the diagnostic pushed", async () =>
				(await rpc.ideStatus()).join("\n").includes("(1 errors, 0 warnings)"),
			);
			await rpc.prompt("what is selected?");
			const sent = lastContext();
			expect(sent).toContain("App: nvim");
			expect(sent).toContain(`File: ${main()}`);
			expect(sent).toContain("Selection: lines 2-3 (from line 2 column 1 to line 3 column 5)");
			expect(sent).toContain("line2\nline3");
			expect(sent).toContain("Cursor: line 3, column 1");
			expect(sent).toContain("Diagnostics: 1 error, 0 warnings\n- line 2: error: Undefined variable 'x' [tsc]");
			// Sent once: the next prompt does not repeat the section.
			await rpc.prompt("and again?");
			expect(lastContext()).not.toContain("Undefined variable");
			await nvim.lua(`vim.diagnostic.reset(vim.api.nvim_create_namespace("lint"))`);
			await nvim.keys("gg", "n");
			await waitFor("no diagnostics pushed", async () =>
				(await rpc.ideStatus()).join("\n").includes("(0 errors, 0 warnings)"),
			);
			await rpc.prompt("and now?");
			expect(lastContext()).toContain("Diagnostics: none now");

			const status = (await rpc.ideStatus()).join("\n");
			expect(status).toContain(`Connected: nvim ${nvim.pid}: auto-connected: the only live editor in tier 0`);
			expect(status).toContain(`nvim ${nvim.pid}: ${nvim.socket}`);
			expect(status).toContain("pushes: live; autoread: on");
			expect(status).toMatch(processesLinePattern(line));

			await nvim.command("qa!").catch(() => {});
			await rpc.waitForWidget("(cleared)", 2000);
		},
	);

	test.skipIf(!line.node)(
		"unsaved edits block the model's write (active and hidden buffers); the model's write of a clean file shows in Neovim",
		async () => {
			writeFileSync(join(ws.project, "src", "other.ts"), "other\n");
			writeFileSync(join(ws.project, "src", "clean.ts"), "clean\n");
			const nvim = await neovim();
			const rpc = startPi();
			await rpc.waitForWidget("in main.ts", PI_START_TIMEOUT_MS);
			// other.ts edited, then hidden behind main.ts; main.ts edited too; clean.ts loaded and clean.
			await nvim.command("edit src/other.ts");
			await nvim.keys("iX<Esc>", "n");
			await nvim.command("edit src/clean.ts | edit src/main.ts");
			await nvim.keys("iY<Esc>", "n");
			for (const file of ["src/main.ts", "src/other.ts"]) {
				ws.server.reply = writerModel(file, "from the model\n");
				await rpc.prompt(`write ${file}`);
				expect(readFileSync(join(ws.project, file), "utf8")).not.toBe("from the model\n");
				expect(rpc.notices().at(-1)).toContain(`blocked the model's write of`);
			}
			ws.server.reply = writerModel("src/clean.ts", "clean\nwritten by the model\n");
			await rpc.prompt("write src/clean.ts");
			expect(readFileSync(join(ws.project, "src", "clean.ts"), "utf8")).toBe("clean\nwritten by the model\n");
			const cleanLines = `return vim.api.nvim_buf_line_count(vim.fn.bufnr("${join(ws.project, "src", "clean.ts")}"))`;
			await waitFor("the model's write shown in Neovim", async () => (await nvim.lua(cleanLines)) === 2, 3000);
			expect(await nvim.lua("return vim.v.errmsg")).toBe("");
		},
	);

	test.skipIf(!line.node)(
		"kill -9 clears within a second; nothing of pi stays in Neovim after pi exits or is killed",
		async () => {
			const nvim = await neovim();
			const rpc = startPi();
			await rpc.waitForWidget("in main.ts", PI_START_TIMEOUT_MS);
			// The pushes' group and the asks' (asks are on by default).
			await waitFor("pi's groups in Neovim", async () => (await nvim.piGroups()).length === 2);
			await rpc.stop();
			await nvim.keys("j", "n");
			await waitFor("no group of pi's left", async () => (await nvim.piGroups()).length === 0, 2000);

			const killed = startPi();
			await killed.waitForWidget("in main.ts", PI_START_TIMEOUT_MS);
			await waitFor("pi's groups again", async () => (await nvim.piGroups()).length === 2);
			killed.run.child.kill("SIGKILL");
			await killed.run.exited;
			await nvim.keys("k", "n");
			await waitFor("the group gone after Neovim's next event", async () => (await nvim.piGroups()).length === 0, 2000);
			expect(await nvim.lua("return vim.v.errmsg")).toBe("");

			const third = startPi();
			await third.waitForWidget("in main.ts", PI_START_TIMEOUT_MS);
			const before = Date.now();
			nvim.kill();
			await third.waitForWidget("(cleared)", 1000);
			expect(Date.now() - before).toBeLessThan(1000);
		},
	);

	test.skipIf(!line.node)(
		"another project's Neovim is not connected but listed by /ide all; an impostor socket is never connected to",
		async () => {
			const elsewhere = join(ws.root, "elsewhere");
			mkdirSync(elsewhere);
			const nvim = await neovim({ cwd: elsewhere, args: [] });
			let impostorConnections = 0;
			mkdirSync(join(tmp(), "nvimFAKE00"), { recursive: true });
			const impostor = createServer((socket) => {
				impostorConnections++;
				socket.destroy();
			});
			await new Promise<void>((done) => impostor.listen(join(tmp(), "nvimFAKE00", "0"), done));
			ws.defer(() => new Promise<void>((done) => impostor.close(() => done())));
			const rpc = startPi();
			const status = await waitFor(
				"the other project's Neovim in /ide status",
				async () => {
					const lines = (await rpc.ideStatus()).join("\n");
					return lines.includes(`nvim ${nvim.pid}:`) && lines;
				},
				PI_START_TIMEOUT_MS,
			);
			expect(status).toContain("Connected: no\n");
			expect(status).toContain("no tier");
			expect(status).toContain("pushes: off (read on /ide)");
			rpc.send({ type: "prompt", message: "/ide all" });
			const request = await waitFor("the /ide all picker", () => rpc.uiRequests("select")[0]);
			expect((request.options as string[]).some((option) => option.startsWith(`nvim ${nvim.pid}`))).toBe(true);
			rpc.respond(String(request.id), { cancelled: true });
			expect(impostorConnections).toBe(0);
		},
	);

	test.skipIf(!line.node)('"neovim": false turns the source off; $NVIM decides between two', async () => {
		writeFileSync(join(ws.project, "src", "second.ts"), "second\n");
		const first = await neovim();
		const second = await neovim({ args: ["src/second.ts"] });
		mkdirSync(join(ws.project, ".pi"), { recursive: true });
		writeFileSync(join(ws.project, ".pi", "settings.json"), JSON.stringify({ "pi-ide": { neovim: false } }));
		const off = startPi();
		const status = (await waitFor(
			"status",
			async () => (await off.ideStatus()).join("\n"),
			PI_START_TIMEOUT_MS,
		)) as string;
		expect(status).toContain(`Neovim: off ("neovim": false in ${join(ws.project, ".pi", "settings.json")})`);
		expect(off.lastWidget() ?? "(cleared)").toBe("(cleared)");
		await off.stop();
		writeFileSync(join(ws.project, ".pi", "settings.json"), "{}");

		// Two Neovims in the project: a tie that waits for /ide, unless pi runs in one of them.
		const tie = startPi();
		const tied = await waitFor(
			"both Neovims read",
			async () => {
				const lines = (await tie.ideStatus()).join("\n");
				return lines.includes(`nvim ${first.pid}:`) && lines.includes(`nvim ${second.pid}:`) && lines;
			},
			PI_START_TIMEOUT_MS,
		);
		expect(tied).toContain("Connected: no\n");
		await tie.stop();
		const meant = startPi({ NVIM: second.socket });
		await meant.waitForWidget("in second.ts", PI_START_TIMEOUT_MS);
		expect((await meant.ideStatus()).join("\n")).toContain(`Connected: nvim ${second.pid}`);
	});

	test.skipIf(!line.node)("a Neovim in confirm() or a busy loop does not hold up a prompt", async () => {
		const nvim = await neovim();
		const rpc = startPi();
		await rpc.waitForWidget("in main.ts", PI_START_TIMEOUT_MS);
		await nvim.keys(":call confirm('Sure?', \"&Yes\\n&No\")<CR>");
		await waitFor(
			"Neovim blocking",
			async () => ((await nvim.call("nvim_get_mode")) as { blocking: boolean }).blocking,
		);
		let started = Date.now();
		await rpc.prompt("in a prompt?");
		expect(Date.now() - started).toBeLessThan(3000);
		expect(lastRequest()).toContain(`File: ${main()}`);
		await nvim.keys("y");
		// A busy Lua loop blocks even nvim_get_mode; the prompt uses the last pushed state.
		void nvim.rpc.request(
			"nvim_exec_lua",
			["local t = vim.loop.hrtime() while vim.loop.hrtime() - t < 3e9 do end", []],
			10_000,
		);
		started = Date.now();
		ws.server.reply = writerModel("src/main.ts", "from the model\n");
		await rpc.prompt("write src/main.ts");
		expect(Date.now() - started).toBeLessThan(2500);
		// The guard could not ask (Neovim busy): the last pushed list said main.ts was saved, so the write went through.
		expect(readFileSync(main(), "utf8")).toBe("from the model\n");
	});
});
