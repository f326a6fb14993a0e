import { createHash } from "node:crypto";
import { join } from "node:path";

/** Where pi-bridge.nvim looks for a pi: under the user's home, one socket per working directory. */
export const BRIDGE_SOCKETS_DIR = [".pi", "agent", "pi-bridge", "sockets"] as const;

/**
 * `$HOME/.pi/agent/pi-bridge/sockets/<h>.sock`, `<h>` the first 16 hex characters of SHA-256 of the working
 * directory exactly as spelled: the plugin hashes Neovim's `getcwd()` the same way (a symlinked spelling is
 * another socket). 16: a longer name overflows macOS's 104-byte `sun_path`.
 */
export function bridgeSocketPath(home: string, cwd: string): string {
	const hash = createHash("sha256").update(cwd, "utf8").digest("hex").slice(0, 16);
	return join(home, ...BRIDGE_SOCKETS_DIR, `${hash}.sock`);
}
