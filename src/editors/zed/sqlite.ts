/**
 * `node:sqlite`, loaded on first use only (a user without Zed never pays for it) and typed here with just what
 * pi uses: `@types/node` stays on the Node 20 pi 0.73 runs on, which has no `node:sqlite`.
 */

export interface SqliteStatement {
	all(...parameters: unknown[]): unknown[];
}

export interface SqliteDatabase {
	prepare(sql: string): SqliteStatement;
	exec(sql: string): void;
	close(): void;
}

export interface Sqlite {
	DatabaseSync: new (path: string, options: { readOnly: boolean; timeout: number }) => SqliteDatabase;
}

/** node:sqlite runs without a flag from Node 22.13 (and 23.4). */
export const SQLITE_NODE = "22.13";

let loading: Promise<Sqlite | string> | undefined;

/** The module, or why this Node has none (one line for `/ide status`). */
export function loadSqlite(): Promise<Sqlite | string> {
	loading ??= importQuietly();
	return loading;
}

/**
 * Node 22 warns "SQLite is an experimental feature" on stderr at the first import, over pi's screen. Only
 * that warning is held back, and only while the import runs.
 */
async function importQuietly(): Promise<Sqlite | string> {
	const emitWarning = process.emitWarning;
	process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
		const text = typeof warning === "string" ? warning : warning.message;
		if (/sqlite/i.test(text)) return;
		return (emitWarning as (...args: unknown[]) => void).call(process, warning, ...rest);
	}) as typeof process.emitWarning;
	try {
		// A variable specifier: bundlers and Node 20's type checker leave the optional module alone.
		const specifier = "node:sqlite";
		const module = (await import(specifier)) as Partial<Sqlite>;
		if (typeof module.DatabaseSync !== "function")
			return `node:sqlite has no DatabaseSync on Node ${process.versions.node}`;
		return module as Sqlite;
	} catch {
		return `reading Zed needs node:sqlite (Node >= ${SQLITE_NODE}); pi runs on Node ${process.versions.node}`;
	} finally {
		process.emitWarning = emitWarning;
	}
}
