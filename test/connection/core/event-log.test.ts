import { describe, expect, test } from "vitest";
import { appendEvent, eventLine, type IdeEvent, MAX_RECENT_EVENTS } from "../../../src/connection/core/event-log.ts";

describe("event lines", () => {
	test.each<[IdeEvent, string]>([
		[
			{
				kind: "connected",
				label: "nvim 1234",
				why: "auto-connected: the only live editor in tier 0 (cwd equals the project)",
			},
			"12:03:04 connected to nvim 1234: auto-connected: the only live editor in tier 0 (cwd equals the project)",
		],
		[
			{ kind: "disconnected", label: "nvim 1234", why: "process-gone" },
			"12:03:04 disconnected from nvim 1234: process gone, its file left behind",
		],
		[
			{ kind: "disconnected", label: "code 77", why: "file-removed" },
			"12:03:04 disconnected from code 77: file removed (editor quit)",
		],
		[{ kind: "disconnected", label: "nvim 1", why: "ide-off" }, "12:03:04 disconnected from nvim 1: /ide off"],
		[
			{ kind: "rejected", label: "nvim 1", reason: "not valid JSON (truncated or corrupt)" },
			"12:03:04 nvim 1 wrote a state pi cannot use: not valid JSON (truncated or corrupt)",
		],
		[{ kind: "dir-appeared", dir: "/tmp/pi-ide" }, "12:03:04 /tmp/pi-ide appeared; reading it"],
		[{ kind: "dir-gone", dir: "/tmp/pi-ide" }, "12:03:04 /tmp/pi-ide disappeared; looking for it again"],
		[
			{ kind: "dir-untrusted", dir: "/tmp/pi-ide", reason: "/tmp/pi-ide has mode 0777; run: chmod 700 /tmp/pi-ide" },
			"12:03:04 /tmp/pi-ide is not read: /tmp/pi-ide has mode 0777; run: chmod 700 /tmp/pi-ide",
		],
		[{ kind: "connected", label: "nvim\u001b[2J 1", why: "x" }, "12:03:04 connected to nvim 1: x"],
	])("%j", (event, line) => {
		expect(eventLine("12:03:04", event)).toBe(line);
	});

	test(`the log keeps the last ${MAX_RECENT_EVENTS}`, () => {
		let log: string[] = [];
		for (let i = 1; i <= MAX_RECENT_EVENTS + 5; i++) log = appendEvent(log, `event ${i}`);
		expect(log).toHaveLength(MAX_RECENT_EVENTS);
		expect(log[0]).toBe("event 6");
		expect(log.at(-1)).toBe(`event ${MAX_RECENT_EVENTS + 5}`);
	});
});
