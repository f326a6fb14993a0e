/**
 * A real Neovim 0.7.2 that pi reads over Neovim's own server, with a pi-ide.nvim-like server in that Neovim's
 * process (a `vim.loop` relay to the fake IDE server of the test, its lockfile in `~/.pi/ide` naming Neovim's
 * pid, as pi-ide.nvim's server lives in Neovim): one editor, Neovim's, and its plugin's `getSuggestions`
 * reach pi over a connection kept only to be asked, and are answered with the model's text. Both pi lines.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { useE2eWorkspace } from "../support/e2e-workspace.ts";
import { writeIdeLockfile } from "../support/fake-ide-lockfile.ts";
import { FakeIdeServer } from "../support/fake-ide-server.ts";
import { lockRoot } from "../support/ide-server-e2e.ts";
import { startNeovimRelay } from "../support/neovim-relay.ts";
import { FAKE_MODEL, type PiLine, piLines } from "../support/pi-cli.ts";
import { RealNeovim, requireNeovim } from "../support/real-neovim.ts";
import { RpcPi } from "../support/rpc-pi.ts";
import { ask, suggestingModel, suggestionAsk } from "../support/suggestion-e2e.ts";
import { PI_START_TIMEOUT_MS, waitFor } from "../support/wait-for.ts";

const available = requireNeovim("the suggestions test with a real Neovim");

describe.skipIf(!available).each(piLines())(
	"a pi-ide.nvim-like server in a real Neovim, the real $name",
	(line: PiLine) => {
		const ws = useE2eWorkspace();

		test.skipIf(!line.node)(
			"Neovim read over its own server is the one editor; its plugin's server asks and pi answers",
			async () => {
				const scope = `suggestions-nvim-${process.pid}-${ws.root.split("-").at(-1)}`;
				const tmp = join(ws.root, "tmp");
				mkdirSync(tmp, { recursive: true });
				const nvim = await RealNeovim.start({ cwd: ws.project, args: ["src/main.ts"], tmpDir: tmp, ui: true, scope });
				ws.defer(() => nvim.close());
				// The plugin's protocol spoken by the fake, behind a port Neovim's own process holds.
				const fake = await FakeIdeServer.start({
					flavour: "pi-ide-nvim",
					lockDir: join(ws.root, "unused-lock-dir"),
					workspaceFolders: [ws.project],
					writeLockfile: false,
				});
				ws.defer(() => fake.stop());
				const relayPort = await startNeovimRelay(nvim, fake.port);
				writeIdeLockfile(join(lockRoot(ws), ".pi", "ide"), relayPort, {
					pid: nvim.pid,
					workspaceFolders: [ws.project],
					ideName: "Neovim",
					token: fake.token,
					runningInWindows: false,
				});
				ws.server.reply = suggestingModel;
				const rpc = ws.stopLater(
					RpcPi.start(line, {
						cwd: ws.project,
						agentDir: ws.agentDir,
						stateDir: ws.stateDir,
						env: {
							TMPDIR: tmp,
							XDG_RUNTIME_DIR: "",
							NVIM: "",
							PI_IDE_TEST_PROC_SCOPE: scope,
							PI_IDE_TEST_LOCK_ROOT: lockRoot(ws),
							CLAUDE_CONFIG_DIR: "",
							PI_IDE_LOCK_DIR: "",
						},
					}),
				);
				await rpc.waitForWidget("in main.ts", PI_START_TIMEOUT_MS);
				const status = await waitFor(
					"the plugin's server asked over a connection of its own",
					async () => {
						const text = (await rpc.ideStatus()).join("\n");
						return text.includes("its requests answered over a connection of their own") ? text : undefined;
					},
					PI_START_TIMEOUT_MS,
				);
				expect(status).toContain(`Connected: nvim ${nvim.pid}`);
				expect(status).toContain(
					`${relayPort}.lock (Neovim): not used: the same editor as Neovim's own server; its requests answered over a connection of their own`,
				);
				expect(fake.openClients).toBe(1);

				const answered = await ask(fake, suggestionAsk(ws));
				expect(answered.suggestions).toEqual([`42 /* ${FAKE_MODEL} */`]);
				// No state and no review taken from the plugin's server: only the handshake was asked of it.
				const methods = fake.received.map((each) => (each.message as { method?: string }).method).filter(Boolean);
				expect(methods).toEqual(["initialize", "notifications/initialized", "tools/list", "ide_connected"]);
			},
			120_000,
		);
	},
);
