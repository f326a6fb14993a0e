// Builds the VS Code client: one bundled JS file (esbuild), then the .vsix (vsce, no dependencies: the bundle
// has none). `npm run build:vscode` from the package root; `npm pack` runs it (prepack). An argument names
// another dir to build in (tests build their own copy, side by side with others).
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
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

await build({
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
});

const vsce = join(here, "..", "..", "node_modules", "@vscode", "vsce", "vsce");
execFileSync(
	process.execPath,
	[vsce, "package", "--no-dependencies", "--allow-missing-repository", "--skip-license", "--out", vsix],
	{ cwd: stage, stdio: ["ignore", "ignore", "inherit"] },
);
process.stdout.write(`${vsix}\n`);
