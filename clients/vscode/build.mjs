// Builds the VS Code client: one bundled JS file (esbuild), then the .vsix (vsce, no dependencies: the bundle
// has none). `npm run build:vscode` from the package root; `npm pack` runs it (prepack). An argument names
// another dir to build in (tests build their own copy, side by side with others). The .vsix is written whole
// or not at all (renamed into place): a VS Code test installing the old one never reads half of the new one.
// `dist/inputs.json` lists every file the bundle was made from, so a test run can tell a build that is stale.
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const here = dirname(fileURLToPath(import.meta.url));
const manifest = JSON.parse(readFileSync(join(here, "package.json"), "utf8"));
const out = process.argv[2];
/** What vsce packages: this folder, or a copy of what it needs in the given dir. */
const stage = out ? join(out, "vscode-client") : here;
if (out) {
	mkdirSync(stage, { recursive: true });
	for (const file of ["package.json", "README.md", ".vscodeignore"]) copyFileSync(join(here, file), join(stage, file));
}
const vsix = join(out ?? here, "pi-ide-context-vscode.vsix");

const built = await build({
	entryPoints: [join(here, "src", "extension.ts")],
	outfile: join(stage, "dist", "extension.cjs"),
	bundle: true,
	platform: "node",
	format: "cjs",
	target: "node18",
	external: ["vscode"],
	define: { CLIENT_VERSION: JSON.stringify(manifest.version) },
	legalComments: "none",
	logLevel: "warning",
	metafile: true,
});
const inputs = Object.keys(built.metafile.inputs).map((input) => resolve(input));
writeFileSync(join(stage, "dist", "inputs.json"), `${JSON.stringify(inputs, null, "\t")}\n`);

const vsce = join(here, "..", "..", "node_modules", "@vscode", "vsce", "vsce");
execFileSync(
	process.execPath,
	[
		vsce,
		"package",
		"--no-dependencies",
		"--allow-missing-repository",
		"--skip-license",
		"--out",
		`${vsix}.${process.pid}.tmp`,
	],
	{ cwd: stage, stdio: ["ignore", "ignore", "inherit"] },
);
renameSync(`${vsix}.${process.pid}.tmp`, vsix);
process.stdout.write(`${vsix}\n`);
