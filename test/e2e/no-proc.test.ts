/**
 * pi with no `/proc` at all, as on a Mac: the real pi 0.73 in a mount namespace whose `/proc` is an empty tmpfs
 * (test/support/no-proc.ts; `ps` and `lsof` there are wrappers that run the real ones in the test's namespace).
 * Nothing tells pi which backend to use: it finds it cannot see itself in `/proc` and asks `ps` and `lsof`.
 * A real Neovim and a fake IDE server (its port held by this test's process) are found, proven and read.
 */
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { useE2eWorkspace } from "../support/e2e-workspace.ts";
import { idePiEnv, lockfileListed, startIdeServer, waitForNotice } from "../support/ide-server-e2e.ts";
import { noProcSkipReason, noProcWrapper } from "../support/no-proc.ts";
import { type PiLine, piLines } from "../support/pi-cli.ts";
import { RealNeovim, requireNeovim } from "../support/real-neovim.ts";
import { RpcPi } from "../support/rpc-pi.ts";
import { PI_START_TIMEOUT_MS, waitFor } from "../support/wait-for.ts";

const [pi073] = piLines() as [PiLine];
const neovim = requireNeovim("the test without /proc");
const noProc = noProcSkipReason();
if (noProc !== undefined) {
	// CI never skips it: the ps backend with /proc unreadable is what a Mac runs.
	if (process.env.CI === "true") throw new Error(`CI=true and the test without /proc cannot run: ${noProc}`);
	process.stderr.write(`the test without /proc skipped: ${noProc}\n`);
}
const skipReason = noProc ?? (neovim ? undefined : "no Neovim");

describe.skipIf(skipReason !== undefined)("the real pi 0.73 with no /proc: ps and lsof answer", () => {
	const ws = useE2eWorkspace();

	test("its /proc is empty; Neovim found and read, an IDE server's port proven by lsof, /ide status says how", async () => {
		const device = noProcWrapper(join(ws.root, "no-proc"));
		expect(device.inside(["sh", "-c", "ls -A /proc | wc -l"]).trim()).toBe("0");
		// The wrappers reach the real tools: this test's own process, listed by a ps started inside.
		expect(device.inside(["ps", "-o", "pid=", "-p", String(process.pid)]).trim()).toBe(String(process.pid));

		const env = idePiEnv(ws);
		const nvim = await RealNeovim.start({
			cwd: ws.project,
			args: ["src/main.ts"],
			tmpDir: env.TMPDIR as string,
			ui: true,
			scope: env.PI_IDE_TEST_PROC_SCOPE as string,
		});
		ws.defer(() => nvim.close());
		const rpc = ws.stopLater(
			RpcPi.start(pi073, {
				cwd: ws.project,
				agentDir: ws.agentDir,
				stateDir: ws.stateDir,
				env: { ...env, NVIM: "" },
				wrapper: device.wrapper,
			}),
		);

		// Neovim: found in ps's listing, its socket among its own fds by lsof, connected on its own.
		await rpc.waitForWidget("in main.ts", PI_START_TIMEOUT_MS);
		await nvim.keys("2GVj", "V");
		await rpc.waitForWidget("2 lines selected in main.ts", 5000);
		await rpc.prompt("what is selected?");
		expect(ws.lastContext()).toContain(`File: ${join(ws.project, "src", "main.ts")}`);
		expect(ws.lastContext()).toContain("Selection: lines 2-3");

		// An IDE server appears: its port's owner (this test's process) proven by lsof before the token is sent.
		const fake = await startIdeServer(ws, "vscode");
		const listed = await lockfileListed(rpc, fake, PI_START_TIMEOUT_MS);
		expect(listed).toContain(`${fake.lockfilePath} (Visual Studio Code): pid ${process.pid} holds port ${fake.port}`);
		expect(listed).toMatch(/^Processes: ps \+ lsof \d+\.\d+[\d.]* \(\/proc cannot be read\); last scan \d+ ms$/m);
		expect(listed).toContain(`nvim ${nvim.pid}: ${nvim.socket}`);
		rpc.send({ type: "prompt", message: "/ide" });
		const picker = await waitFor("the /ide picker", () => rpc.uiRequests("select")[0], 10_000);
		const row = (picker.options as string[]).find((option) => option.includes("(IDE server: connects when picked)"));
		expect(row).toBeDefined();
		rpc.respond(String(picker.id), { value: row });
		await waitForNotice(rpc, `pi-ide: connected to Visual Studio Code ${process.pid}  ${ws.project}`, 1, 10_000);
		await waitFor("the server's handshake", () => fake.upgrades.length > 0);

		// Neovim quits: its connection's close is the signal, with no /proc to look in.
		await nvim.command("qa!").catch(() => {});
		await waitFor("Neovim gone from /ide status", async () =>
			(await rpc.ideStatus()).includes(
				"Neovim: 0 found over their own servers (found at start, on /ide, and when a server appears in a runtime dir)",
			),
		);
	}, 120_000);
});
