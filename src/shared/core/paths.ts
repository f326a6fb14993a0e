import { posix } from "node:path";

/** Normalize for comparison: collapse `..`, `.` and repeated or trailing slashes. */
export function normalizePath(path: string): string {
	const normal = posix.normalize(path);
	return normal.length > 1 ? normal.replace(/\/+$/, "") : normal;
}

/** Segment-wise containment: `/a/bc` is not inside `/a/b`. */
export function isInside(path: string, dir: string): boolean {
	const child = normalizePath(path);
	const parent = normalizePath(dir);
	if (child === parent) return false;
	return child.startsWith(parent === "/" ? "/" : `${parent}/`);
}

/** A path as a person reads it: relative to `dir` when inside it, else as it is. */
export function shownPath(path: string, dir: string): string {
	return isInside(path, dir) ? normalizePath(path).slice(normalizePath(dir).replace(/\/$/, "").length + 1) : path;
}

export function isSameOrInside(path: string, dir: string): boolean {
	return normalizePath(path) === normalizePath(dir) || isInside(path, dir);
}
