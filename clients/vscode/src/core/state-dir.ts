/**
 * Where this client writes, as PROTOCOL.md says: `PI_IDE_STATE_DIR`, else `$XDG_RUNTIME_DIR/pi-ide`, else
 * the literal `/tmp/pi-ide` (never `TMPDIR`).
 */
export function stateDirOf(env: { PI_IDE_STATE_DIR?: string; XDG_RUNTIME_DIR?: string }): string {
	if (env.PI_IDE_STATE_DIR) return env.PI_IDE_STATE_DIR;
	if (env.XDG_RUNTIME_DIR) return `${env.XDG_RUNTIME_DIR.replace(/\/+$/, "")}/pi-ide`;
	return "/tmp/pi-ide";
}
