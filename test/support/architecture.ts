import { readdirSync, readFileSync } from "node:fs";
import { join, posix, relative } from "node:path";

/**
 * The house's rules as checks over source text, so a fixture can break each one: features depend in one
 * written order, `core/` is pure, nothing imports itself in a circle. Biome checks the same for `core/` on
 * save; this also sees `./x.js` (NodeNext resolves it to `x.ts`) and the order between features.
 */

/** Every feature folder under `src/`, earliest first: a feature imports only from features before it. */
export const FEATURE_ORDER = [
	"events",
	"shared",
	"settings",
	"editors",
	"safety",
	"connection",
	"review",
	"suggestions",
	"references",
	"prompt",
	"asks",
	"questions",
	"pi-bridge",
	"ui",
	"index",
] as const;

/** What a `core/` file may not import: it takes time, paths and facts as arguments instead. */
export const CORE_DENIED_MODULES = [
	"node:fs",
	"node:fs/promises",
	"node:os",
	"node:child_process",
	"node:net",
	"node:sqlite",
	"chokidar",
] as const;

/** The package's own name: `pi-ide-context/events` is `src/events.ts` (package.json's exports). */
const SELF_EXPORTS: Record<string, string> = {
	"pi-ide-context": "src/index.ts",
	"pi-ide-context/events": "src/events.ts",
};

export type SourceFiles = ReadonlyMap<string, string>;

/** `src/**.ts` of a checkout, keyed by the path from the checkout's root (`src/editors/core/editor.ts`). */
export function readSources(rootDir: string): Map<string, string> {
	const files = new Map<string, string>();
	const walk = (dir: string) => {
		for (const entry of readdirSync(dir, { withFileTypes: true })) {
			const path = join(dir, entry.name);
			if (entry.isDirectory()) walk(path);
			else if (entry.name.endsWith(".ts"))
				files.set(relative(rootDir, path).split("\\").join("/"), readFileSync(path, "utf8"));
		}
	};
	walk(join(rootDir, "src"));
	return files;
}

/** The text without comments; strings and template literals kept, so a `//` inside a string stays. */
export function withoutComments(text: string): string {
	let out = "";
	let index = 0;
	while (index < text.length) {
		const char = text[index] as string;
		const next = text[index + 1];
		if (char === "/" && next === "/") {
			while (index < text.length && text[index] !== "\n") index++;
		} else if (char === "/" && next === "*") {
			const end = text.indexOf("*/", index + 2);
			index = end < 0 ? text.length : end + 2;
			out += " ";
		} else if (char === '"' || char === "'" || char === "`") {
			let end = index + 1;
			while (end < text.length && text[end] !== char) end += text[end] === "\\" ? 2 : 1;
			out += text.slice(index, end + 1);
			index = end + 1;
		} else {
			out += char;
			index++;
		}
	}
	return out;
}

const STATIC_FROM = /\b(?:import|export)\b[^;'"`]*?\bfrom\s*(["'])([^"'\n]+)\1/g;
const SIDE_EFFECT = /\bimport\s*(["'])([^"'\n]+)\1/g;
const DYNAMIC = /\bimport\s*\(\s*(["'])([^"'\n]+)\1/g;

/** Every module a file names in `import … from`, `export … from`, `import "…"` and `import("…")`. */
export function importSpecifiers(text: string): string[] {
	const code = withoutComments(text);
	const found: string[] = [];
	for (const pattern of [STATIC_FROM, SIDE_EFFECT, DYNAMIC])
		for (const match of code.matchAll(pattern)) found.push(match[2] as string);
	return [...new Set(found)];
}

/** The source file a specifier names (`./x.js` is `x.ts` under NodeNext), or undefined for a package. */
export function resolveImport(fromFile: string, specifier: string): string | undefined {
	if (SELF_EXPORTS[specifier]) return SELF_EXPORTS[specifier];
	if (!specifier.startsWith(".")) return undefined;
	const target = posix.normalize(posix.join(posix.dirname(fromFile), specifier));
	return target.replace(/\.(js|mjs|cjs|mts)$/, ".ts");
}

/** `src/index.ts` → index, `src/events.ts` → events, `src/editors/zed/source.ts` → editors. */
export function featureOf(file: string): string {
	const parts = file.split("/");
	if (parts.length === 2) return (parts[1] as string).replace(/\.ts$/, "");
	return parts[1] as string;
}

export const isCoreFile = (file: string) => file.split("/").includes("core");

export interface Edge {
	from: string;
	to: string;
	specifier: string;
}

/** Each file's imports of other source files, plus the packages it names. */
export function importGraph(files: SourceFiles): { edges: Edge[]; packages: Edge[] } {
	const edges: Edge[] = [];
	const packages: Edge[] = [];
	for (const [from, text] of files) {
		for (const specifier of importSpecifiers(text)) {
			const to = resolveImport(from, specifier);
			if (to === undefined) packages.push({ from, to: specifier, specifier });
			else edges.push({ from, to, specifier });
		}
	}
	return { edges, packages };
}

const edgeText = (edge: Edge) => `${edge.from} imports "${edge.specifier}"`;

/** A `core/` file importing anything but `core/` files, or a module with side effects. */
export function coreViolations(files: SourceFiles): string[] {
	const { edges, packages } = importGraph(files);
	const denied = new Set<string>(CORE_DENIED_MODULES);
	return [
		...edges.filter((edge) => isCoreFile(edge.from) && !isCoreFile(edge.to)).map(edgeText),
		...packages.filter((edge) => isCoreFile(edge.from) && denied.has(edge.to)).map(edgeText),
	];
}

/** An import from a feature later in `FEATURE_ORDER`, or from a folder the order does not name. */
export function orderViolations(files: SourceFiles, order: readonly string[] = FEATURE_ORDER): string[] {
	const rank = (file: string) => order.indexOf(featureOf(file));
	const problems: string[] = [];
	for (const file of files.keys())
		if (rank(file) < 0) problems.push(`${file} is in "${featureOf(file)}", which the feature order does not name`);
	for (const edge of importGraph(files).edges) {
		if (rank(edge.to) > rank(edge.from))
			problems.push(`${edgeText(edge)}: ${featureOf(edge.to)} comes after ${featureOf(edge.from)}`);
	}
	return problems;
}

/** An import of a file that does not exist (a check over a wrong path would pass for the wrong reason). */
export function missingTargets(files: SourceFiles): string[] {
	return importGraph(files)
		.edges.filter((edge) => !files.has(edge.to))
		.map((edge) => `${edgeText(edge)}: no such source file`);
}

/** The folders of `src/editors/` every source may use; every other folder there is one source of editors. */
export const SHARED_EDITOR_FOLDERS = ["core", "kit", "processes"] as const;

/** `src/editors/neovim/session.ts` → neovim; a file of `editors/` itself or of a shared folder → undefined. */
export function editorFolderOf(file: string): string | undefined {
	const parts = file.split("/");
	if (parts[1] !== "editors" || parts.length < 4) return undefined;
	const folder = parts[2] as string;
	return (SHARED_EDITOR_FOLDERS as readonly string[]).includes(folder) ? undefined : folder;
}

/**
 * The sources are siblings: none imports another, and what they share (`editors/`, its shared folders) imports
 * none of them, so that a source reads as one folder and a new one is added beside the others.
 */
export function siblingViolations(files: SourceFiles): string[] {
	const problems: string[] = [];
	for (const edge of importGraph(files).edges) {
		if (featureOf(edge.from) !== "editors" || featureOf(edge.to) !== "editors") continue;
		const [from, to] = [editorFolderOf(edge.from), editorFolderOf(edge.to)];
		if (to === undefined || from === to) continue;
		problems.push(
			from === undefined
				? `${edgeText(edge)}: what the sources share imports none of them`
				: `${edgeText(edge)}: no editor folder imports another (what both use lives in editors/ or editors/core/)`,
		);
	}
	return problems;
}

/** The house's size rules: a source file holds one concern, a folder a handful of files. */
export const MAX_FILE_LINES = 320;
export const MAX_FILES_PER_FOLDER = 12;

/** Files over the line limit, and folders holding more `.ts` files directly than the limit. */
export function sizeViolations(files: SourceFiles): string[] {
	const problems: string[] = [];
	const perFolder = new Map<string, number>();
	for (const [file, text] of files) {
		const lines = text.endsWith("\n") ? text.split("\n").length - 1 : text.split("\n").length;
		if (lines > MAX_FILE_LINES) problems.push(`${file} has ${lines} lines (at most ${MAX_FILE_LINES})`);
		const folder = posix.dirname(file);
		perFolder.set(folder, (perFolder.get(folder) ?? 0) + 1);
	}
	for (const [folder, count] of perFolder)
		if (count > MAX_FILES_PER_FOLDER)
			problems.push(`${folder} holds ${count} .ts files (at most ${MAX_FILES_PER_FOLDER})`);
	return problems;
}

/** Every circle of imports, each once, as `a → b → a`. */
export function importCycles(files: SourceFiles): string[] {
	const next = new Map<string, string[]>();
	for (const edge of importGraph(files).edges) next.set(edge.from, [...(next.get(edge.from) ?? []), edge.to]);
	const cycles = new Set<string>();
	const state = new Map<string, "open" | "done">();
	const path: string[] = [];
	const visit = (file: string) => {
		state.set(file, "open");
		path.push(file);
		for (const to of next.get(file) ?? []) {
			if (state.get(to) === "open") {
				const circle = path.slice(path.indexOf(to));
				// The same circle found from another file is named from its smallest file.
				const start = circle.indexOf([...circle].sort()[0] as string);
				const rotated = [...circle.slice(start), ...circle.slice(0, start)];
				cycles.add([...rotated, rotated[0]].join(" → "));
			} else if (!state.has(to)) visit(to);
		}
		path.pop();
		state.set(file, "done");
	};
	for (const file of [...files.keys()].sort()) if (!state.has(file)) visit(file);
	return [...cycles];
}

/**
 * What one module alone does, so that every source shares it instead of writing it again: the raw dir watch
 * (its re-arming), the reads of `/proc`, and the `pid:` key two sources must agree on for one editor.
 */
export const SINGLE_HOMES = [
	{
		what: "calls fs.watch",
		home: "src/editors/dir-watch.ts",
		pattern: /import\s*\{[^}]*\bwatch(?:File)?\b[^}]*\}\s*from\s*["'](?:node:)?fs["']|\bfs\.watch(?:File)?\(/,
	},
	{ what: "reads /proc", home: "src/editors/processes/proc-files.ts", pattern: /["'`]\/proc(?:\/|["'`])/ },
	{
		what: "runs ps or lsof",
		home: "src/editors/processes/process-tools.ts",
		pattern: /\b(?:execFile|execFileSync|spawn|spawnSync|exec|execSync)\s*\(\s*["'`](?:ps|lsof)\b/,
	},
	{ what: "builds or parses the pid: key", home: "src/editors/core/editor-key.ts", pattern: /["'`/]\^?pid:/ },
] as const;

/** Files that do what only its one module may, each named with what it does and where that lives. */
export function singleHomeViolations(files: SourceFiles, homes = SINGLE_HOMES): string[] {
	const problems: string[] = [];
	for (const [file, text] of files) {
		const code = withoutComments(text);
		for (const { what, home, pattern } of homes)
			if (file !== home && pattern.test(code)) problems.push(`${file} ${what}: only ${home} may`);
	}
	return problems;
}
