/**
 * The paths more than one listening socket was bound to: after an unlink a second server may bind the same
 * path, and the file there is then the second one's (`/proc/net/unix` keeps each socket's name). Paths are
 * compared as named but with one slash: an older Emacs's `…/T//emacs501` is `…/T/emacs501`. Each holder is
 * one listener (`/proc`: a socket's inode; `lsof`: a pid, since a Mac shows a listener's path on every socket
 * it accepted, all in that one process).
 */
export function pathsBoundTwice(bindings: Iterable<readonly [holder: number, path: string]>): Set<string> {
	const holders = new Map<string, Set<number>>();
	const named: string[] = [];
	for (const [holder, path] of bindings) {
		const key = path.replace(/\/{2,}/g, "/");
		holders.set(key, (holders.get(key) ?? new Set()).add(holder));
		named.push(path);
	}
	return new Set(named.filter((path) => (holders.get(path.replace(/\/{2,}/g, "/"))?.size ?? 0) > 1));
}
