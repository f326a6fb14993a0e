import { stateDirPlan } from "../../../../src/editors/state-dir/core/dir-plan.ts";

/**
 * Where this client writes: the first dir of pi's own plan (`PI_IDE_STATE_DIR`, else `$XDG_RUNTIME_DIR/pi-ide`,
 * else the literal `/tmp/pi-ide`, never `TMPDIR`); pi's side dirs are for reading only.
 */
export function stateDirOf(env: { PI_IDE_STATE_DIR?: string; XDG_RUNTIME_DIR?: string }): string {
	return (stateDirPlan(env, 0, false)[0] as { path: string }).path;
}
