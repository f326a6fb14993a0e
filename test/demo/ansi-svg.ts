/**
 * A terminal screen as `tmux capture-pane -e -p` prints it (text with SGR escapes) turned into SVG that keeps
 * the text as text: one <text> per line, a <tspan> per run of equal style, so the picture is searchable and
 * selectable. Only what tmux emits is understood: SGR colours (16, 256, RGB), bold, dim, italic, underline,
 * inverse; every other escape is dropped.
 */
const CELL_WIDTH = 8.4;
const LINE_HEIGHT = 18;
const PAD = 12;
const FOREGROUND = "#d4d4d4";
const BACKGROUND = "#1e1e1e";

const BASE_16 = [
	"#000000",
	"#cd3131",
	"#0dbc79",
	"#e5e510",
	"#2472c8",
	"#bc3fbc",
	"#11a8cd",
	"#e5e5e5",
	"#666666",
	"#f14c4c",
	"#23d18b",
	"#f5f543",
	"#3b8eea",
	"#d670d6",
	"#29b8db",
	"#ffffff",
];

interface Style {
	fg?: string;
	bg?: string;
	bold?: boolean;
	dim?: boolean;
	italic?: boolean;
	underline?: boolean;
	inverse?: boolean;
}

interface Run {
	text: string;
	style: Style;
}

function color256(index: number): string {
	if (index < 16) return BASE_16[index] ?? FOREGROUND;
	if (index >= 232) {
		const level = 8 + (index - 232) * 10;
		return rgb(level, level, level);
	}
	const cube = index - 16;
	const steps = [0, 95, 135, 175, 215, 255];
	return rgb(steps[Math.floor(cube / 36)] ?? 0, steps[Math.floor(cube / 6) % 6] ?? 0, steps[cube % 6] ?? 0);
}

const rgb = (r: number, g: number, b: number) =>
	`#${[r, g, b].map((value) => Math.max(0, Math.min(255, value)).toString(16).padStart(2, "0")).join("")}`;

/** Applies one SGR parameter list to a style. */
function applySgr(style: Style, params: number[]): Style {
	const next = { ...style };
	for (let i = 0; i < params.length; i++) {
		const p = params[i] ?? 0;
		if (p === 0) for (const key of Object.keys(next)) delete next[key as keyof Style];
		else if (p === 1) next.bold = true;
		else if (p === 2) next.dim = true;
		else if (p === 3) next.italic = true;
		else if (p === 4) next.underline = true;
		else if (p === 7) next.inverse = true;
		else if (p === 22) next.bold = next.dim = false;
		else if (p === 23) next.italic = false;
		else if (p === 24) next.underline = false;
		else if (p === 27) next.inverse = false;
		else if (p >= 30 && p <= 37) next.fg = BASE_16[p - 30];
		else if (p >= 90 && p <= 97) next.fg = BASE_16[p - 90 + 8];
		else if (p >= 40 && p <= 47) next.bg = BASE_16[p - 40];
		else if (p >= 100 && p <= 107) next.bg = BASE_16[p - 100 + 8];
		else if (p === 39) delete next.fg;
		else if (p === 49) delete next.bg;
		else if (p === 38 || p === 48) {
			const mode = params[i + 1];
			let value: string | undefined;
			if (mode === 5) {
				value = color256(params[i + 2] ?? 0);
				i += 2;
			} else if (mode === 2) {
				value = rgb(params[i + 2] ?? 0, params[i + 3] ?? 0, params[i + 4] ?? 0);
				i += 4;
			}
			if (value && p === 38) next.fg = value;
			if (value && p === 48) next.bg = value;
		}
	}
	return next;
}

/** The runs of one line; the style carries over from line to line, as in a terminal. */
export function parseLine(line: string, start: Style): { runs: Run[]; end: Style } {
	const runs: Run[] = [];
	let style = start;
	let text = "";
	const flush = () => {
		if (text) runs.push({ text, style });
		text = "";
	};
	for (let i = 0; i < line.length; ) {
		if (line[i] === "\u001b") {
			const sgr = /^\u001b\[([0-9;:]*)m/.exec(line.slice(i));
			if (sgr) {
				flush();
				const params = (sgr[1] ?? "").split(/[;:]/).map((part) => (part === "" ? 0 : Number(part)));
				style = applySgr(style, params);
				i += sgr[0].length;
				continue;
			}
			// Any other escape (OSC hyperlinks, cursor moves) carries no text: skip it.
			const other = /^\u001b(\][^\u0007\u001b]*(\u0007|\u001b\\)|\[[0-9;?]*[A-Za-z]|.)/.exec(line.slice(i));
			i += other?.[0].length ?? 1;
			continue;
		}
		text += line[i];
		i++;
	}
	flush();
	return { runs, end: style };
}

const escapeXml = (text: string) =>
	text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

export function ansiScreenToSvg(screen: string, columns: number, title: string): string {
	const lines = screen.replace(/\n$/, "").split("\n");
	const width = Math.ceil(columns * CELL_WIDTH + 2 * PAD);
	const height = lines.length * LINE_HEIGHT + 2 * PAD;
	const body: string[] = [];
	let style: Style = {};
	lines.forEach((line, row) => {
		const parsed = parseLine(line, style);
		style = parsed.end;
		const y = PAD + row * LINE_HEIGHT;
		let column = 0;
		const spans: string[] = [];
		for (const run of parsed.runs) {
			const fg = run.style.inverse ? (run.style.bg ?? BACKGROUND) : (run.style.fg ?? FOREGROUND);
			const bg = run.style.inverse ? (run.style.fg ?? FOREGROUND) : run.style.bg;
			const length = [...run.text].length;
			if (bg) {
				body.push(
					`<rect x="${(PAD + column * CELL_WIDTH).toFixed(1)}" y="${y}" width="${(length * CELL_WIDTH).toFixed(1)}" height="${LINE_HEIGHT}" fill="${bg}"/>`,
				);
			}
			const attributes = [
				`fill="${fg}"`,
				run.style.bold ? 'font-weight="bold"' : "",
				run.style.dim ? 'opacity="0.6"' : "",
				run.style.italic ? 'font-style="italic"' : "",
				run.style.underline ? 'text-decoration="underline"' : "",
			].filter(Boolean);
			spans.push(
				`<tspan x="${(PAD + column * CELL_WIDTH).toFixed(1)}" ${attributes.join(" ")}>${escapeXml(run.text)}</tspan>`,
			);
			column += length;
		}
		if (spans.length > 0) body.push(`<text y="${y + LINE_HEIGHT - 5}" xml:space="preserve">${spans.join("")}</text>`);
	});
	return [
		`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="DejaVu Sans Mono, Menlo, Consolas, monospace" font-size="14">`,
		`<title>${escapeXml(title)}</title>`,
		`<rect width="${width}" height="${height}" rx="6" fill="${BACKGROUND}"/>`,
		...body,
		"</svg>",
		"",
	].join("\n");
}

const hexParts = (hex: string) => [1, 3, 5].map((at) => Number.parseInt(hex.slice(at, at + 2), 16));

/** One SGR sequence that sets `style` from nothing (colours as RGB, as parseLine reads them back). */
function sgrOf(style: Style): string {
	const params = [0];
	if (style.bold) params.push(1);
	if (style.dim) params.push(2);
	if (style.italic) params.push(3);
	if (style.underline) params.push(4);
	if (style.inverse) params.push(7);
	if (style.fg) params.push(38, 2, ...hexParts(style.fg));
	if (style.bg) params.push(48, 2, ...hexParts(style.bg));
	return `\u001b[${params.join(";")}m`;
}

/**
 * The panes of one tmux window side by side, each as `capture-pane -p -e -N` printed it (trailing cells kept, so
 * a background reaches the pane's edge), cut or padded to its columns, `border` between them: one screen for
 * ansiScreenToSvg. tmux carries a pane's style from one of its lines to the next, so each pane's part of a line
 * starts with that pane's own style set afresh.
 */
export function sideBySide(panes: readonly { screen: string; columns: number }[], border: string): string {
	const paneLines = panes.map((pane) => pane.screen.replace(/\n$/, "").split("\n"));
	const styles: Style[] = panes.map(() => ({}));
	const rows = Math.max(...paneLines.map((lines) => lines.length));
	const screen: string[] = [];
	for (let row = 0; row < rows; row++) {
		const parts = panes.map((pane, index) => {
			const parsed = parseLine(paneLines[index]?.[row] ?? "", styles[index] ?? {});
			styles[index] = parsed.end;
			let left = pane.columns;
			let part = "";
			for (const run of parsed.runs) {
				const text = [...run.text].slice(0, left);
				if (text.length === 0) break;
				part += sgrOf(run.style) + text.join("");
				left -= text.length;
			}
			return `${part}\u001b[0m${" ".repeat(left)}`;
		});
		screen.push(parts.join(border));
	}
	return `${screen.join("\n")}\n`;
}
