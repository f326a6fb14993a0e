/**
 * A unified diff of two texts by lines (Myers' O(ND) shortest edit script), for telling the model what the
 * user changed in its proposal. Hand-written: the small part of a diff library this needs, and the install
 * stays small. Beyond `MAX_EDIT_DISTANCE` differing lines the two are reported as replaced wholesale.
 */

const CONTEXT_LINES = 3;
/** Keeps the search bounded (memory grows with the square of the distance); a rewrite beyond it is one hunk. */
const MAX_EDIT_DISTANCE = 1000;

type Op = { kind: " " | "-" | "+"; line: string };

function splitLines(text: string): string[] {
	if (text === "") return [];
	const lines = text.split("\n");
	if (lines.at(-1) === "") lines.pop();
	return lines;
}

const at = (frontier: Int32Array, index: number) => frontier[index] ?? 0;

/** Myers' choice at diagonal `k` of round `d`: a step down (an insertion) or right (a deletion). */
const goesDown = (frontier: Int32Array, offset: number, d: number, k: number) =>
	k === -d || (k !== d && at(frontier, offset + k - 1) < at(frontier, offset + k + 1));

/** The edit script from `a` to `b`, or undefined when they differ in more than `MAX_EDIT_DISTANCE` lines. */
function editScript(a: readonly string[], b: readonly string[]): Op[] | undefined {
	const max = Math.min(a.length + b.length, MAX_EDIT_DISTANCE);
	const offset = max + 1;
	let frontier = new Int32Array(2 * max + 3);
	const trace: Int32Array[] = [];
	for (let d = 0; d <= max; d++) {
		trace.push(frontier.slice());
		const next = frontier.slice();
		for (let k = -d; k <= d; k += 2) {
			const down = goesDown(frontier, offset, d, k);
			let x = down ? at(frontier, offset + k + 1) : at(frontier, offset + k - 1) + 1;
			let y = x - k;
			while (x < a.length && y < b.length && a[x] === b[y]) {
				x++;
				y++;
			}
			next[offset + k] = x;
			if (x >= a.length && y >= b.length) return backtrack(a, b, trace, offset, d, k);
		}
		frontier = next;
	}
	return undefined;
}

function backtrack(
	a: readonly string[],
	b: readonly string[],
	trace: Int32Array[],
	offset: number,
	d: number,
	k: number,
): Op[] {
	const ops: Op[] = [];
	let x = a.length;
	let y = b.length;
	for (let step = d; step > 0; step--) {
		const frontier = trace[step] ?? new Int32Array();
		const down = goesDown(frontier, offset, step, k);
		const previousK = down ? k + 1 : k - 1;
		const previousX = at(frontier, offset + previousK);
		const previousY = previousX - previousK;
		while (x > previousX + (down ? 0 : 1) && y > previousY + (down ? 1 : 0)) {
			x--;
			y--;
			ops.push({ kind: " ", line: a[x] ?? "" });
		}
		if (down) ops.push({ kind: "+", line: b[--y] ?? "" });
		else ops.push({ kind: "-", line: a[--x] ?? "" });
		k = previousK;
	}
	while (x > 0 && y > 0) {
		x--;
		y--;
		ops.push({ kind: " ", line: a[x] ?? "" });
	}
	return ops.reverse();
}

/** `---`/`+++` headers and `@@` hunks with three lines of context; "" when the texts are equal. */
export function unifiedDiff(before: string, after: string, names: { from: string; to: string }): string {
	if (before === after) return "";
	const a = splitLines(before);
	const b = splitLines(after);
	const ops = editScript(a, b) ?? [
		...a.map((line) => ({ kind: "-" as const, line })),
		...b.map((line) => ({ kind: "+" as const, line })),
	];
	const lines = [`--- ${names.from}`, `+++ ${names.to}`, ...hunks(ops)];
	if (before !== "" && after !== "") lines.push(...finalNewlineNotes(before, after));
	return `${lines.join("\n")}\n`;
}

function finalNewlineNotes(before: string, after: string): string[] {
	if (before.endsWith("\n") === after.endsWith("\n")) return [];
	return [
		before.endsWith("\n")
			? "\\ the user's version has no newline at end of file"
			: "\\ the user added a newline at end of file",
	];
}

function hunks(ops: readonly Op[]): string[] {
	const out: string[] = [];
	let index = 0;
	let oldLine = 1;
	let newLine = 1;
	while (index < ops.length) {
		const change = ops.findIndex((op, at) => at >= index && op.kind !== " ");
		if (change === -1) break;
		const start = Math.max(index, change - CONTEXT_LINES);
		for (let at = index; at < start; at++) {
			if (ops[at]?.kind !== "+") oldLine++;
			if (ops[at]?.kind !== "-") newLine++;
		}
		let end = change;
		let quiet = 0;
		while (end < ops.length && quiet <= 2 * CONTEXT_LINES) {
			quiet = ops[end]?.kind === " " ? quiet + 1 : 0;
			end++;
		}
		end = Math.min(ops.length, end - Math.max(0, quiet - CONTEXT_LINES));
		const body = ops.slice(start, end);
		const oldCount = body.filter((op) => op.kind !== "+").length;
		const newCount = body.filter((op) => op.kind !== "-").length;
		out.push(`@@ -${range(oldLine, oldCount)} +${range(newLine, newCount)} @@`, ...body.map((op) => op.kind + op.line));
		oldLine += oldCount;
		newLine += newCount;
		index = end;
	}
	return out;
}

/** `start,count` as diff(1) writes it: a hunk that adds to an empty side starts at the line before. */
const range = (start: number, count: number) =>
	count === 0 ? `${start - 1},0` : count === 1 ? `${start}` : `${start},${count}`;
