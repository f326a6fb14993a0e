import { type Static, Type } from "typebox";
import { Compile } from "typebox/compile";
import { MAX_PID } from "../../core/protocol-state.ts";

/** A lockfile is a few hundred bytes; anything near this is not one (the CLI reads them whole too). */
export const MAX_LOCKFILE_BYTES = 64 * 1024;

/** More folders than any workspace holds are not read: each one is a path pi resolves. */
export const MAX_WORKSPACE_FOLDERS = 64;

/**
 * `<port>.lock` as the editors write it (docs: ide-server-protocol.md §1). Unknown fields are ignored; the
 * port is the file's name, never the JSON's.
 */
export const LockfileSchema = Type.Object({
	pid: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PID })),
	workspaceFolders: Type.Array(Type.String({ maxLength: 4096 }), { maxItems: 1024 }),
	ideName: Type.Optional(Type.String({ maxLength: 200 })),
	transport: Type.Optional(Type.String({ maxLength: 20 })),
	runningInWindows: Type.Optional(Type.Boolean()),
	/** Sent as an HTTP header: printable ASCII only (anything else is no token any editor writes). */
	authToken: Type.Optional(Type.String({ maxLength: 1000, pattern: "^[\\x21-\\x7e]*$" })),
});
export type LockfileJson = Static<typeof LockfileSchema>;

const lockfileCheck = Compile(LockfileSchema);

/** A lockfile pi can use: its port from the name, its folders absolute (a Windows path names nothing here). */
export interface Lockfile {
	port: number;
	pid?: number;
	workspaceFolders: string[];
	ideName?: string;
	authToken?: string;
}

/** `40123.lock` → 40123; undefined for any other name (a temp file of an atomic write, `x.lock`). */
export function portOfLockName(name: string): number | undefined {
	const match = /^([1-9]\d{0,4})\.lock$/.exec(name);
	const port = match ? Number(match[1]) : undefined;
	return port !== undefined && port <= 65_535 ? port : undefined;
}

export type LockfileParse = { ok: true; lockfile: Lockfile } | { ok: false; reason: string };

/** The file's text, checked: a reason instead of a throw for anything that is not a usable lockfile. */
export function parseLockfile(port: number, text: string): LockfileParse {
	let raw: unknown;
	try {
		raw = JSON.parse(text);
	} catch {
		// The CLI reads non-JSON as a legacy folder list; no editor pi can talk to writes one.
		return { ok: false, reason: "not JSON (a legacy lockfile, or a torn write)" };
	}
	if (!lockfileCheck.Check(raw)) {
		const first = lockfileCheck.Errors(raw)[0];
		return { ok: false, reason: `not a lockfile${first ? ` at ${first.instancePath || "/"}: ${first.message}` : ""}` };
	}
	if (raw.transport !== undefined && raw.transport !== "ws")
		return { ok: false, reason: `transport "${raw.transport.slice(0, 20)}" (pi speaks "ws" only)` };
	if (raw.runningInWindows === true) return { ok: false, reason: "the IDE runs in Windows (pi reads Linux IDEs only)" };
	const folders = raw.workspaceFolders.filter((folder) => folder.startsWith("/")).slice(0, MAX_WORKSPACE_FOLDERS);
	return {
		ok: true,
		lockfile: {
			port,
			...(raw.pid !== undefined && { pid: raw.pid }),
			workspaceFolders: folders,
			...(raw.ideName !== undefined && { ideName: raw.ideName }),
			...(raw.authToken !== undefined && raw.authToken !== "" && { authToken: raw.authToken }),
		},
	};
}
