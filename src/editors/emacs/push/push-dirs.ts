import { chmod, lstat, readdir, rm } from "node:fs/promises";
import { connect, createServer, type Server } from "node:net";
import { join } from "node:path";
import { sameStart } from "../../processes/core/backend-choice.ts";

/*
 * pi's push socket's place: a dir of pi's own (0700) under a parent only this user may use, the dirs a pi killed
 * with -9 left removed, and the socket bound there (0600). push-listener.ts listens on it.
 */

/**
 * A push dir's name: `pi-ide-emacs-<pi's pid>-<its start ticks>-` and mkdtemp's six characters. A pi killed
 * with -9 leaves its dir; the next pi to open one removes it, once that pid runs no process started then.
 */
export const PUSH_DIR_PREFIX = "pi-ide-emacs-";
const PUSH_DIR_NAME = /^pi-ide-emacs-([1-9]\d{0,9})-(\d{1,20})-[A-Za-z0-9]{6}$/;

/** When the process on a pid started, if it runs (the process facts' `startOf`). */
export type StartOf = (pid: number) => Promise<number | undefined>;

/**
 * The push dirs in `parent` that a pi gone left (killed with -9: its close never ran): named as pi names them,
 * a dir itself (never a link followed), of `uid`, 0700, its pi's pid running no process started when it says
 * (whole unix seconds, alike from `/proc` and `ps`),
 * and nothing listening on its socket (a pi in another pid namespace that shares the dir still does). Never
 * throws: what cannot be read or removed stays.
 */
export async function removeLeftDirs(parent: string, uid: number, startOf: StartOf): Promise<void> {
	const names = await readdir(parent).catch(() => [] as string[]);
	for (const name of names) {
		const match = PUSH_DIR_NAME.exec(name);
		if (!match) continue;
		const started = await startOf(Number(match[1]));
		if (started !== undefined && sameStart(started, Number(match[2]))) continue;
		const dir = join(parent, name);
		const facts = await lstat(dir).catch(() => undefined);
		if (!facts?.isDirectory() || facts.uid !== uid || (facts.mode & 0o777) !== 0o700) continue;
		if (await listening(join(dir, "push"))) continue;
		await rm(dir, { recursive: true, force: true }).catch(() => {});
	}
}

/** Whether something accepts connections on that socket: a dead pi's socket file refuses them. */
function listening(socketPath: string): Promise<boolean> {
	return new Promise((settle) => {
		const socket = connect(socketPath);
		socket.once("connect", () => {
			socket.destroy();
			settle(true);
		});
		socket.once("error", (error: NodeJS.ErrnoException) =>
			settle(error.code !== "ECONNREFUSED" && error.code !== "ENOENT" && error.code !== "ENOTSOCK"),
		);
	});
}

export async function ownPrivateDir(path: string | undefined, uid: number): Promise<boolean> {
	if (!path?.startsWith("/")) return false;
	try {
		const stat = await lstat(path);
		return stat.isDirectory() && stat.uid === uid && (stat.mode & 0o077) === 0;
	} catch {
		return false;
	}
}

export function listen(socketPath: string): Promise<Server | string> {
	return new Promise((resolve) => {
		const server = createServer();
		server.once("error", (error) => resolve(`cannot listen on ${socketPath}: ${error.message}`));
		server.listen(socketPath, () => {
			server.unref();
			chmod(socketPath, 0o600).then(
				() => resolve(server),
				(error: Error) => {
					server.close();
					resolve(`cannot make ${socketPath} private: ${error.message}`);
				},
			);
		});
	});
}
