/**
 * Emacs's rows: real Emacsen (Debian's 28.2 here, `emacs -nw -Q`) in tmux with their servers, read by the real
 * pi (RPC, on the machine's Node). Each setup has a /proc scope and a runtime dir of its own: the machine's
 * Emacsen, and the other setups of a row run side by side, stay out.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { E2eWorkspace } from "../support/e2e-workspace.ts";
import { evalText, pushesReceived } from "../support/emacs-e2e.ts";
import { type PiLine, piLines } from "../support/pi-cli.ts";
import { emacsOnPath, RealEmacs } from "../support/real-emacs.ts";
import { RpcPi } from "../support/rpc-pi.ts";
import { waitFor } from "../support/wait-for.ts";
import { cpuWindows, seededRandom, widgetLatency } from "./rpc-scenarios.ts";

const PI073 = piLines()[0] as PiLine;
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));
let setups = 0;

/** Why the Emacs rows cannot be measured here, or undefined when they can. */
export function emacsSkipReason(): string | undefined {
	return emacsOnPath().skipReason;
}

/** One Emacs in the project on main.ts (`lines` lines), and a pi 0.73 (RPC) on the project; all stopped after `work`. */
async function withEmacs<T>(
	settings: object | undefined,
	work: (emacs: RealEmacs, pi: RpcPi, ws: E2eWorkspace) => Promise<T>,
	lineCount = 80,
): Promise<T> {
	const ws = await E2eWorkspace.create();
	const scope = `pi-ide-bench-emacs-${process.pid}-${++setups}`;
	const runtimeDir = join(ws.root, "run");
	const lines = Array.from({ length: lineCount }, (_, i) => `line ${i + 1}`).join("\n");
	writeFileSync(join(ws.project, "src", "main.ts"), `${lines}\n`);
	let emacs: RealEmacs | undefined;
	let pi: RpcPi | undefined;
	try {
		emacs = await RealEmacs.start({ cwd: ws.project, runtimeDir, scope, files: ["src/main.ts"] });
		if (settings) {
			mkdirSync(join(ws.project, ".pi"), { recursive: true });
			writeFileSync(join(ws.project, ".pi", "settings.json"), JSON.stringify(settings));
		}
		mkdirSync(join(ws.root, "tmp"), { recursive: true });
		pi = RpcPi.start(PI073, {
			cwd: ws.project,
			agentDir: ws.agentDir,
			stateDir: ws.stateDir,
			env: {
				TMPDIR: join(ws.root, "tmp"),
				XDG_RUNTIME_DIR: runtimeDir,
				INSIDE_EMACS: "",
				NVIM: "",
				PI_IDE_TEST_PROC_SCOPE: scope,
			},
		});
		return await work(emacs, pi, ws);
	} finally {
		await pi?.stop();
		emacs?.close();
		await ws.cleanup();
	}
}

/**
 * E1. A key typed in Emacs (tmux send-keys through one control-mode client: no process started per key) to
 * pi's widget showing what it did: the region grows by one line per `C-n`, `keys` keys 100-250 ms apart.
 */
export async function emacsKeyToWidget(keys: number): Promise<number[]> {
	return withEmacs(undefined, async (emacs, pi) => {
		await waitFor("connected to Emacs", () => pi.lastWidget() === "in main.ts", 30_000);
		const typed = emacs.keyPipe();
		try {
			const random = seededRandom(13);
			const latencies: number[] = [];
			while (latencies.length < keys) {
				// A quit drops keys typed ahead of it: the region's reset waits for Emacs before the mark is set.
				typed.send("C-g");
				await sleep(100);
				typed.send("M-<", "C-Space");
				await sleep(100);
				for (let lines = 1; lines <= 60 && latencies.length < keys; lines++) {
					await sleep(100 + random() * 150);
					// The region ends at the start of line lines+1: it ends on line `lines` (column 1 ends the line before).
					const expected = `${lines} ${lines === 1 ? "line" : "lines"} selected in main.ts`;
					latencies.push(await widgetLatency(pi, expected, () => typed.send("C-n")));
				}
			}
			return latencies;
		} finally {
			typed.close();
		}
	});
}

/**
 * E2. What one push costs inside Emacs: pi's own push function (the timer's: the snapshot computed, encoded,
 * compared with the last sent, sent over pi's socket), timed in Emacs with `float-time` around each call, the
 * cursor moved between calls so that every state differs and is sent. The calls run from a timer 20 ms apart,
 * Emacs idle between them: pi's one-byte acknowledgements are read, the send window stays open. With `edit`
 * (a 100 000-line file) the cursor stays at the end and a character is typed there before each call instead:
 * the push after an edit, where the buffer's lines would be counted again.
 */
export async function emacsPushCost(
	runs: number,
	file: { lines: number; edit: boolean } = { lines: 80, edit: false },
): Promise<{ ms: number[]; sent: number }> {
	const move = file.edit
		? '(goto-char (point-max)) (insert "x")'
		: "(goto-char (point-min))\n              (forward-line (% left 70))";
	return withEmacs(
		undefined,
		async (emacs, pi) => {
			await waitFor("connected to Emacs", () => pi.lastWidget() === "in main.ts", 30_000);
			const before = await pushesReceived(pi);
			await evalText(
				emacs,
				`(let ((push nil))
  (mapatoms (lambda (symbol)
              (when (and (fboundp symbol) (string-match-p "\\\\\`pi-ide-[0-9]+-[0-9]+-push\\\\'" (symbol-name symbol)))
                (setq push symbol))))
  (setq bench-push-times nil)
  (fset 'bench-push-step
        (let ((left ${runs}) (window (selected-window)))
          (lambda ()
            (with-current-buffer (window-buffer window)
              ${move}
              (set-window-point window (point)))
            (let ((started (float-time)))
              (funcall push)
              (push (* 1000 (- (float-time) started)) bench-push-times))
            (setq left (1- left))
            (when (> left 0) (run-with-timer 0.02 nil 'bench-push-step)))))
  (run-with-timer 0.02 nil 'bench-push-step)
  push)`,
			);
			await waitFor(
				"every timed push",
				async () => Number(await evalText(emacs, "(length bench-push-times)")) >= runs,
				runs * 200 + 10_000,
				100,
			);
			const ms = JSON.parse(await evalText(emacs, "(json-encode (reverse bench-push-times))")) as number[];
			await waitFor("the pushes received", async () => (await pushesReceived(pi)) >= before + runs, 10_000, 100);
			return { ms, sent: (await pushesReceived(pi)) - before };
		},
		file.lines,
	);
}

/**
 * E3. CPU time of the pi process in each of `windows` windows of `seconds`, an idle Emacs in the project
 * connected and pushing (`read`), or the same with `"emacs": false`. The Emacs's own CPU beside it.
 */
export async function emacsIdleCpu(
	seconds: number,
	windows: number,
	read: boolean,
): Promise<{ pi: number[]; emacs: number[] }> {
	return withEmacs(read ? undefined : { "pi-ide": { emacs: false } }, async (emacs, pi) => {
		await pi.command({ type: "get_state" }, 30_000);
		if (read) await waitFor("connected to Emacs", () => pi.lastWidget() === "in main.ts", 30_000);
		await sleep(10_000);
		const [piCpu, emacsCpu] = await Promise.all([
			cpuWindows(pi.pid, seconds, windows),
			cpuWindows(emacs.pid, seconds, windows),
		]);
		return { pi: piCpu, emacs: emacsCpu };
	});
}
