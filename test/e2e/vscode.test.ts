/**
 * The VS Code client this package ships, in a real VS Code (code-server 4.139.1: VS Code 1.139.1's workbench
 * and extension host) driven by Debian's chromium, read by the real pi 1.x: installed by `/ide install vscode`
 * through a `code` on pi's PATH that is code-server's CLI, then followed as the user opens, selects and types.
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { VSCODE_CLIENT_VERSION } from "../../src/editors/core/clients.ts";
import { E2eWorkspace } from "../support/e2e-workspace.ts";
import { writerModel } from "../support/fake-model-server.ts";
import { type PiLine, piLines } from "../support/pi-cli.ts";
import type { RpcPi } from "../support/rpc-pi.ts";
import { vscodeHost, vscodeSuiteSkipReason } from "../support/vscode-host.ts";
import { VscodeSession } from "../support/vscode-session.ts";
import { waitFor } from "../support/wait-for.ts";

const pi1 = piLines()[1] as PiLine;
const host = vscodeHost();
const skipReason = vscodeSuiteSkipReason("the VS Code tests", pi1.node ? undefined : pi1.skipReason);

const GREETING = 'export const a = 1;\nconst grüß = "héllo 🌍";\nexport {};\n';

describe.skipIf(skipReason !== undefined)(
	"VS Code: the shipped client in a real VS Code, read by the real pi 1.x",
	() => {
		let ws: E2eWorkspace;
		let vscode: VscodeSession;
		let rpc: RpcPi;

		const lastContext = () => ws.lastContext();
		const written = () => vscode.written();

		beforeAll(async () => {
			ws = await E2eWorkspace.create();
			writeFileSync(join(ws.project, "src", "greet.ts"), GREETING);
			writeFileSync(join(ws.project, "src", "typed.ts"), 'export const n: number = "not a number";\n');
			writeFileSync(join(ws.project, "src", "other.ts"), "export const other = 1;\n");
			vscode = await VscodeSession.start(ws, pi1, host as Required<Omit<typeof host, "skipReason">>);
			rpc = vscode.rpc;
		}, 300_000);

		afterAll(async () => {
			await vscode?.stop();
			await ws?.cleanup();
		});

		test("/ide install vscode installed the packed client through the code on pi's PATH", () => {
			expect(vscode.installReport).toMatch(
				/^VS Code client \(pi-ide-context\.vscode-client\):\n {2}code \(.*\/bin\/code\): installed\n/,
			);
			expect(readdirSync(vscode.extensionsDir)).toContain(`pi-ide-context.vscode-client-${VSCODE_CLIENT_VERSION}`);
		});

		test("open, select, a multibyte line: the widget follows and the model gets lines and byte columns", async () => {
			await vscode.open("main.ts");
			await rpc.waitForWidget("in main.ts", 30_000);
			expect(written()).toMatchObject({
				app: "vscode",
				argv: [ws.project],
				client: `pi-ide-context-vscode/${VSCODE_CLIENT_VERSION}`,
			});
			await vscode.goToLine(2);
			await vscode.page.keyboard.press("Shift+ArrowDown");
			await vscode.page.keyboard.press("Shift+ArrowDown");
			await rpc.waitForWidget("2 lines selected in main.ts", 10_000);
			await rpc.prompt("what is selected?");
			expect(lastContext()).toContain("App: vscode");
			expect(lastContext()).toContain(`File: ${join(ws.project, "src", "main.ts")}`);
			expect(lastContext()).toContain("Selection: lines 2-3 (from line 2 column 1 to line 3 column 5)");
			expect(lastContext()).toContain("line2\nline3");

			await vscode.open("greet.ts");
			await vscode.goToLine(2);
			await vscode.page.keyboard.press("Home");
			await vscode.page.keyboard.press("Shift+End");
			await rpc.waitForWidget("1 line selected in greet.ts", 10_000);
			await rpc.prompt("and now?");
			// 'const grüß = "héllo 🌍";': ü, ß, é take 2 bytes, 🌍 4; the closing ; starts at byte 29.
			expect(lastContext()).toContain("Selection: line 2 (from line 2 column 1 to line 2 column 29)");
			expect(lastContext()).toContain('const grüß = "héllo 🌍";');
		}, 120_000);

		test("a TypeScript type error reaches the model as the Diagnostics section", async () => {
			await vscode.open("typed.ts");
			await waitFor("the type error written", () => (written()?.active_buffer?.diagnostics?.length ?? 0) > 0, 60_000);
			await rpc.waitForWidget("in typed.ts", 10_000);
			await rpc.prompt("anything wrong here?");
			expect(lastContext()).toContain(
				"Diagnostics: 1 error, 0 warnings\n- line 1: error: Type 'string' is not assignable to type 'number'. [ts]",
			);
		}, 120_000);

		test("unsaved edits in two files: the model's writes to both are blocked", async () => {
			for (const name of ["other.ts", "main.ts"]) {
				await vscode.open(name);
				await vscode.page.keyboard.press("Control+End");
				await vscode.page.keyboard.type("// typed, not saved\n");
			}
			await waitFor("both unsaved, as written", () => written()?.unsaved_files?.length === 2, 10_000);
			for (const name of ["src/other.ts", "src/main.ts"]) {
				const before = readFileSync(join(ws.project, name), "utf8");
				ws.server.reply = writerModel(name);
				await rpc.prompt(`write ${name}`);
				expect(readFileSync(join(ws.project, name), "utf8")).toBe(before);
				expect(rpc.notices().at(-1)).toContain("blocked the model's write of");
			}
		}, 120_000);
	},
);
