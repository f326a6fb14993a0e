import { createHash } from "node:crypto";
import { describe, expect, test } from "vitest";
import { BRIDGE_SOCKETS_DIR, bridgeSocketPath } from "../../../src/pi-bridge/core/socket-path.ts";

/** macOS's `sockaddr_un.sun_path`: 104 bytes, the terminating NUL included. */
const MACOS_SUN_PATH_BYTES = 104;

describe("the socket's path (pi-bridge.nvim hashes getcwd() the same way)", () => {
	test("$HOME/.pi/agent/pi-bridge/sockets/<first 16 hex of sha256(cwd)>.sock", () => {
		const cwd = "/home/ada/src/project";
		const hash = createHash("sha256").update("/home/ada/src/project").digest("hex");
		expect(bridgeSocketPath("/home/ada", cwd)).toBe(`/home/ada/.pi/agent/pi-bridge/sockets/${hash.slice(0, 16)}.sock`);
		expect(BRIDGE_SOCKETS_DIR.join("/")).toBe(".pi/agent/pi-bridge/sockets");
	});

	test("a known value, from `printf %s /home/ada/src/project | sha256sum`", () => {
		expect(bridgeSocketPath("/home/ada", "/home/ada/src/project")).toBe(
			"/home/ada/.pi/agent/pi-bridge/sockets/ea713a49a70a7f7c.sock",
		);
	});

	test.each([
		["a trailing slash", "/home/ada/src/project/"],
		["a symlinked spelling (macOS /var → /private/var)", "/private/home/ada/src/project"],
		["a doubled slash", "/home/ada//src/project"],
		["another case", "/home/ada/src/Project"],
	])("%s is another directory to the plugin: another path", (_name, spelling) => {
		const home = "/home/ada";
		expect(bridgeSocketPath(home, spelling)).not.toBe(bridgeSocketPath(home, "/home/ada/src/project"));
	});

	test("the same spelling always gives the same path, whatever the home", () => {
		const a = bridgeSocketPath("/home/ada", "/srv/x");
		const b = bridgeSocketPath("/Users/ada", "/srv/x");
		expect(a.slice(a.lastIndexOf("/"))).toBe(b.slice(b.lastIndexOf("/")));
		expect(bridgeSocketPath("/home/ada", "/srv/x")).toBe(a);
	});

	test("a non-ASCII directory is hashed as its UTF-8 bytes", () => {
		const cwd = "/home/zoë/projets/café";
		const hash = createHash("sha256").update(Buffer.from(cwd, "utf8")).digest("hex").slice(0, 16);
		expect(bridgeSocketPath("/home/zoë", cwd).endsWith(`/${hash}.sock`)).toBe(true);
	});

	test.each([
		["a typical macOS home", "/Users/alexandra.richardson-smith"],
		["a typical Linux home", "/home/alexandra.richardson-smith"],
	])("the path fits macOS's 104-byte sun_path for %s (a deep project makes no difference)", (_name, home) => {
		const path = bridgeSocketPath(home, `${home}/work/clients/acme/monorepo/packages/very-long-package-name/src`);
		// The NUL terminator needs one more byte.
		expect(Buffer.byteLength(path, "utf8") + 1).toBeLessThanOrEqual(MACOS_SUN_PATH_BYTES);
		expect(path).toMatch(/\/[0-9a-f]{16}\.sock$/);
	});
});
