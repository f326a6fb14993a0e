/**
 * Discovery through the real pi, without `PI_IDE_STATE_DIR`: pi has an `XDG_RUNTIME_DIR`, the editor writes
 * to `/tmp/pi-ide` as a client without one does. `/tmp` and `/run/user` stand in a temp dir of the test
 * (`PI_IDE_TEST_FS_ROOT`), so two test runs never share the machine's own `/tmp/pi-ide`.
 */
import { spawn } from "node:child_process";
import { chmodSync, mkdirSync, rmSync, utimesSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { useE2eWorkspace } from "../support/e2e-workspace.ts";
import { FakeEditor, StateFileWriter } from "../support/fake-editor.ts";
import { messageText } from "../support/fake-model-server.ts";
import { projectState } from "../support/fixtures.ts";
import { processFactsLines } from "../support/pi-cli.ts";
import { testProcessFacts } from "../support/process-facts.ts";
import { RpcPi } from "../support/rpc-pi.ts";
import { waitFor } from "../support/wait-for.ts";

const uid = process.getuid?.() ?? 0;

describe.each(processFactsLines())("discovery through the real $name CLI (RPC)", (line) => {
	const ws = useE2eWorkspace();

	test.skipIf(!line.node)(
		"an editor in /tmp/pi-ide while pi has XDG_RUNTIME_DIR: found within 3 s; untrusted side dirs, reused pids and a vanished dir are told apart in /ide status",
		async () => {
			const fsRoot = join(ws.root, "fs");
			const xdg = join(ws.root, "xdg");
			const tmpSide = join(fsRoot, "tmp", "pi-ide");
			const runUserSide = join(fsRoot, "run", "user", String(uid), "pi-ide");
			mkdirSync(join(fsRoot, "tmp"), { recursive: true });
			// Someone else's (here: world-writable) /run/user/<uid>/pi-ide: never read, no pop-up.
			mkdirSync(runUserSide, { recursive: true, mode: 0o700 });
			const planted = FakeEditor.spawn(runUserSide);
			planted.write(projectState(ws.project, { buffer: { name: "planted.ts" } }));
			chmodSync(runUserSide, 0o777);
			mkdirSync(xdg, { mode: 0o700 });
			const rpc = ws.stopLater(
				RpcPi.start(line, {
					cwd: ws.project,
					agentDir: ws.agentDir,
					stateDir: null,
					env: { XDG_RUNTIME_DIR: xdg, PI_IDE_TEST_FS_ROOT: fsRoot, TMPDIR: "/var/tmp" },
				}),
			);
			try {
				const first = await rpc.ideStatus();
				expect(first).toContain(
					`Environment: XDG_RUNTIME_DIR=${xdg}, TMPDIR=/var/tmp, uid ${uid}, PI_IDE_STATE_DIR not set`,
				);
				expect(first).toContain(`State dir ${xdg}/pi-ide (the protocol's dir): trusted, 0 state files`);
				expect(first).toContain(
					`State dir ${runUserSide} (side dir, read but never created): NOT trusted: ${runUserSide} has mode 0777; run: chmod 700 ${runUserSide}`,
				);
				expect(first).toContain(
					`State dir ${tmpSide} (side dir, read but never created): not there; looked for every 2 s`,
				);
				expect(rpc.notices().filter((n) => n.startsWith("pi-ide:"))).toEqual([]);

				// A client with no XDG_RUNTIME_DIR starts after pi and writes the literal /tmp/pi-ide.
				mkdirSync(tmpSide, { mode: 0o700 });
				const nvim = ws.editor();
				const writer = new StateFileWriter(tmpSide, nvim.pid);
				writer.write(projectState(ws.project));
				await waitFor("connected through /tmp/pi-ide", () => rpc.lastWidget() === "in main.ts", 3000);
				await rpc.prompt("which file?");
				expect(ws.server.requests.at(-1)?.messages.map(messageText).join("\n")).toContain(
					`File: ${ws.project}/src/main.ts`,
				);

				// A file left by an editor killed long ago, whose pid another process holds now.
				const stranger = spawn("sleep", ["60"], { stdio: "ignore" });
				const strangerPid = stranger.pid as number;
				const started = await waitFor("start time", () => testProcessFacts().startOf(strangerPid));
				const left = new StateFileWriter(tmpSide, strangerPid);
				left.write(projectState(ws.project, { buffer: { name: "left.ts" } }));
				utimesSync(left.file, new Date((started - 600) * 1000), new Date((started - 600) * 1000));
				const second = await waitFor("the reused pid in status", async () => {
					const lines = await rpc.ideStatus();
					return lines.some((l) => l.includes(`${strangerPid}.json: dead`)) ? lines : undefined;
				});
				stranger.kill("SIGKILL");
				expect(second).toContain(
					`  ${strangerPid}.json: dead: pid ${strangerPid} now belongs to a process started after this file was written`,
				);
				expect(second).toContain(`State dir ${tmpSide} (side dir, read but never created): trusted, 2 state files`);
				const events = second.slice(second.indexOf("Recent events:") + 1).map((l) => l.trim().slice(9));
				expect(events).toContain(`${tmpSide} appeared; reading it`);
				expect(events).toContain(
					`connected to nvim ${nvim.pid}: auto-connected: the only live editor in tier 0 (cwd equals the project)`,
				);

				// The dir goes away (a tmp cleaner, a reboot of the user session): dropped, looked for again.
				rmSync(tmpSide, { recursive: true });
				await waitFor("widget cleared", () => rpc.lastWidget() === "(cleared)", 3000);
				const third = await waitFor("the dir looked for again", async () => {
					const lines = await rpc.ideStatus();
					return lines.includes(
						`State dir ${tmpSide} (side dir, read but never created): not there; looked for every 2 s`,
					)
						? lines
						: undefined;
				});
				const later = third.slice(third.indexOf("Recent events:") + 1).map((l) => l.trim().slice(9));
				expect(later).toContain(`disconnected from nvim ${nvim.pid}: file removed (editor quit)`);
				expect(later).toContain(`${tmpSide} disappeared; looking for it again`);
			} finally {
				await planted.kill();
			}
		},
	);
});
