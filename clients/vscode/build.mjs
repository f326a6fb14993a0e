// Builds the VS Code client: one bundled JS file (esbuild), then the .vsix (vsce, no dependencies: the bundle
// has none). `npm run build:vscode` from the package root; `npm pack` runs it (prepack).
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const here = dirname(fileURLToPath(import.meta.url));
const manifest = JSON.parse(readFileSync(join(here, "package.json"), "utf8"));
export const VSIX = join(here, "pi-ide-context-vscode.vsix");

await build({
	entryPoints: [join(here, "src", "extension.ts")],
	outfile: join(here, "dist", "extension.cjs"),
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
	[vsce, "package", "--no-dependencies", "--allow-missing-repository", "--skip-license", "--out", VSIX],
	{ cwd: here, stdio: ["ignore", "ignore", "inherit"] },
);
process.stdout.write(`${VSIX}\n`);
