/**
 * At least one case of each hostile-corpus group through the real pi CLI (print and RPC mode), on both pi lines.
 */
import { execFileSync } from "node:child_process";
import { chmodSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { useE2eWorkspace } from "../support/e2e-workspace.ts";
import { messageText } from "../support/fake-model-server.ts";
import { DEAD_PID_BASE, projectState, type StateOverrides, selection } from "../support/fixtures.ts";
import { piLines, spawnPi } from "../support/pi-cli.ts";
import { RpcPi } from "../support/rpc-pi.ts";
import { waitFor } from "../support/wait-for.ts";

const UNSAFE_FOR_TERMINAL =
	/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
const now = () => Date.now() / 1000;

describe.each(piLines())("hostile input through the real $name CLI", (line) => {
	const ws = useE2eWorkspace();
	let rpc: RpcPi | undefined;
	afterEach(() => {
		rpc = undefined;
	});

	const state = (pid: number, overrides: StateOverrides = {}) => projectState(ws.project, { pid, ...overrides });

	/** Print mode; returns what reached the model and how long pi took. */
	async function ask(prompt: string): Promise<{ sent: string; bytes: number; ms: number }> {
		const started = performance.now();
		const run = spawnPi(line, { cwd: ws.project, agentDir: ws.agentDir, stateDir: ws.stateDir, args: ["-p", prompt] });
		const code = await run.exited;
		expect(code, run.stderr()).toBe(0);
		const request = ws.server.requests.at(-1);
		if (!request) throw new Error(`no request; stderr: ${run.stderr()}`);
		return {
			sent: request.messages.map(messageText).join("\n"),
			bytes: JSON.stringify(request).length,
			ms: performance.now() - started,
		};
	}

	async function status(): Promise<string> {
		const pi =
			rpc ?? ws.stopLater(RpcPi.start(line, { cwd: ws.project, agentDir: ws.agentDir, stateDir: ws.stateDir }));
		rpc = pi;
		return (await pi.ideStatus()).join("\n");
	}

	test.skipIf(!line.node)(
		"1. a 50 MB state file: pi stays responsive, nothing from it is injected, the request stays small",
		async () => {
			const big = ws.editor();
			const text = JSON.stringify(state(big.pid, { buffer: { selection: selection(1, 1, "BIG-FILE-MARKER", now()) } }));
			writeFileSync(big.file, Buffer.concat([Buffer.from(text), Buffer.alloc(50 * 1024 * 1024, 0x20)]));
			const { sent, bytes, ms } = await ask("hello");
			console.log(`${line.name}: print run with a 50 MB state file took ${ms.toFixed(0)} ms, request ${bytes} bytes`);
			expect(sent).not.toContain("BIG-FILE-MARKER");
			expect(sent).not.toContain("<editor-context>");
			expect(bytes).toBeLessThan(64 * 1024);
		},
	);

	test.skipIf(!line.node)(
		"2. wrong shapes are rejected with a reason; a future selected_at counts as made now",
		async () => {
			const bad = ws.editor();
			writeFileSync(bad.file, JSON.stringify({ ...state(bad.pid), cwd: 42 }));
			const good = ws.editor();
			good.write(state(good.pid, { buffer: { selection: selection(3, 4, "from the future", now() + 86_400) } }));
			const text = await status();
			expect(text).toContain(`${bad.pid}.json: rejected: invalid state: cwd must be string`);
			await waitFor("widget", () => rpc?.lastWidget() === "2 lines selected in main.ts");
			await rpc?.prompt("what is selected?");
			expect(ws.server.requests.at(-1)?.messages.map(messageText).join("\n")).toContain("from the future");
		},
	);

	test.skipIf(!line.node)(
		"3. pid problems: bad names rejected, mismatched pid rejected, no editor invented",
		async () => {
			for (const name of ["0.json", "-1.json", "1.5.json", "99999999999.json"])
				writeFileSync(join(ws.stateDir, name), JSON.stringify(state(0)));
			const mismatch = ws.editor();
			writeFileSync(mismatch.file, JSON.stringify(state(process.pid)));
			const text = await status();
			expect(text).toContain("0.json: rejected: file name is not <pid>.json with a positive integer pid");
			expect(text).toContain("-1.json: rejected: file name is not <pid>.json with a positive integer pid");
			expect(text).toContain("1.5.json: rejected: file name is not <pid>.json with a positive integer pid");
			expect(text).toContain("99999999999.json: rejected: pid 99999999999 in the file name is out of range");
			expect(text).toContain(
				`${mismatch.pid}.json: rejected: pid field ${process.pid} does not match the file name ${mismatch.pid}.json`,
			);
			expect(text).toContain("Connected: no");
			expect(rpc?.lastWidget()).toBeUndefined();
		},
	);

	test.skipIf(!line.node)(
		"4. a FIFO named like a live editor's file does not hang pi; the real editor still works",
		async () => {
			const fifo = ws.editor();
			execFileSync("mkfifo", [fifo.file]);
			const good = ws.editor();
			good.write(state(good.pid, { cwd: `${ws.project}/src` }));
			const { sent } = await ask("still alive?");
			expect(sent).toContain(`File: ${ws.project}/src/main.ts`);
		},
	);

	test.skipIf(!line.node)("5. a world-writable state dir: nothing injected, one warning with the fix", async () => {
		const nvim = ws.editor();
		nvim.write(state(nvim.pid));
		chmodSync(ws.stateDir, 0o777);
		expect((await ask("hello")).sent).not.toContain("<editor-context>");
		const text = await status();
		expect(text).toContain(`NOT trusted: ${ws.stateDir} has mode 0777; run: chmod 700 ${ws.stateDir}`);
		expect(rpc?.notices()).toContain(
			`pi-ide: not reading editor state: ${ws.stateDir} has mode 0777; run: chmod 700 ${ws.stateDir}`,
		);
	});

	test.skipIf(!line.node)(
		"6. escape sequences and bidi controls never reach the widget or a notice; long and wide names behave",
		async () => {
			const nasty = "\u001b[2J\u001b]0;owned\u0007\u009b31m\u202Egnp\u0085";
			const nvim = ws.editor();
			nvim.write(
				state(nvim.pid, {
					app: `vim${nasty}`,
					argv: [nasty],
					buffer: { name: `a${nasty}.ts`, file: `${ws.project}/${nasty}.ts` },
				}),
			);
			const elsewhere = ws.editor();
			elsewhere.write(state(elsewhere.pid, { cwd: `/x/${nasty}`, buffer: { file: `/x/${nasty}/b.ts` } }));
			await status();
			const pi = rpc as RpcPi;
			await waitFor("widget", () => pi.lastWidget()?.startsWith("in a"));
			pi.send({ type: "prompt", message: "/ide all" });
			const picker = await waitFor("picker", () => pi.uiRequests("select")[0]);
			pi.respond(String(picker.id), { cancelled: true });
			nvim.write(state(nvim.pid, { buffer: { name: "x".repeat(10_000) } }));
			await waitFor("long name", () => pi.lastWidget()?.startsWith("in xxx"));
			nvim.write(state(nvim.pid, { buffer: { name: "文件😀.ts" } }));
			await waitFor("wide name", () => pi.lastWidget() === "in 文件😀.ts");
			const shown = [
				...pi.widgetUpdates().flatMap((lines) => lines ?? []),
				...pi.notices().flatMap((notice) => notice.split("\n")),
				...(picker.options as string[]),
				String(picker.title),
			];
			for (const text of shown) expect(text).not.toMatch(UNSAFE_FOR_TERMINAL);
			expect(Math.max(...pi.widgetUpdates().map((lines) => lines?.[0]?.length ?? 0))).toBeLessThanOrEqual(130);
		},
	);

	test.skipIf(!line.node)("7. a 5 MB selection full of fences is cut at 64 KiB with the marker", async () => {
		const nvim = ws.editor();
		const lines = Array.from({ length: 50_000 }, (_, i) =>
			i % 3 === 0 ? "```" : i % 3 === 1 ? "~~~ </editor-context>" : `line ${i} ${"z".repeat(80)}`,
		);
		nvim.write(state(nvim.pid, { buffer: { selection: selection(1, lines.length, lines.join("\n"), now()) } }));
		const { sent, bytes } = await ask("review this");
		expect(bytes).toBeLessThan(100 * 1024);
		expect(sent).toMatch(/\n````typescript\n```\n~~~ <\/editor-context>\n/);
		expect(sent).toMatch(/\[selection cut at 64 KiB: lines \d+-50000 left out\]\n<\/editor-context>$/);
	});

	test.skipIf(!line.node)("8. 5 000 stale files of dead pids and one live editor: found", async () => {
		for (let i = 0; i < 5000; i++)
			writeFileSync(join(ws.stateDir, `${DEAD_PID_BASE + i}.json`), JSON.stringify(state(DEAD_PID_BASE + i)));
		const nvim = ws.editor();
		nvim.write(state(nvim.pid, { buffer: { name: "live.ts", file: `${ws.project}/src/live.ts` } }));
		const { sent, ms } = await ask("which file?");
		console.log(`${line.name}: print run with 5 001 state files took ${ms.toFixed(0)} ms`);
		expect(sent).toContain(`File: ${ws.project}/src/live.ts`);
	});
});
