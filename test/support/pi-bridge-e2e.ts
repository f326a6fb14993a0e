import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { E2eWorkspace } from "./e2e-workspace.ts";
import { pluginSocketPath } from "./pi-bridge-client.ts";
import type { PiLine } from "./pi-cli.ts";
import { questionPi } from "./question-e2e.ts";
import type { RpcPi } from "./rpc-pi.ts";

/** The home of the pi under test: the plugin's socket goes under it, never under the machine's. */
export const bridgeHome = (ws: E2eWorkspace) => join(ws.root, "home");

/** Where the plugin looks for the pi of this workspace's project. */
export const bridgeSocket = (ws: E2eWorkspace) => pluginSocketPath(bridgeHome(ws), ws.project);

/** A prompt's context as the plugin sends it from the project's src/main.ts, saved. */
export const pluginContext = (ws: E2eWorkspace, more: Record<string, unknown> = {}) => ({
	file: join(ws.project, "src", "main.ts"),
	cwd: ws.project,
	mode: "normal",
	filetype: "typescript",
	buffer_state: "saved",
	...more,
});

/** The real pi in RPC mode on the workspace, its home a temp dir, with the question model and test extension. */
export function bridgePi(ws: E2eWorkspace, line: PiLine, env: Record<string, string> = {}): RpcPi {
	mkdirSync(bridgeHome(ws), { recursive: true });
	return questionPi(ws, line, { HOME: bridgeHome(ws), ...env });
}
