import { randomBytes, randomUUID } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { IdeFlavour } from "./ide-server-flavours.ts";

/** What a fake IDE server's lockfile says (reference §1), besides the port in its name. */
export interface IdeLockfileFields {
	/** null: the field is left out. */
	pid: number | null;
	workspaceFolders: string[];
	ideName: string;
	/** undefined: no `authToken`, as claude-code-ide.el. */
	token: string | undefined;
	/** Write `runningInWindows: false` (VS Code and JetBrains do; nvim and the Emacs packages omit it). */
	runningInWindows: boolean;
}

/** A token as each editor makes one (reference §1 `authToken`); claude-code-ide.el writes none. */
export function defaultIdeToken(flavour: IdeFlavour): string | undefined {
	if (flavour === "claude-code-ide-el") return undefined;
	if (flavour === "claudecode-nvim") return randomBytes(16).toString("hex");
	// Reported second-hand for JetBrains, so a plain UUID would do too; the length differs, which a client must not mind.
	if (flavour === "jetbrains") return randomBytes(64).toString("base64url");
	return randomUUID();
}

/**
 * Writes `<lockDir>/<port>.lock` 0644, creating the directory 0700 when missing (the caller may chmod either);
 * the field order is VS Code's. Returns the file's path.
 */
export function writeIdeLockfile(lockDir: string, port: number, fields: IdeLockfileFields): string {
	if (!existsSync(lockDir)) mkdirSync(lockDir, { recursive: true, mode: 0o700 });
	const path = join(lockDir, `${port}.lock`);
	const json = {
		...(fields.pid !== null && { pid: fields.pid }),
		workspaceFolders: fields.workspaceFolders,
		ideName: fields.ideName,
		transport: "ws",
		...(fields.runningInWindows && { runningInWindows: false }),
		...(fields.token !== undefined && { authToken: fields.token }),
	};
	writeFileSync(path, JSON.stringify(json));
	// The umask may have narrowed the mode, and a rewrite keeps whatever the file had.
	chmodSync(path, 0o644);
	return path;
}

/** One server's lockfile: its fields, written (again) on demand, removed if written. */
export class IdeLockfile {
	private written: string | undefined;

	constructor(
		private readonly lockDir: string,
		private readonly port: number,
		private current: IdeLockfileFields,
	) {}

	get fields(): IdeLockfileFields {
		return this.current;
	}

	/** Where it was written; undefined before the first write. */
	get path(): string | undefined {
		return this.written;
	}

	write(changes: Partial<IdeLockfileFields> = {}): void {
		this.current = { ...this.current, ...changes };
		this.written = writeIdeLockfile(this.lockDir, this.port, this.current);
	}

	remove(): void {
		if (this.written !== undefined) rmSync(this.written, { force: true });
	}
}
