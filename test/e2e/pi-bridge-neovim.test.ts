/**
 * A Neovim that runs pi-bridge.nvim and that pi also reads over its own server: the plugin (a stub module of its
 * name in a real Neovim 0.7.2, the plugin's socket side played by the test's client) gets pi's questions and
 * approvals of the turns it asked; the float pi pushes into that Neovim never shows them a second time.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { useE2eWorkspace } from "../support/e2e-workspace.ts";
import { PluginClient } from "../support/pi-bridge-client.ts";
import { bridgePi, bridgeSocket, pluginContext } from "../support/pi-bridge-e2e.ts";
import { type PiLine, piLines } from "../support/pi-cli.ts";
import { RealNeovim, requireNeovim } from "../support/real-neovim.ts";
import type { RpcPi } from "../support/rpc-pi.ts";
import { PI_START_TIMEOUT_MS, waitFor } from "../support/wait-for.ts";

const available = requireNeovim("the pi-bridge Neovim tests");

/** The window pi's questions use: a float (a window whose config is relative to the editor). */
const FLOATS_LUA =
	"local n = 0 for _, w in ipairs(vim.api.nvim_list_wins()) do if vim.api.nvim_win_get_config(w).relative ~= '' then n = n + 1 end end return n";

describe.skipIf(!available).each(piLines())(
	"pi-bridge.nvim in a Neovim pi reads, on the real $name",
	(line: PiLine) => {
		const ws = useE2eWorkspace();
		const tmp = () => join(ws.root, "tmp");
		const scope = () => `pi-bridge-${process.pid}-${ws.root.split("-").at(-1)}`;
		const context = () => pluginContext(ws);

		async function setup(): Promise<{ nvim: RealNeovim; rpc: RpcPi; plugin: PluginClient }> {
			const nvim = await RealNeovim.start({
				cwd: ws.project,
				args: ["src/main.ts"],
				tmpDir: tmp(),
				ui: true,
				scope: scope(),
			});
			ws.defer(() => nvim.close());
			// The plugin is loaded before pi registers its commands there.
			await nvim.lua('package.loaded["pi-bridge"] = { stub = true } return true');
			const rpc = bridgePi(ws, line, { TMPDIR: tmp(), XDG_RUNTIME_DIR: "", NVIM: "", PI_IDE_TEST_PROC_SCOPE: scope() });
			await waitFor(
				"pi's commands in Neovim",
				async () => ((await nvim.lua("return vim.fn.exists(':Pi')")) as number) === 2,
				PI_START_TIMEOUT_MS,
			);
			const socket = bridgeSocket(ws);
			// The file is there a moment before pi listens on it: connected once it answers.
			const plugin = await waitFor(
				"pi-bridge's socket answering",
				() => (existsSync(socket) ? PluginClient.connect(socket).catch(() => undefined) : undefined),
				PI_START_TIMEOUT_MS,
			);
			return { nvim, rpc, plugin };
		}

		/** Nothing of pi's shows in Neovim for a while: polled, so a float that came and went is seen too. */
		async function neverShown(nvim: RealNeovim, text: string, forMs = 1500): Promise<void> {
			const until = Date.now() + forMs;
			while (Date.now() < until) {
				expect(nvim.screen()).not.toContain(text);
				expect(await nvim.lua(FLOATS_LUA)).toBe(0);
				await new Promise((done) => setTimeout(done, 50));
			}
		}

		test.skipIf(!line.node)(
			"a question of a turn the plugin and :Pi both asked goes to the plugin only, never also in pi's float",
			async () => {
				const { nvim, rpc, plugin } = await setup();
				plugin.prompt("guard gamma", context());
				const first = await plugin.waitFor("ui_prompt_request");
				expect(String(first.title)).toContain("Allow gamma?");
				// `:Pi` in the same Neovim while the run waits: steered into it, the run is now theirs both.
				await nvim.keys(":Pi guard delta<CR>", "n");
				await waitFor(
					"Neovim's ask steered in",
					async () => (await rpc.ideStatus()).join("\n").includes("(2 asked, 2 sent"),
					10_000,
				);
				plugin.answer(first.id, { value: "Yes" });
				const second = await plugin.waitFor("ui_prompt_request", 2);
				expect(String(second.title)).toContain("Allow delta?");
				await neverShown(nvim, "Allow delta?");
				plugin.answer(second.id, { value: "No" });
				await plugin.waitFor("agent_end");
				const told = ws.server.requests.flatMap((request) =>
					request.messages.map((message) => JSON.stringify(message)),
				);
				expect(told.some((text) => text.includes("allowed gamma"))).toBe(true);
				expect(told.some((text) => text.includes("denied delta"))).toBe(true);
			},
		);

		test.skipIf(!line.node)(
			"review on: the plugin's turn's write goes out as approval_request only (the diff in Neovim, no float, no ui_prompt_request)",
			async () => {
				const { nvim, rpc, plugin } = await setup();
				await rpc.command({ type: "prompt", message: "/ide review on" });
				await rpc.waitForWidget("in main.ts, review on", PI_START_TIMEOUT_MS);
				plugin.prompt("write src/reviewed.txt", context());
				const asked = await plugin.waitFor("approval_request");
				expect(asked).toMatchObject({ tool: "write", path: join(ws.project, "src", "reviewed.txt") });
				await waitFor(
					"the proposal in Neovim",
					async () =>
						(await nvim.lua(
							"for _, b in ipairs(vim.api.nvim_list_bufs()) do if vim.api.nvim_buf_get_name(b):match('%(proposed%)$') then return true end end return false",
						)) === true,
					10_000,
				);
				expect(await nvim.lua(FLOATS_LUA)).toBe(0);
				plugin.decide("yes");
				await plugin.waitFor("agent_end");
				expect(readFileSync(join(ws.project, "src", "reviewed.txt"), "utf8")).toBe("from the model\n");
				expect(plugin.of("ui_prompt_request")).toEqual([]);
				expect(plugin.of("approval_resolved")).toHaveLength(1);
				expect(existsSync(join(ws.project, "src", "reviewed.txt"))).toBe(true);
			},
		);
	},
);
