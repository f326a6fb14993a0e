import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { EmacsConnections } from "../../../src/editors/emacs/connections.ts";
import { PushListener } from "../../../src/editors/emacs/push/push-listener.ts";
import { EmacsSession } from "../../../src/editors/emacs/session.ts";
import { systemClock } from "../../../src/shared/clock.ts";
import { CleanupScope } from "../../support/cleanup-scope.ts";
import { FakeEmacsServer, fakeSnapshot } from "../../support/fake-emacs-server.ts";
import { processOfEmacs, startOfProcess } from "../../support/process-facts.ts";
import { tempDir } from "../../support/temp-dir.ts";
import { waitFor } from "../../support/wait-for.ts";

/**
 * Orders a real Emacs shows only by chance, against a fake server of pi's chunks (test/support): a read
 * answered after a push made later, two connects of one Emacs at once. The real Emacs: session.e2e.test.ts.
 */
const uid = process.getuid?.() ?? 0;

describe("an Emacs session's orders (a fake server, no Emacs)", () => {
	const scope = new CleanupScope();
	let listener: PushListener;
	let fake: FakeEmacsServer;
	let file: string;

	beforeEach(async () => {
		const dir = tempDir("emacs-order");
		scope.defer(dir.cleanup);
		const opened = await PushListener.open({ XDG_RUNTIME_DIR: dir.path }, uid, startOfProcess());
		if (typeof opened === "string") throw new Error(opened);
		listener = opened;
		scope.defer(() => listener.close());
		file = join(dir.path, "main.py");
		// The pid the probe answers as and the session reads /proc of: this process's, so /proc has it.
		fake = await FakeEmacsServer.start(dir.path, process.pid, file);
		scope.defer(() => fake.close());
	});
	afterEach(() => scope.close());

	const found = () => ({ pid: fake.pid, startSeconds: 1, daemon: false, socket: fake.socket, refused: [] });

	async function openSession(): Promise<EmacsSession> {
		const session = new EmacsSession(found(), {
			clock: systemClock,
			listener,
			processOf: processOfEmacs(),
			prefix: `pi-ide-${process.pid}-1-`,
			changed: () => {},
			closed: () => {},
		});
		scope.defer(() => session.close());
		expect(await session.open()).toBe("open");
		return session;
	}

	const cursorLine = (session: EmacsSession) => session.reading()?.state.active_buffer?.cursor?.line;

	test("a read answered after a push came keeps the push: the read may have been made before it", async () => {
		const session = await openSession();
		expect(cursorLine(session)).toBe(1);
		const release = fake.hold("STATE_ELISP");
		const reading = session.refresh();
		await waitFor("the read asked", () => fake.count("STATE_ELISP") === 2);
		fake.push(fakeSnapshot(file, 5));
		await waitFor("the push taken", () => cursorLine(session) === 5);
		fake.state = fakeSnapshot(file, 2);
		release();
		await reading;
		expect(cursorLine(session)).toBe(5);
		// No push meanwhile (`/ide` re-reading one that does not push): the read is taken.
		fake.state = fakeSnapshot(file, 3);
		await session.refresh();
		expect(cursorLine(session)).toBe(3);
	});

	test("pushes while pi wants none (a late 'on' that ran after the 'off'): 'off' asked again", async () => {
		const session = await openSession();
		expect(session.isPushing).toBe(false);
		// The frames the probe counted: not the frame hooks' push, which comes with pushes off too.
		fake.push(fakeSnapshot(file, 4));
		await waitFor("off asked again", () => fake.count("SET_PUSHING_ELISP") === 1);
		fake.push({ ...fakeSnapshot(file, 4), frames: 2 });
		await waitFor("the frame's push taken", () => session.report().frames === 2);
		await new Promise((settle) => setTimeout(settle, 50));
		expect(fake.count("SET_PUSHING_ELISP")).toBe(1);
	});

	test("two connects of one Emacs at once (a scan during a re-check): one session, one install", async () => {
		const events: string[] = [];
		const connections = new EmacsConnections({
			clock: systemClock,
			processOf: processOfEmacs(),
			event: (event) => events.push(event.kind),
			changed: () => {},
		});
		scope.defer(() => connections.table.close());
		const release = fake.hold("PROBE_ELISP");
		const first = connections.connect(found(), async () => listener);
		await waitFor("the probe asked", () => fake.count("PROBE_ELISP") === 1);
		const second = connections.connect(found(), async () => listener);
		await new Promise((settle) => setTimeout(settle, 50));
		release();
		await Promise.all([first, second]);
		expect(fake.asked.filter((chunk) => chunk !== "STATE_ELISP")).toEqual(["PROBE_ELISP", "INSTALL_ELISP"]);
		expect(connections.table.openSessions()).toHaveLength(1);
		expect(events).toEqual(["app-found"]);
		// Connected: the next scan's connect does nothing.
		await connections.connect(found(), async () => listener);
		expect(fake.count("PROBE_ELISP")).toBe(1);
	});
});
