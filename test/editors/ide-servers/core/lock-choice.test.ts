import { describe, expect, test } from "vitest";
import { folderTier, type LockToChoose, usableLocks } from "../../../../src/editors/ide-servers/core/lock-choice.ts";

const PROJECT = "/home/dev/app";

describe("folderTier: how well a lockfile's folders match the project", () => {
	test.each<[string, string[], number]>([
		["a folder is the project", ["/home/dev/other", "/home/dev/app"], 0],
		["a folder is the project, with a trailing slash", ["/home/dev/app/"], 0],
		["a folder is inside the project", ["/home/dev/app/src"], 1],
		["a folder holds the project: neither", ["/home/dev"], 2],
		["neither", ["/home/dev/other"], 2],
		["no folders", [], 2],
	])("%s → %s", (_, folders, tier) => {
		expect(folderTier(folders, PROJECT)).toBe(tier);
	});
});

interface Lock extends LockToChoose {
	name: string;
	key?: string;
}

const lock = (name: string, key: string | undefined, folders: string[], writtenAtSeconds?: number): Lock => ({
	name,
	...(key !== undefined && { key }),
	lockfile: { workspaceFolders: folders },
	...(writtenAtSeconds !== undefined && { writtenAtSeconds }),
});

const namesOf = (locks: readonly Lock[], claimed: readonly string[] = []) =>
	usableLocks(locks, {
		keyOf: (candidate) => candidate.key,
		claimedElsewhere: (key) => (claimed.includes(key) ? "a state file" : undefined),
		projectDir: () => PROJECT,
	}).map((candidate) => candidate.name);

describe("usableLocks: one lockfile per key, the project's best, else the newest", () => {
	test("a process serving several projects is listed by the lockfile of pi's project", () => {
		expect(namesOf([lock("other", "pid:1", ["/home/dev/other"], 9), lock("app", "pid:1", [PROJECT], 1)])).toEqual([
			"app",
		]);
	});

	test("a folder inside the project ranks above one elsewhere", () => {
		expect(namesOf([lock("other", "pid:1", ["/srv"], 9), lock("src", "pid:1", ["/home/dev/app/src"], 1)])).toEqual([
			"src",
		]);
	});

	test("of the same tier, the newest; with no time, the first", () => {
		expect(namesOf([lock("old", "pid:1", ["/srv"], 1), lock("new", "pid:1", ["/srv"], 2)])).toEqual(["new"]);
		expect(namesOf([lock("first", "pid:1", ["/srv"]), lock("second", "pid:1", ["/srv"])])).toEqual(["first"]);
	});

	test("an unused lockfile, one with no key and one another source reads are not listed", () => {
		const unused = { ...lock("unused", "pid:1", [PROJECT], 5), unused: "dead pid 1 (a lockfile left behind)" };
		const locks = [
			unused,
			lock("keyless", undefined, [PROJECT]),
			lock("claimed", "pid:2", [PROJECT]),
			lock("a", "pid:3", []),
		];
		expect(namesOf(locks, ["pid:2"])).toEqual(["a"]);
	});
});
