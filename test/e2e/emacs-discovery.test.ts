/**
 * Which Emacsen the real pi finds, reads, offers and connects to: another project's (listed, not connected), an
 * impostor socket (never spoken to), one with no server (named, with the line that starts it), `"emacs": false`,
 * a daemon without and with an `emacsclient -t` frame, and the Emacs pi itself runs in (`M-x shell`).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { useE2eWorkspace } from "../support/e2e-workspace.ts";
import { EmacsE2e, evalOk, piLeftovers } from "../support/emacs-e2e.ts";
import { FAKE_MODEL, FAKE_PROVIDER, PACKAGE_ROOT, processFactsLines } from "../support/pi-cli.ts";
import { RealEmacs, requireEmacs } from "../support/real-emacs.ts";
import { PI_START_TIMEOUT_MS, waitFor } from "../support/wait-for.ts";

const available = requireEmacs("the Emacs discovery end-to-end tests");
const quote = (arg: string) => `'${arg.replaceAll("'", "'\\''")}'`;

describe.skipIf(!available).each(processFactsLines())("which Emacs, through the real $name (RPC)", (line) => {
	const ws = useE2eWorkspace();
	const e2e = new EmacsE2e(ws, line, "emacs-which");
	const main = () => join(ws.project, "src", "main.ts");
	const statusOf = async (rpc: ReturnType<typeof e2e.startPi>) => (await rpc.ideStatus()).join("\n");

	test.skipIf(!line.node)(
		"another project's Emacs is listed by /ide all, not connected; an impostor socket in the server dir is never spoken to",
		async () => {
			const elsewhere = join(ws.root, "elsewhere");
			mkdirSync(elsewhere);
			writeFileSync(join(elsewhere, "notes.ts"), "notes\n");
			const emacs = await e2e.emacs({ cwd: elsewhere, files: ["notes.ts"] });
			let impostorConnections = 0;
			const listen = async (path: string) => {
				const impostor = createServer((socket) => {
					impostorConnections++;
					socket.destroy();
				});
				await new Promise<void>((done) => impostor.listen(path, done));
				ws.defer(() => new Promise<void>((done) => impostor.close(() => done())));
			};
			// One there before pi starts, one appearing while it watches (the dir event makes it look again).
			await listen(join(e2e.runtimeDir, "emacs", "server"));
			const rpc = e2e.startPi();
			const status = await waitFor(
				"the other project's Emacs in /ide status",
				async () => {
					const lines = await statusOf(rpc);
					return lines.includes(`emacs ${emacs.pid}: ${emacs.socket}`) && lines;
				},
				PI_START_TIMEOUT_MS,
			);
			expect(status).toContain("Connected: no\n");
			expect(status).toContain("no tier");
			expect(status).toContain("pushes: off (read on /ide)");
			await listen(join(e2e.runtimeDir, "emacs", "server2"));
			rpc.send({ type: "prompt", message: "/ide all" });
			const request = await waitFor("the /ide all picker", () => rpc.uiRequests("select")[0]);
			const options = request.options as string[];
			expect(
				options.some((option) => option.startsWith(`emacs ${emacs.pid}`)),
				options.join("\n"),
			).toBe(true);
			rpc.respond(String(request.id), { cancelled: true });
			await rpc.command({ type: "prompt", message: "/ide" });
			await statusOf(rpc);
			expect(impostorConnections).toBe(0);
		},
	);

	test.skipIf(!line.node)(
		'"emacs": false reads no Emacs and installs nothing; an Emacs with no server is named with the line that starts it, and found once it does',
		async () => {
			const emacs = await e2e.emacs();
			mkdirSync(join(ws.project, ".pi"), { recursive: true });
			const settings = join(ws.project, ".pi", "settings.json");
			writeFileSync(settings, JSON.stringify({ "pi-ide": { emacs: false } }));
			const off = e2e.startPi();
			const status = await waitFor("status", () => statusOf(off), PI_START_TIMEOUT_MS);
			expect(status).toContain(`Emacs: off ("emacs": false in ${settings})`);
			expect(off.lastWidget() ?? "(cleared)").toBe("(cleared)");
			expect(await piLeftovers(emacs)).toEqual([]);
			await off.stop();
			writeFileSync(settings, "{}");
			emacs.close();

			const serverless = await e2e.emacs({ server: false });
			const rpc = e2e.startPi();
			const named = await waitFor(
				"the Emacs with no server named",
				async () => {
					const lines = await statusOf(rpc);
					return lines.includes(`emacs ${serverless.pid}: no server`) && lines;
				},
				PI_START_TIMEOUT_MS,
			);
			expect(named).toContain(
				`emacs ${serverless.pid}: no server: M-x server-start, or (server-start) in the init file`,
			);
			expect(named).toContain("Connected: no\n");
			// The user starts it: its socket appears in the watched server dir, and pi connects on its own.
			serverless.keys("M-x");
			serverless.keys("-l", "server-start");
			serverless.keys("Enter");
			await rpc.waitForWidget("in main.ts", 5000);
			expect(await statusOf(rpc)).toContain(`Connected: emacs ${serverless.pid}`);
		},
	);

	test.skipIf(!line.node)(
		"a daemon without a frame is listed, not offered; an emacsclient -t frame makes it offered and connected, closing it undoes that",
		async () => {
			const daemon = await RealEmacs.startDaemon({ cwd: ws.project, runtimeDir: e2e.runtimeDir, scope: e2e.scope });
			ws.defer(() => daemon.close());
			const rpc = e2e.startPi();
			const listed = await waitFor(
				"the daemon listed",
				async () => {
					const lines = await statusOf(rpc);
					return lines.includes(`emacs ${daemon.pid}`) && lines;
				},
				PI_START_TIMEOUT_MS,
			);
			expect(listed).toContain("Connected: no\n");
			expect(listed).toMatch(new RegExp(`emacs ${daemon.pid}[\\s\\S]*no frame a user sees: listed, not offered`));
			expect(rpc.lastWidget() ?? "(cleared)").toBe("(cleared)");
			rpc.send({ type: "prompt", message: "/ide all" });
			await waitFor(
				"/ide all answered",
				() => rpc.uiRequests("select")[0] ?? rpc.notices().find((n) => /editor/i.test(n)),
			);
			const picker = rpc.uiRequests("select")[0];
			if (picker) {
				expect((picker.options as string[]).some((option) => option.startsWith(`emacs ${daemon.pid}`))).toBe(false);
				rpc.respond(String(picker.id), { cancelled: true });
			}

			daemon.clientFrame([main()]);
			await waitFor("the client frame", async () => (await evalOk(daemon, "(length (frame-list))")) === "2");
			// pi's elisp in the daemon tells pi of the new frame: offered, and the only one in tier 0, connected.
			await rpc.waitForWidget("in main.ts", 5000);
			const selects = rpc.uiRequests("select").length;
			rpc.send({ type: "prompt", message: "/ide all" });
			const offered = await waitFor("the /ide all picker", () => rpc.uiRequests("select")[selects]);
			expect((offered.options as string[]).some((option) => option.includes(`emacs ${daemon.pid}`))).toBe(true);
			rpc.respond(String(offered.id), { cancelled: true });
			const status = await statusOf(rpc);
			expect(status).toContain(`Connected: emacs ${daemon.pid}`);
			expect(status).toContain("(Emacs 28.2, a daemon)");
			expect(status).toContain("1 frame(s)");
			// Its last client frame closed (C-x C-c in emacsclient): no longer offered, the widget clears.
			daemon.keys("C-x", "C-c");
			await rpc.waitForWidget("(cleared)", 5000);
			expect(await statusOf(rpc)).toMatch(new RegExp(`emacs ${daemon.pid}[\\s\\S]*no frame a user sees`));
		},
	);

	test.skipIf(!line.node)(
		"pi started in M-x shell of an Emacs in another dir: that Emacs is the editor meant, over the project's own",
		async () => {
			const elsewhere = join(ws.root, "elsewhere");
			mkdirSync(elsewhere);
			writeFileSync(join(elsewhere, "notes.ts"), "notes\n");
			const inProject = await e2e.emacs();
			const enclosing = await e2e.emacs({ cwd: elsewhere, files: ["notes.ts"] });
			// pi in the shell's buffer beside notes.ts: comint sets INSIDE_EMACS, and the Emacs is pi's ancestor.
			// Print mode: its one prompt carries the block, and the shell's own terminal needs no driver.
			const out = join(ws.root, "pi-in-shell");
			const env: Record<string, string> = {
				...e2e.env(),
				PI_CODING_AGENT_DIR: ws.agentDir,
				PI_IDE_STATE_DIR: ws.stateDir,
				PI_SKIP_VERSION_CHECK: "1",
				PI_OFFLINE: "1",
			};
			// The shell's own INSIDE_EMACS (comint's) stands: the test's empty one is left out.
			const { INSIDE_EMACS: _, ...passed } = env;
			const command = [
				"cd",
				quote(ws.project),
				"&&",
				"env",
				...Object.entries(passed).map(([key, value]) => quote(`${key}=${value}`)),
				...[line.node as string, line.cli, "--provider", FAKE_PROVIDER, "--model", FAKE_MODEL, "--no-session"].map(
					quote,
				),
				...["-e", PACKAGE_ROOT, ...line.extraArgs, "-p", "which file?"].map(quote),
				// The code lands whole: a redirection creates its file before echo writes to it.
				`>${quote(`${out}.out`)} 2>${quote(`${out}.err`)}; echo $? >${quote(`${out}.part`)}; mv ${quote(`${out}.part`)} ${quote(`${out}.code`)}`,
			].join(" ");
			// bash without the machine's rc files (a slow rc is not what is tested), in a window of its own.
			await evalOk(
				enclosing,
				`(progn
  (require 'shell)
  (setq explicit-shell-file-name "/bin/bash" explicit-bash-args '("--noediting" "--norc" "--noprofile" "-i"))
  (select-window (split-window))
  (shell)
  t)`,
			);
			enclosing.keys("-l", command);
			enclosing.keys("Enter");
			await waitFor("pi in the shell done", () => existsSync(`${out}.code`), PI_START_TIMEOUT_MS);
			expect(readFileSync(`${out}.code`, "utf8").trim(), readFileSync(`${out}.err`, "utf8")).toBe("0");
			expect(readFileSync(`${out}.out`, "utf8")).toBe("ok\n");
			const sent = ws.lastContext();
			expect(sent).toContain("App: emacs");
			expect(sent).toContain(`File: ${join(elsewhere, "notes.ts")}`);
			expect(sent).not.toContain(main());
			expect(inProject.pid).not.toBe(enclosing.pid);
		},
	);
});
