export type PortTrust = { ok: true } | { ok: false; reason: string };

/** A listener on a port as either backend tells it (`/proc/net/tcp{,6}`, `lsof -iTCP`). */
export interface PortListener {
	loopback: boolean;
	uid: number;
}

/**
 * Whether a lockfile's port may be spoken to: it listens on loopback for a socket of this user, and no socket of
 * another user listens on it as well (a second bind on another address). Nothing listening: a stale file.
 */
export function checkPortListeners(port: number, listeners: readonly PortListener[], uid: number): PortTrust {
	if (listeners.length === 0) return { ok: false, reason: `nothing listens on port ${port} (a stale lockfile)` };
	const stranger = listeners.find((listener) => listener.uid !== uid);
	if (stranger) return { ok: false, reason: `port ${port} is listened on by uid ${stranger.uid}` };
	if (!listeners.some((listener) => listener.loopback))
		return { ok: false, reason: `port ${port} listens on no loopback address` };
	return { ok: true };
}
