/** Nearest-rank percentile of a sample (p in 0..100). */
export function percentile(sample: readonly number[], p: number): number {
	if (sample.length === 0) return Number.NaN;
	const sorted = [...sample].sort((a, b) => a - b);
	const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
	return sorted[rank] as number;
}

export const median = (sample: readonly number[]) => percentile(sample, 50);
export const max = (sample: readonly number[]) => (sample.length === 0 ? Number.NaN : Math.max(...sample));

/** Least-squares slope of a series over its index (units per step). */
export function slope(series: readonly number[]): number {
	const n = series.length;
	if (n < 2) return Number.NaN;
	const meanX = (n - 1) / 2;
	const meanY = series.reduce((sum, y) => sum + y, 0) / n;
	let num = 0;
	let den = 0;
	series.forEach((y, x) => {
		num += (x - meanX) * (y - meanY);
		den += (x - meanX) ** 2;
	});
	return num / den;
}
