/** Nearest-rank percentile of a sample (p in 0..100). */
export function percentile(sample: readonly number[], p: number): number {
	if (sample.length === 0) return Number.NaN;
	const sorted = [...sample].sort((a, b) => a - b);
	const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
	return sorted[rank] as number;
}

export const median = (sample: readonly number[]) => percentile(sample, 50);
export const max = (sample: readonly number[]) => (sample.length === 0 ? Number.NaN : Math.max(...sample));
