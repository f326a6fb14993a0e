/** One kind of background work that failed (shared/background.ts): how often, and the latest reason. */
export interface BackgroundFailure {
	task: string;
	count: number;
	lastReason: string;
	/** Unix seconds of the latest failure. */
	lastAtSeconds: number;
}
