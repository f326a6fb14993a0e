/**
 * Which unix sockets listen, from Linux's `/proc/net/unix` (`Num RefCount Protocol Flags Type St Inode Path`):
 * a listening socket has the `__SO_ACCEPTCON` flag (`00010000`) and state `01`. Abstract sockets (`@name`) and
 * unnamed ones have no path to connect to and are left out.
 */
export function listeningSockets(table: string): Map<number, string> {
	const byInode = new Map<number, string>();
	for (const line of table.split("\n").slice(1)) {
		const fields = line.trim().split(/\s+/);
		if (fields.length < 8) continue;
		const [, , , flags, , st, inode] = fields;
		// The path is the rest of the line: a path may hold spaces.
		const path = line.trim().split(/\s+/).slice(7).join(" ");
		if (flags !== "00010000" || st !== "01" || !path.startsWith("/")) continue;
		const number = Number(inode);
		if (Number.isSafeInteger(number) && number > 0) byInode.set(number, path);
	}
	return byInode;
}

/** The inode of a `/proc/<pid>/fd/*` link that is a socket (`socket:[57581]`). */
export function socketInode(link: string): number | undefined {
	const match = /^socket:\[(\d+)\]$/.exec(link);
	return match ? Number(match[1]) : undefined;
}

/**
 * The address of the Neovim whose terminal (or job) pi runs in: `$NVIM` since 0.7, `$NVIM_LISTEN_ADDRESS`
 * before. Only a unix socket path counts (a TCP address is never used).
 */
export function enclosingNeovimAddress(env: { NVIM?: string; NVIM_LISTEN_ADDRESS?: string }): string | undefined {
	const address = env.NVIM || env.NVIM_LISTEN_ADDRESS;
	return address?.startsWith("/") ? address : undefined;
}

/** Names Neovim gives what it creates for its server: `nvimXXXXXX` dirs (0.7, 0.8), `nvim.<pid>.0` (0.9+). */
export const isNeovimServerName = (name: string) => name.startsWith("nvim");
