import type { Clock } from "../../shared/core/clock.ts";
import type { EditorReading } from "../core/editor.ts";
import { Generation } from "../kit/core/generation.ts";
import type { TakenSnapshot } from "../kit/core/reading-state.ts";
import { EditorPathsCache, realOrNormal } from "../real-paths.ts";
import { type EmacsSnapshot, parseEmacsSnapshot, stateFromEmacsSnapshot } from "./core/snapshot.ts";

/**
 * One Emacs's snapshots (a push, a read) turned into readings: the paths the tiers look at resolved again only
 * when what they come from changed, the project root's real path likewise, and when pi first saw each
 * `selected_at` (a clock ahead of pi's is fresh for the window at most).
 */
export class EmacsReadings {
	private readonly paths = new EditorPathsCache();
	private root?: { raw: string; real: Promise<string> };
	private seen?: { selectedAt: number; atSeconds: number };
	private readonly takes = new Generation();

	constructor(private readonly clock: Clock) {}

	/** undefined when a later snapshot came in meanwhile: an older one finishing late never replaces it. */
	async take(
		raw: unknown,
		facts: { pid: number; cwd: string; argv: string[] },
	): Promise<TakenSnapshot<EmacsSnapshot> | undefined> {
		const take = this.takes.start();
		const parsed = parseEmacsSnapshot(raw);
		if (!parsed.ok) return parsed;
		const nowSeconds = this.clock.nowSeconds();
		const snapshot = parsed.snapshot;
		const state = stateFromEmacsSnapshot(snapshot, { ...facts, nowSeconds });
		const [paths, root] = await Promise.all([this.paths.pathsOf(state), this.realRoot(snapshot.project_root)]);
		if (!take.isNewest()) return undefined;
		const selection = state.active_buffer?.selection;
		const selectedAt = selection?.selected_at;
		if (typeof selectedAt === "number" && this.seen?.selectedAt !== selectedAt)
			this.seen = { selectedAt, atSeconds: nowSeconds };
		const reading: EditorReading = {
			origin: "emacs",
			pid: facts.pid,
			state,
			paths: root === undefined ? paths : { ...paths, projectRoots: [root] },
			selectionFirstSeenSeconds: typeof selectedAt === "number" ? (this.seen?.atSeconds ?? nowSeconds) : nowSeconds,
			writtenAtSeconds: nowSeconds,
			unsavedFiles: snapshot.unsaved,
			// Whole lines as the elisp saw the region (`whole_lines`), unless its text was cut: a reference to
			// those lines is then read from disk, not served from a text that stops short of them.
			...(selection && {
				wholeLineSelection: snapshot.region?.whole_lines === true && snapshot.region.text_cut !== true,
			}),
		};
		return { ok: true, snapshot, reading, cuts: parsed.cuts };
	}

	/** The project root's real path, resolved again only when Emacs names another. */
	private realRoot(root: string | null): Promise<string | undefined> {
		if (root === null || root === "") return Promise.resolve(undefined);
		if (this.root?.raw !== root) this.root = { raw: root, real: realOrNormal(root) };
		return this.root.real;
	}
}
