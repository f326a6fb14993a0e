/**
 * `node pi-in-emacs.mjs <emacs server socket> <command> [args...]`: runs the command as a child of that Emacs
 * (its `make-process`, as `M-x shell` runs what is typed there), in this process's cwd and environment, and
 * relays its stdin, stdout and stderr through FIFOs, so that a test drives pi in RPC mode as usual while pi's
 * ancestors hold that Emacs (pi-ide-context then knows it runs in Emacs's own terminal). A spawn `wrapper`
 * (test/support/pi-cli.ts). SIGTERM, or the end of stdin, ends the command; this exits when its stdout ends.
 */
import { execFileSync } from "node:child_process";
import { createReadStream, createWriteStream, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const [socket, ...command] = process.argv.slice(2);
if (!socket || command.length === 0) throw new Error("usage: pi-in-emacs.mjs <socket> <command> [args...]");

const dir = mkdtempSync(join(tmpdir(), "pi-in-emacs-"));
const [input, output, errors] = ["in", "out", "err"].map((name) => join(dir, name));
for (const fifo of [input, output, errors]) execFileSync("mkfifo", ["-m", "600", fifo]);

/** A string as an elisp literal: JSON's escapes are elisp's (`\u00e9` included) for what an environment holds. */
const lisp = (text) => JSON.stringify(text);
const environment = Object.entries(process.env).map(([key, value]) => lisp(`${key}=${value}`));
// mkdtemp's paths hold no quote.
const shell = `exec "$0" "$@" <'${input}' >'${output}' 2>'${errors}'`;
const expression = `(let ((process-environment (list ${environment.join(" ")}))
      (default-directory (file-name-as-directory ${lisp(process.cwd())})))
  (process-id (make-process :name "test-pi-in-emacs" :noquery t :connection-type 'pipe
                            :command (list "/bin/sh" "-c" ${lisp(shell)} ${command.map(lisp).join(" ")}))))`;
const pid = Number(execFileSync("emacsclient", ["-s", socket, "--eval", expression], { encoding: "utf8" }).trim());

const stdin = createWriteStream(input);
process.stdin.pipe(stdin);
createReadStream(errors).pipe(process.stderr);
const stdout = createReadStream(output);
stdout.pipe(process.stdout);
stdout.on("close", () => {
	rmSync(dir, { recursive: true, force: true });
	process.exit(0);
});
process.on("SIGTERM", () => {
	try {
		process.kill(pid, "SIGTERM");
	} catch {
		// Gone already.
	}
});
