/**
 * The follow-latency plot of `docs/benchmarks.md`: the distribution (share of writes seen within x ms) of
 * ours against the polling baseline, on a log time axis, as SVG whose labels are text.
 */
const WIDTH = 640;
const HEIGHT = 300;
const PAD = { left: 56, right: 16, top: 28, bottom: 44 };
const MIN_MS = 0.5;
const MAX_MS = 2000;

export interface Series {
	label: string;
	color: string;
	samplesMs: readonly number[];
}

const escapeXml = (text: string) =>
	text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

function x(ms: number): number {
	const clamped = Math.min(MAX_MS, Math.max(MIN_MS, ms));
	const share = (Math.log10(clamped) - Math.log10(MIN_MS)) / (Math.log10(MAX_MS) - Math.log10(MIN_MS));
	return PAD.left + share * (WIDTH - PAD.left - PAD.right);
}

const y = (share: number) => HEIGHT - PAD.bottom - share * (HEIGHT - PAD.top - PAD.bottom);

/** A step line through the empirical distribution: at each sample, the share of samples at or below it. */
function cdfPath(samples: readonly number[]): string {
	const sorted = [...samples].sort((a, b) => a - b);
	const points = [`M${x(MIN_MS).toFixed(1)},${y(0).toFixed(1)}`];
	sorted.forEach((ms, index) => {
		points.push(`H${x(ms).toFixed(1)}`, `V${y((index + 1) / sorted.length).toFixed(1)}`);
	});
	points.push(`H${x(MAX_MS).toFixed(1)}`);
	return points.join(" ");
}

export function latencyPlotSvg(title: string, series: readonly Series[]): string {
	const ticks = [1, 10, 100, 1000];
	const grid = ticks.map(
		(ms) =>
			`<line x1="${x(ms)}" y1="${y(0)}" x2="${x(ms)}" y2="${y(1)}" stroke="#ddd"/>` +
			`<text x="${x(ms)}" y="${y(0) + 16}" text-anchor="middle">${ms} ms</text>`,
	);
	const shares = [0, 0.5, 1].map(
		(share) =>
			`<line x1="${PAD.left}" y1="${y(share)}" x2="${WIDTH - PAD.right}" y2="${y(share)}" stroke="#ddd"/>` +
			`<text x="${PAD.left - 6}" y="${y(share) + 4}" text-anchor="end">${share * 100}%</text>`,
	);
	const lines = series.map(
		(s) => `<path d="${cdfPath(s.samplesMs)}" fill="none" stroke="${s.color}" stroke-width="2"/>`,
	);
	const legend = series.map(
		(s, index) =>
			`<rect x="${PAD.left + 8}" y="${PAD.top + 8 + index * 18}" width="12" height="3" fill="${s.color}"/>` +
			`<text x="${PAD.left + 26}" y="${PAD.top + 13 + index * 18}">${escapeXml(s.label)}</text>`,
	);
	return [
		`<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}" font-family="sans-serif" font-size="12">`,
		`<title>${escapeXml(title)}</title>`,
		`<rect width="${WIDTH}" height="${HEIGHT}" fill="#fff"/>`,
		`<text x="${WIDTH / 2}" y="16" text-anchor="middle" font-size="13">${escapeXml(title)}</text>`,
		...grid,
		...shares,
		...lines,
		...legend,
		`<text x="${WIDTH / 2}" y="${HEIGHT - 8}" text-anchor="middle">from just before the editor's write to the widget (log scale)</text>`,
		"</svg>",
		"",
	].join("\n");
}
