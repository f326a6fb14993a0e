// `prepublishOnly`: the package must ship the VS Code client's .vsix (`/ide install vscode` installs it from
// there). Packs as `npm publish` would (`npm pack --dry-run --json`, which runs `prepack`, the build) and fails
// when the .vsix is not among the packed files: a build that failed, or a `files` list that lost it. An
// argument names another package dir to check (the test checks a copy).
import { execFileSync } from "node:child_process";

const PACKED_VSIX = "clients/vscode/pi-ide-context-vscode.vsix";

const dir = process.argv[2] ?? process.cwd();
const npm = process.env.npm_execpath;
const printed = execFileSync(npm ? process.execPath : "npm", [...(npm ? [npm] : []), "pack", "--dry-run", "--json"], {
	cwd: dir,
	encoding: "utf8",
	stdio: ["ignore", "pipe", "inherit"],
});
/** `npm pack --json` prints one array with one entry per package packed, each listing its files. */
let packed;
try {
	packed = JSON.parse(printed);
} catch (error) {
	process.stderr.write(`npm pack --dry-run --json printed no JSON (${error.message}); prepack must log to stderr\n`);
	process.exit(1);
}
const files = packed.flatMap((entry) => entry.files ?? []).map((file) => file.path);
if (!files.includes(PACKED_VSIX)) {
	process.stderr.write(`the package does not hold ${PACKED_VSIX}: /ide install vscode would have nothing to install\n`);
	process.exit(1);
}
process.stderr.write(`${PACKED_VSIX} is in the package (${files.length} files)\n`);
