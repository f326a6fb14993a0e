import { join } from "node:path";

/** Who reads a lock dir: Claude Code's (`~/.claude/ide`) or the pi-ide peer's (`~/.pi/ide`, its own header). */
export type LockDirKind = "claude" | "pi";

export interface LockDirPlan {
	path: string;
	kind: LockDirKind;
	/** What put it on the list, for `/ide status`. */
	why: string;
}

export interface LockDirEnv {
	CLAUDE_CONFIG_DIR?: string;
	PI_IDE_LOCK_DIR?: string;
}

/**
 * Where IDE servers describe themselves: `$CLAUDE_CONFIG_DIR/ide` when set and `~/.claude/ide` always (most
 * writers ignore the variable, §1), and `$PI_IDE_LOCK_DIR` or `~/.pi/ide` (pi-ide's). `home` is the test's
 * root in tests: the developer's own lockfiles are never read there.
 */
export function lockDirPlan(env: LockDirEnv, home: string): LockDirPlan[] {
	const plans: LockDirPlan[] = [];
	const add = (path: string, kind: LockDirKind, why: string) => {
		if (!plans.some((plan) => plan.path === path)) plans.push({ path, kind, why });
	};
	const configDir = env.CLAUDE_CONFIG_DIR?.startsWith("/") ? env.CLAUDE_CONFIG_DIR : undefined;
	if (configDir !== undefined) add(join(configDir, "ide"), "claude", "$CLAUDE_CONFIG_DIR/ide");
	add(join(home, ".claude", "ide"), "claude", "~/.claude/ide");
	const piDir = env.PI_IDE_LOCK_DIR?.startsWith("/") ? env.PI_IDE_LOCK_DIR : undefined;
	add(piDir ?? join(home, ".pi", "ide"), "pi", piDir ? "$PI_IDE_LOCK_DIR" : "~/.pi/ide");
	return plans;
}

/** The token's headers: Claude Code's always; pi-ide's own as well for a lockfile in its dir (§6). */
export function authHeaders(kind: LockDirKind, token: string | undefined): Record<string, string> {
	if (token === undefined) return {};
	return {
		"x-claude-code-ide-authorization": token,
		...(kind === "pi" && { "x-pi-ide-authorization": token }),
	};
}
