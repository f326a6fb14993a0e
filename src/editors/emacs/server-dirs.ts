import { resourceCount } from "../../shared/process-memory.ts";
import { DirWatchers } from "../dir-watch.ts";

/**
 * The dirs an Emacs's server socket appears in (core/server-sockets.ts), watched: any entry made or removed there
 * is news (`server-name` may be anything), and neither dir exists before the first `server-start`, so each is
 * waited for through its nearest parent (DirWatch). What they miss (an absolute `server-name` elsewhere) is
 * found on `/ide`.
 */
export function serverDirWatchers(appeared: () => void): DirWatchers {
	// A socket is made (bind) or removed (`server-force-delete`, exit): a write to an entry is no server.
	return new DirWatchers((_name, event) => event === "rename", {
		changed: appeared,
		counted: (delta) => {
			resourceCount().emacsWatches += delta;
		},
	});
}
