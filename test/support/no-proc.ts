import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/**
 * A test device, no hook in the product: pi run in a mount namespace of its own whose `/proc` is an empty
 * tmpfs, with `ps` and `lsof` bound over by wrappers that run the real ones back in the test's namespace
 * (`nsenter --mount` through the test process's namespace file in the real procfs, bound aside before `/proc`
 * was covered). pi sees no
 * process in `/proc` and must ask `ps` and `lsof`, as on a Mac. Needs root (mounts) and util-linux.
 */
export interface NoProcWrapper {
	/** The command prefix pi runs under (`PiSpawnOptions.wrapper`). */
	wrapper: string[];
	/** Runs `command` as pi would see the system (for the test's own checks of the namespace). */
	inside: (command: string[]) => string;
}

/** Why the device cannot be built here, or undefined. */
export function noProcSkipReason(): string | undefined {
	if ((process.getuid?.() ?? -1) !== 0) return "the test runs pi in a mount namespace of its own: needs root";
	for (const tool of ["unshare", "nsenter", "mount", "ps", "lsof"])
		if (spawnSync("sh", ["-c", `command -v ${tool}`]).status !== 0) return `${tool} is not installed`;
	return undefined;
}

export function noProcWrapper(dir: string): NoProcWrapper {
	mkdirSync(dir, { recursive: true });
	// The real procfs, bound where pi never looks before /proc is covered: the wrappers' way back to the
	// test's namespace (a namespace file of an older namespace cannot be bound into a newer one).
	const realProc = join(dir, "real-proc");
	mkdirSync(realProc, { recursive: true, mode: 0o700 });
	const hostMnt = join(realProc, String(process.pid), "ns", "mnt");
	const script = (path: string, text: string) => {
		writeFileSync(path, text);
		chmodSync(path, 0o755);
		return path;
	};
	for (const tool of ["ps", "lsof"]) {
		const real = spawnSync("sh", ["-c", `command -v ${tool}`], { encoding: "utf8" }).stdout.trim();
		script(join(dir, tool), `#!/bin/sh\nexec nsenter --mount="${hostMnt}" -- "${real}" "$@"\n`);
	}
	const enter = script(
		join(dir, "enter"),
		[
			"#!/bin/sh",
			"set -e",
			`mount --bind /proc "${realProc}"`,
			`for tool in ps lsof; do mount --bind "${dir}/$tool" "$(command -v $tool)"; done`,
			"mount -t tmpfs -o size=64k,mode=0555 none /proc",
			'exec "$@"',
			"",
		].join("\n"),
	);
	const wrapper = ["unshare", "--mount", "--propagation", "private", "/bin/sh", enter];
	const inside = (command: string[]) => {
		const [head, ...rest] = [...wrapper, ...command];
		const result = spawnSync(head as string, rest, { encoding: "utf8" });
		if (result.status !== 0) throw new Error(`${command.join(" ")} in the namespace: ${result.stderr}`);
		return result.stdout;
	};
	return { wrapper, inside };
}
