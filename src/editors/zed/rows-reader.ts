import type { ZedEnv } from "./core/data-dirs.ts";
import type { ReadOutcome } from "./core/read-cycle.ts";
import type { ZedSnapshot } from "./core/rows.ts";
import type { ZedSettingsFacts } from "./core/settings.ts";
import type { RunningZed } from "./core/which-zed.ts";
import { readZedDatabase } from "./database.ts";
import { ZedSettingsFiles } from "./settings-files.ts";
import type { Sqlite } from "./sqlite.ts";
import type { ZedWorkspaces } from "./workspaces.ts";

/** What a read hands its rows to: the workspaces' update (workspaces.ts). */
type UpdateWorkspaces = ZedWorkspaces["update"];

/**
 * One read of Zed's rows turned into editors, and what the reads so far left to report: the schema, the
 * session's snapshot, Zed's own settings, the last problem. The source decides when to read (core/read-cycle.ts).
 */
export class ZedRowsReader {
	snapshot?: ZedSnapshot;
	schemaSteps?: string;
	lastProblem?: { reason: string; atSeconds: number };
	lastRead = { ms: 0, ok: false };
	settings: { facts: ZedSettingsFacts; file: string } | undefined;
	private readonly settingsFiles = new ZedSettingsFiles();

	constructor(
		private readonly updateWorkspaces: UpdateWorkspaces,
		private readonly zedEnv: { env: ZedEnv; home: string; platform: string },
		private readonly nowSeconds: () => number,
	) {}

	/** The rows read and turned into editors; how the read ended. Never throws. */
	async read(sqlite: Sqlite, path: string, zed: RunningZed | undefined): Promise<ReadOutcome> {
		try {
			const result = readZedDatabase(sqlite, path);
			this.lastRead = { ms: result.tookMs, ok: result.ok };
			if (result.schema) this.schemaSteps = result.schema.steps;
			if (!result.ok) {
				this.lastProblem = { reason: result.reason, atSeconds: this.nowSeconds() };
				// A locked database, or another SQLite error, keeps its last state and is read again; a schema pi
				// cannot read shows nothing rather than a guess.
				if (result.failure === "schema") return { kind: "unusable", reason: result.reason };
				return result.failure === "busy" ? { kind: "busy" } : { kind: "error", reason: result.reason };
			}
			this.snapshot = result.snapshot;
			// Zed applies its settings live: each read sees them as they are (one stat while unchanged).
			this.settings = await this.settingsFiles.user(zed, this.zedEnv);
			const user = this.settings.facts;
			const { rewriting, computeMs } = await this.updateWorkspaces(path, result.snapshot, zed?.pid ?? 0, {
				restoresUnsaved: (roots) => this.settingsFiles.restoresUnsaved(user, roots),
			});
			// What a read holds pi's thread for: the transaction, and the texts turned into positions.
			this.lastRead = { ms: result.tookMs + computeMs, ok: true };
			return { kind: "ok", rewriting };
		} catch (error) {
			this.lastProblem = { reason: String(error), atSeconds: this.nowSeconds() };
			return { kind: "error", reason: String(error) };
		}
	}
}
