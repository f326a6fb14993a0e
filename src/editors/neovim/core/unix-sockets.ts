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
