import { describe, expect, test } from "vitest";
import { pathsBoundTwice } from "../../../../src/editors/processes/core/bound-twice.ts";

describe("paths more than one listening socket was bound to", () => {
	test("lsof: one process holding its listener and the connections it accepted (a Mac names them all alike) is one", () => {
		const bindings = [
			[7001, "/tmp/emacs501/server"],
			[7001, "/tmp/emacs501/server"],
			[7002, "/tmp/emacs501/other"],
		] as const;
		expect([...pathsBoundTwice(bindings)]).toEqual([]);
		expect([...pathsBoundTwice([...bindings, [7003, "/tmp//emacs501/server"]])]).toEqual([
			"/tmp/emacs501/server",
			"/tmp//emacs501/server",
		]);
	});
	test("an impostor bound at the path after unlinking Emacs's socket file", () => {
		const listening = new Map([
			[101, "/run/user/1000/emacs/server"],
			[202, "/run/user/1000/emacs/server"],
			[303, "/run/user/1000/emacs/other"],
		]);
		expect([...pathsBoundTwice(listening)]).toEqual(["/run/user/1000/emacs/server"]);
	});
	test("one path named two ways (an older Emacs's `T//emacs501`): both names held twice", () => {
		const listening = new Map([
			[101, "/var/folders/40/x/T//emacs501/server"],
			[202, "/var/folders/40/x/T/emacs501/server"],
		]);
		expect([...pathsBoundTwice(listening)]).toEqual([
			"/var/folders/40/x/T//emacs501/server",
			"/var/folders/40/x/T/emacs501/server",
		]);
	});
	test("none", () => expect(pathsBoundTwice(new Map([[1, "/a"]])).size).toBe(0));
});
