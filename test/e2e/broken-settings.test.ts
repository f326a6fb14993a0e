import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { useE2eWorkspace } from "../support/e2e-workspace.ts";
import { piLines } from "../support/pi-cli.ts";
import { RpcPi } from "../support/rpc-pi.ts";
import { PI_START_TIMEOUT_MS, waitFor } from "../support/wait-for.ts";

/**
 * A broken global settings file, through the real CLI: pi names the parse error itself (stderr), pi-ide adds
 * one warning saying that none of its settings there apply and what is in effect, and `/ide status` says where.
 */
describe.each(piLines())("a broken settings file in the real $name", (line) => {
	const ws = useE2eWorkspace();

	test.skipIf(!line.node)("is named once by pi-ide, without repeating pi's own error", async () => {
		const global = join(ws.agentDir, "settings.json");
		writeFileSync(global, '{ "quietStartup": true, "pi-ide": { "secretFiles": ["*.pem"] "context": "explicit" } }');
		const rpc = ws.stopLater(RpcPi.start(line, { cwd: ws.project, agentDir: ws.agentDir, stateDir: ws.stateDir }));
		const warning = await waitFor(
			"pi-ide's warning",
			() => rpc.notices().find((notice) => notice.includes("none of its settings in")),
			PI_START_TIMEOUT_MS,
		);
		expect(warning).toBe(
			`pi-ide: none of its settings in ${global} apply (pi names the error); in effect: context auto, auto-connect on, Zed read, Neovim read, Emacs read, credential redaction on, unsaved-buffer guard on, only the default secret-file patterns`,
		);
		// pi's own line names the same file (0.73 by scope, 1.x by path) and the parse error pi-ide leaves out.
		await waitFor("pi's own warning", () => /Warning: .*global settings|Invalid settings file/.test(rpc.stderr()));
		expect(rpc.stderr()).toMatch(/after property value in JSON at position 61/);
		const status = (await rpc.ideStatus()).join("\n");
		expect(status).toContain(`Settings file ${global}: not used: not valid JSON: Expected ',' or '}' after`);
		expect(status).toContain("at line 1, column 62; none of its pi-ide settings apply");
		expect(status).toContain("Context: auto (default)");
		expect(rpc.notices().filter((notice) => notice.includes("none of its settings in"))).toHaveLength(1);
	});
});
