import type { Clock } from "../../shared/core/clock.ts";
import type { EditorReading } from "../core/editor.ts";
import { Generation } from "../kit/core/generation.ts";
import type { TakenSnapshot } from "../kit/core/reading-state.ts";
import { EditorPathsCache } from "../real-paths.ts";
import {
	isWholeLineSelection,
	parseSnapshot,
	type SelectionMoment,
	type Snapshot,
	selectionMoment,
	stateFromSnapshot,
} from "./core/snapshot.ts";

/**
 * One Neovim's snapshots (a push, a read) turned into readings: the paths the tiers look at resolved again only
 * when what they come from changed, and when pi's pushes first saw the selection (core/snapshot.ts).
 */
export class NeovimReadings {
	private readonly paths = new EditorPathsCache();
	private moment?: SelectionMoment;
	private readonly takes = new Generation();

	constructor(private readonly clock: Clock) {}

	/** undefined when a later snapshot came in meanwhile: an older one finishing late never replaces it. */
	async take(raw: unknown, pid: number): Promise<TakenSnapshot<Snapshot> | undefined> {
		const take = this.takes.start();
		const parsed = parseSnapshot(raw);
		if (!parsed.ok) return parsed;
		const nowSeconds = this.clock.nowSeconds();
		const snapshot = parsed.snapshot;
		this.moment = selectionMoment(snapshot, this.moment, nowSeconds);
		const state = stateFromSnapshot(snapshot, { pid, nowSeconds, moment: this.moment });
		const paths = await this.paths.pathsOf(state);
		if (!take.isNewest()) return undefined;
		const reading: EditorReading = {
			origin: "neovim",
			pid,
			state,
			paths,
			selectionFirstSeenSeconds: this.moment?.atSeconds ?? nowSeconds,
			writtenAtSeconds: nowSeconds,
			unsavedFiles: snapshot.unsaved,
			...(state.active_buffer?.selection && { wholeLineSelection: isWholeLineSelection(snapshot.selection) }),
		};
		return { ok: true, snapshot, reading, cuts: parsed.cuts };
	}
}
