/**
 * `node --import jiti/register fake-ide-server-runner.ts <user> <options JSON>`: a FakeIdeServer in a process of
 * its own that drops root to `<user>` once its modules are loaded and before it listens, so the port belongs to
 * that user (loading first, the checkout need not be readable by it). Writes no lockfile: its parent does. Prints
 * `{"port","pid"}` once listening, and `{"upgrades"}` when its stdin says `upgrades`; stops on SIGTERM or when its
 * stdin closes (the parent went away).
 */
import { type FakeEditorState, FakeIdeServer, type FakeIdeServerOptions } from "./fake-ide-server.ts";

const [user, json] = process.argv.slice(2);
if (!user || !json) throw new Error("usage: fake-ide-server-runner.ts <user> <options JSON>");
const { editor, ...options } = JSON.parse(json) as FakeIdeServerOptions & { editor?: FakeEditorState };
process.setgroups?.([]);
process.setgid?.(user === "nobody" ? "nogroup" : user);
process.setuid?.(user);
if (process.getuid?.() === 0) throw new Error(`still root after dropping to ${user}`);
const server = await FakeIdeServer.start({ ...options, writeLockfile: false });
if (editor) server.setEditor(editor, { push: false });
const stop = () => void server.stop().then(() => process.exit(0));
process.once("SIGTERM", stop);
process.stdin.once("end", stop).resume();
// `upgrades` on stdin: how many upgrade requests the server saw, as one JSON line.
process.stdin.on("data", (chunk: Buffer) => {
	if (chunk.toString().includes("upgrades"))
		process.stdout.write(`${JSON.stringify({ upgrades: server.upgrades.length })}\n`);
});
process.stdout.write(`${JSON.stringify({ port: server.port, pid: process.pid })}\n`);
