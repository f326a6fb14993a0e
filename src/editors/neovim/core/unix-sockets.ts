/**
 * The address of the Neovim whose terminal (or job) pi runs in: `$NVIM` since 0.7, `$NVIM_LISTEN_ADDRESS`
 * before. Only a unix socket path counts (a TCP address is never used).
 */
export function enclosingNeovimAddress(env: { NVIM?: string; NVIM_LISTEN_ADDRESS?: string }): string | undefined {
	const address = env.NVIM || env.NVIM_LISTEN_ADDRESS;
	return address?.startsWith("/") ? address : undefined;
}

/**
 * Names Neovim gives what it creates for its server (./runtime-dirs.ts): its temp dirs `nvimXXXXXX` (0.7 and
 * older), `nvim.<user>` and `nvim.XXXXXX` (0.8+), and the socket `<appname>.<pid>.<n>` (0.8+), whose appname is
 * `nvim`, or from 0.9 `$NVIM_APPNAME` (any name, its slashes made `-`).
 */
export function isNeovimServerName(name: string): boolean {
	return name.startsWith("nvim") || /^[^/]+\.\d+\.\d+$/.test(name);
}
