import { describe, expect, test } from "vitest";
import {
	type LockfileParse,
	MAX_WORKSPACE_FOLDERS,
	parseLockfile,
	portOfLockName,
} from "../../../../src/editors/ide-servers/core/lockfile.ts";

describe("a lockfile's port is its name", () => {
	test.each<[string, number | undefined]>([
		["40123.lock", 40123],
		["1.lock", 1],
		["65535.lock", 65535],
		["0.lock", undefined],
		["65536.lock", undefined],
		["99999.lock", undefined],
		["123456.lock", undefined],
		["040123.lock", undefined],
		["x.lock", undefined],
		["40123", undefined],
		["40123.lock.tmp", undefined],
		[".40123.lock.swp", undefined],
		["40123.lock~", undefined],
		["40123.lock.12345.tmp", undefined],
		["-1.lock", undefined],
		["40 123.lock", undefined],
		["40123.LOCK", undefined],
		["", undefined],
	])("%s → %s", (name, port) => {
		expect(portOfLockName(name)).toBe(port);
	});
});

const UUID = "1b4e28ba-2fa1-11d2-883f-0016d3cca427";
const HEX32 = "0123456789abcdef0123456789abcdef";

describe("parseLockfile: the shapes real editors write (reference §1)", () => {
	test.each<[string, unknown, LockfileParse]>([
		[
			"Anthropic's VS Code extension: runningInWindows false and a UUID token",
			{
				pid: 4242,
				workspaceFolders: ["/home/dev/proj"],
				ideName: "Visual Studio Code",
				transport: "ws",
				runningInWindows: false,
				authToken: UUID,
			},
			{
				ok: true,
				lockfile: {
					port: 40123,
					pid: 4242,
					workspaceFolders: ["/home/dev/proj"],
					ideName: "Visual Studio Code",
					authToken: UUID,
				},
			},
		],
		[
			"claudecode.nvim: cwd plus LSP folders, 32 hex characters, no runningInWindows",
			{
				pid: 77,
				workspaceFolders: ["/home/dev/proj", "/home/dev/lib"],
				ideName: "Neovim",
				transport: "ws",
				authToken: HEX32,
			},
			{
				ok: true,
				lockfile: {
					port: 40123,
					pid: 77,
					workspaceFolders: ["/home/dev/proj", "/home/dev/lib"],
					ideName: "Neovim",
					authToken: HEX32,
				},
			},
		],
		[
			"claude-code-ide.el: no token",
			{ pid: 900, workspaceFolders: ["/home/dev/proj/"], ideName: "Emacs", transport: "ws" },
			{ ok: true, lockfile: { port: 40123, pid: 900, workspaceFolders: ["/home/dev/proj/"], ideName: "Emacs" } },
		],
		[
			"pi-ide.nvim: the same fields without runningInWindows",
			{ pid: 31, workspaceFolders: ["/home/dev/proj"], ideName: "Neovim", transport: "ws", authToken: UUID },
			{
				ok: true,
				lockfile: { port: 40123, pid: 31, workspaceFolders: ["/home/dev/proj"], ideName: "Neovim", authToken: UUID },
			},
		],
		[
			"only the folders: pid, name, transport and token are optional",
			{ workspaceFolders: [] },
			{ ok: true, lockfile: { port: 40123, workspaceFolders: [] } },
		],
		[
			"unknown fields are ignored",
			{ workspaceFolders: ["/p"], ideName: "Cursor", extra: { nested: true }, port: 1 },
			{ ok: true, lockfile: { port: 40123, workspaceFolders: ["/p"], ideName: "Cursor" } },
		],
		[
			"an empty token is no token",
			{ workspaceFolders: ["/p"], authToken: "" },
			{ ok: true, lockfile: { port: 40123, workspaceFolders: ["/p"] } },
		],
		[
			"relative and Windows folders are dropped, absolute ones kept in order",
			{ workspaceFolders: ["C:\\Users\\dev\\proj", "proj", "/mnt/d/proj", "", "D:/x", "/home/dev/proj"] },
			{ ok: true, lockfile: { port: 40123, workspaceFolders: ["/mnt/d/proj", "/home/dev/proj"] } },
		],
	])("%s", (_name, json, expected) => {
		expect(parseLockfile(40123, JSON.stringify(json))).toEqual(expected);
	});

	test("the port is the file name's, never the JSON's", () => {
		const parsed = parseLockfile(5000, JSON.stringify({ port: 6000, workspaceFolders: [] }));
		expect(parsed).toEqual({ ok: true, lockfile: { port: 5000, workspaceFolders: [] } });
	});

	test(`more than ${MAX_WORKSPACE_FOLDERS} folders: the first ${MAX_WORKSPACE_FOLDERS} are read`, () => {
		const folders = Array.from({ length: 100 }, (_, index) => `/f/${index}`);
		const parsed = parseLockfile(1, JSON.stringify({ workspaceFolders: folders }));
		expect(parsed.ok && parsed.lockfile.workspaceFolders).toEqual(folders.slice(0, 64));
	});

	test("the cap counts absolute folders only: Windows ones before them do not take places", () => {
		const folders = [
			...Array.from({ length: 10 }, (_, i) => `C:\\w${i}`),
			...Array.from({ length: 70 }, (_, i) => `/f/${i}`),
		];
		const parsed = parseLockfile(1, JSON.stringify({ workspaceFolders: folders }));
		expect(parsed.ok && parsed.lockfile.workspaceFolders.length).toBe(64);
		expect(parsed.ok && parsed.lockfile.workspaceFolders[0]).toBe("/f/0");
	});
});

describe("parseLockfile: what is not a usable lockfile gives a reason", () => {
	test.each<[string, string, string]>([
		[
			"not JSON (a legacy folder list)",
			"/home/dev/proj\n/home/dev/lib\n",
			"not JSON (a legacy lockfile, or a torn write)",
		],
		["a torn write", '{"pid":42,"workspaceFol', "not JSON (a legacy lockfile, or a torn write)"],
		["empty", "", "not JSON (a legacy lockfile, or a torn write)"],
		[
			"sse transport",
			JSON.stringify({ workspaceFolders: ["/p"], transport: "sse" }),
			'transport "sse" (pi speaks "ws" only)',
		],
		[
			"a long transport is cut in the reason",
			JSON.stringify({ workspaceFolders: ["/p"], transport: "x".repeat(20) }),
			`transport "${"x".repeat(20)}" (pi speaks "ws" only)`,
		],
		[
			"runningInWindows true",
			JSON.stringify({ workspaceFolders: ["/mnt/c/p"], transport: "ws", runningInWindows: true }),
			"the IDE runs in Windows (pi reads Linux IDEs only)",
		],
	])("%s", (_name, text, reason) => {
		expect(parseLockfile(40123, text)).toEqual({ ok: false, reason });
	});

	test.each<[string, unknown, string]>([
		["null", null, "/"],
		["an array", [], "/"],
		["a string", "hello", "/"],
		["a number", 40123, "/"],
		["no workspaceFolders", { pid: 1 }, "/"],
		["workspaceFolders a string", { workspaceFolders: "/p" }, "/workspaceFolders"],
		["a folder that is a number", { workspaceFolders: ["/p", 7] }, "/workspaceFolders/1"],
		["pid a string", { pid: "42", workspaceFolders: [] }, "/pid"],
		["pid 0", { pid: 0, workspaceFolders: [] }, "/pid"],
		["pid fractional", { pid: 1.5, workspaceFolders: [] }, "/pid"],
		["pid above pid_t", { pid: 2 ** 31, workspaceFolders: [] }, "/pid"],
		["ideName a number", { workspaceFolders: [], ideName: 3 }, "/ideName"],
		["runningInWindows a string", { workspaceFolders: [], runningInWindows: "false" }, "/runningInWindows"],
		["authToken a number", { workspaceFolders: [], authToken: 123 }, "/authToken"],
		["transport a boolean", { workspaceFolders: [], transport: true }, "/transport"],
		["a token over 1000 characters", { workspaceFolders: [], authToken: "a".repeat(1001) }, "/authToken"],
		["over 1024 folders", { workspaceFolders: Array.from({ length: 1025 }, () => "/p") }, "/workspaceFolders"],
	])("wrong type: %s", (_name, json, at) => {
		const parsed = parseLockfile(40123, JSON.stringify(json));
		expect(parsed.ok).toBe(false);
		if (parsed.ok) return;
		expect(parsed.reason.startsWith(`not a lockfile at ${at}: `)).toBe(true);
	});
});

describe("a token is an HTTP header's value: printable ASCII only", () => {
	test.each([
		["a newline", "a\nb"],
		["a non-ASCII letter", "tok€n"],
		["a space", "two words"],
	])("%s: no lockfile pi uses (a reason, not a throw at connect)", (_name, authToken) => {
		const parsed = parseLockfile(40123, JSON.stringify({ workspaceFolders: ["/p"], authToken }));
		expect(parsed.ok).toBe(false);
		expect(parsed.ok ? "" : parsed.reason).toMatch(/^not a lockfile at \/authToken: /);
	});
	test("every real token shape passes", () => {
		for (const authToken of [UUID, HEX32, "base64url_-Token0123456789"])
			expect(parseLockfile(40123, JSON.stringify({ workspaceFolders: ["/p"], authToken })).ok).toBe(true);
	});
});
