import { describe, expect, test } from "vitest";
import { RejectionNotices } from "../../src/connection/rejection-notices.ts";
import type { EditorFacts } from "../../src/editors/core/editor.ts";

const rejected = (rejection: string): EditorFacts => ({ origin: "state-file", listed: true, alive: true, rejection });
const connected = { key: "pid:7", label: "nvim 7" };

describe("a rejected state is told once per editor and reason", () => {
	test("the same reason again is not told again; another reason is", () => {
		const told: string[] = [];
		const notices = new RejectionNotices((label, reason) => told.push(`${label}: ${reason}`));
		notices.settled("pid:7", connected, rejected("not valid JSON"));
		notices.settled("pid:7", connected, rejected("not valid JSON"));
		notices.settled("pid:7", connected, rejected("invalid state: cwd"));
		expect(told).toEqual(["nvim 7: not valid JSON", "nvim 7: invalid state: cwd"]);
	});

	test("only the connected editor's, only while it is there, only while nothing valid stands", () => {
		const told: string[] = [];
		const notices = new RejectionNotices((label, reason) => told.push(`${label}: ${reason}`));
		notices.settled("pid:8", connected, rejected("bad"));
		notices.settled("pid:7", undefined, rejected("bad"));
		notices.settled("pid:7", connected, { ...rejected("bad"), alive: false });
		notices.settled("pid:7", connected, { origin: "state-file", listed: true, alive: true });
		expect(told).toEqual([]);
	});

	test("the connection ended: what was told is forgotten (nothing grows per editor), and told anew", () => {
		const told: string[] = [];
		const notices = new RejectionNotices((label, reason) => told.push(`${label}: ${reason}`));
		notices.settled("pid:7", connected, rejected("bad"));
		notices.forget("pid:7");
		expect(notices.size).toBe(0);
		notices.settled("pid:7", connected, rejected("bad"));
		expect(told).toEqual(["nvim 7: bad", "nvim 7: bad"]);
	});
});
