import { chmodSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { openStateDir, removeStateFile, writeStateFile } from "../../../clients/vscode/src/state-file.ts";
import { tempDir } from "../../support/temp-dir.ts";

const uid = process.getuid?.() ?? 0;

describe("the client's state dir and file, by pi's own rules", () => {
	const dirs: { cleanup: () => void }[] = [];
	afterEach(() => {
		for (const dir of dirs.splice(0)) dir.cleanup();
	});
	const root = () => {
		const dir = tempDir("vscode-client");
		dirs.push(dir);
		return dir.path;
	};

	test("created 0700 when missing; the file written atomically, 0600; removed on deactivate", () => {
		const dir = join(root(), "run", "pi-ide");
		expect(openStateDir(dir, uid)).toEqual({ ok: true });
		expect(statSync(dir).mode & 0o777).toBe(0o700);
		writeStateFile(dir, 4242, { pid: 4242 });
		expect(readdirSync(dir)).toEqual(["4242.json"]);
		expect(statSync(join(dir, "4242.json")).mode & 0o777).toBe(0o600);
		expect(JSON.parse(readFileSync(join(dir, "4242.json"), "utf8"))).toEqual({ pid: 4242 });
		removeStateFile(dir, 4242);
		expect(readdirSync(dir)).toEqual([]);
	});

	test.each([
		[
			"group- and world-readable",
			(dir: string) => {
				mkdirSync(dir);
				chmodSync(dir, 0o755);
			},
			/has mode 0755/,
		],
		[
			"a symlink",
			(dir: string) => {
				mkdirSync(`${dir}-real`, { mode: 0o700 });
				symlinkSync(`${dir}-real`, dir);
			},
			/is a symlink/,
		],
	])("never used when pi would not trust it: %s", (_name, make, reason) => {
		const dir = join(root(), "pi-ide");
		make(dir);
		const opened = openStateDir(dir, uid);
		expect(opened.ok).toBe(false);
		if (!opened.ok) expect(opened.reason).toMatch(reason);
	});
});
