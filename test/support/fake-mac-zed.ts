import { type ChildProcess, spawn } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, symlinkSync } from "node:fs";
import { dirname, join } from "node:path";
import type { FakeZed } from "./fake-zed.ts";

/**
 * A Mac's Zed processes as pi sees them, beside a `FakeZed` whose database is where a Mac keeps it: each a copy
 * of `sleep` at the path a Mac runs it from (`<Applications>/Zed.app/Contents/MacOS/zed`: its kernel name is
 * `zed`), with that fixture's environment (its test scope) and a `HOME` of the test's.
 */
export class FakeMacZedApps {
	private readonly apps: ChildProcess[] = [];

	constructor(
		/** The test's own `/Applications`. */
		readonly applications: string,
		private readonly zed: FakeZed,
		private readonly home: string,
	) {}

	/** `<Applications>/<bundle>.app/Contents/MacOS/<binary>`. */
	binaryPath(bundle: string, binary: "zed" | "cli"): string {
		return join(this.applications, `${bundle}.app`, "Contents", "MacOS", binary);
	}

	/**
	 * Runs a bundle's binary, or runs it through `link`, a symlink to it (as `/usr/local/bin/zed` is to
	 * `Contents/MacOS/cli`: the process is named after the link, its binary is the bundle's). Its pid.
	 */
	start(bundle: string, binary: "zed" | "cli", link?: string): number {
		const path = this.binaryPath(bundle, binary);
		if (!existsSync(path)) {
			mkdirSync(dirname(path), { recursive: true });
			copyFileSync("/bin/sleep", path);
		}
		if (link && !existsSync(link)) {
			mkdirSync(dirname(link), { recursive: true });
			symlinkSync(path, link);
		}
		const app = spawn(link ?? path, ["3600"], {
			stdio: "ignore",
			env: { PATH: process.env.PATH, ...this.zed.environment(this.home) },
		});
		this.apps.push(app);
		return app.pid as number;
	}

	close(): void {
		for (const app of this.apps.splice(0)) app.kill("SIGKILL");
	}
}
