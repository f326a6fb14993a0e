import { describe, expect, test } from "vitest";
import type { EditorReading, SourceEvent } from "../../../src/editors/core/editor.ts";
import { pidKey } from "../../../src/editors/core/editor-key.ts";
import { SessionTable } from "../../../src/editors/kit/session-table.ts";

/** A connection as the table sees one: open or not, a reading or a problem. */
class FakeSession {
	isOpen = true;
	readingNow?: EditorReading;
	problem?: string;
	closes = 0;
	constructor(readonly found: { pid: number }) {}
	reading() {
		return this.readingNow;
	}
	report() {
		return { ...(this.problem !== undefined && { problem: this.problem }) };
	}
	async close() {
		this.closes++;
		this.isOpen = false;
	}
}

const readingOf = (pid: number): EditorReading =>
	({ origin: "neovim", pid, writtenAtSeconds: 100 + pid }) as unknown as EditorReading;

function table() {
	const events: SourceEvent[] = [];
	let changes = 0;
	const sessions = new SessionTable<FakeSession, { reason: string }>("neovim", {
		label: (pid) => `nvim ${pid}`,
		event: (event) => events.push(event),
		changed: () => changes++,
	});
	return { sessions, events, changes: () => changes };
}

describe("the sessions a source holds, by pid", () => {
	test("one being opened is kept but gives no facts; opened, it does, with its reading", () => {
		const { sessions, events } = table();
		const session = new FakeSession({ pid: 7 });
		sessions.add(session);
		expect(sessions.facts(pidKey(7), (s) => s.reading())).toBeUndefined();
		session.readingNow = readingOf(7);
		sessions.opened(session, "/run/nvim.7.0");
		expect(sessions.facts(pidKey(7), (s) => s.reading())).toEqual({
			origin: "neovim",
			listed: true,
			alive: true,
			reading: readingOf(7),
			writtenAtSeconds: 107,
		});
		expect(events).toEqual([{ kind: "app-found", label: "nvim 7", detail: "/run/nvim.7.0" }]);
	});

	test("a rejected state keeps the last valid reading for the guard, with the reason", () => {
		const { sessions } = table();
		const session = new FakeSession({ pid: 7 });
		sessions.add(session);
		session.readingNow = readingOf(7);
		sessions.opened(session, "s");
		sessions.readingChanged(session);
		session.readingNow = undefined;
		session.problem = "unexpected state";
		sessions.readingChanged(session);
		expect(sessions.facts(pidKey(7), (s) => s.reading())).toMatchObject({
			rejection: "unexpected state",
			lastValid: readingOf(7),
		});
	});

	test("closed: gone (told once), and only one that was counted", () => {
		const { sessions, events, changes } = table();
		const counted = new FakeSession({ pid: 7 });
		const opening = new FakeSession({ pid: 8 });
		sessions.add(counted);
		sessions.opened(counted, "s");
		sessions.add(opening);
		sessions.closedBy(counted);
		sessions.closedBy(counted);
		sessions.closedBy(opening);
		expect(sessions.facts(pidKey(7), (s) => s.reading())).toEqual({ origin: "neovim", listed: false, alive: false });
		expect(events.filter((event) => event.kind === "app-gone")).toEqual([{ kind: "app-gone", label: "nvim 7" }]);
		expect(changes()).toBe(1);
		expect(sessions.sessions.has(8)).toBe(true);
	});

	test("one open per pid at a time: a second asker gets the first one's answer", async () => {
		const { sessions } = table();
		let opens = 0;
		let release = () => {};
		const open = () => {
			opens++;
			return new Promise<string>((settle) => {
				release = () => settle("opened");
			});
		};
		const first = sessions.openOnce(7, open);
		const second = sessions.openOnce(7, open);
		release();
		expect(await Promise.all([first, second])).toEqual(["opened", "opened"]);
		expect(opens).toBe(1);
		await sessions.openOnce(7, async () => "again");
		expect(opens).toBe(1);
	});

	test("failures: kept while the pid runs, cleared by hand, none after close", async () => {
		const { sessions } = table();
		sessions.fail(7, { reason: "a" });
		sessions.fail(8, { reason: "b" });
		sessions.keepFailuresOf(new Set([8]));
		expect([...sessions.failures.keys()]).toEqual([8]);
		sessions.clearFailures();
		expect(sessions.failures.size).toBe(0);
		const session = new FakeSession({ pid: 9 });
		sessions.add(session);
		await sessions.close();
		expect(session.closes).toBe(1);
		sessions.fail(9, { reason: "late" });
		expect(sessions.failures.size).toBe(0);
		expect(sessions.closed).toBe(true);
	});

	test("a session that did not open is dropped, unless a newer one took its pid", () => {
		const { sessions } = table();
		const old = new FakeSession({ pid: 7 });
		const newer = new FakeSession({ pid: 7 });
		sessions.add(old);
		sessions.add(newer);
		sessions.notOpened(old);
		expect(sessions.sessions.get(7)).toBe(newer);
		sessions.notOpened(newer);
		expect(sessions.sessions.has(7)).toBe(false);
	});
});
