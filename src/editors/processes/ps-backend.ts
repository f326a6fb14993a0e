import { runInBackground } from "../../shared/background.ts";
import { EMACS_SCAN_DELAYS_MS, NEOVIM_SCAN_DELAYS_MS } from "../../shared/core/timing.ts";
import type { ProcessFactsBackend } from "./core/backend-choice.ts";
import { pathsBoundTwice } from "./core/bound-twice.ts";
import {
	acceptedConnectionUid,
	isLoopbackAddress,
	type LsofProcess,
	listeningUnixPaths,
	lsofRevision,
	nameOfDescriptor,
	parseLsofFields,
	tcpEnd,
} from "./core/lsof-fields.ts";
import { checkPortListeners, type PortListener } from "./core/port-trust.ts";
import { ancestors, descendants } from "./core/proc-stat.ts";
import {
	environmentWords,
	type ListedProcess,
	PS_LISTING_COLUMNS,
	parseCommandLines,
	parsePsListing,
} from "./core/ps-listing.ts";
import { PidRecords } from "./pid-records.ts";
import {
	type ListeningUnixPaths,
	type NamedProcess,
	type PortHolder,
	type ProcessFacts,
	type ProcessFactsStatus,
	TEST_SCOPE_VARIABLE,
} from "./process-facts.ts";
import { runTool } from "./process-tools.ts";

/**
 * Scans asking at once (every source looks at start) share one listing this young: younger than the wait of a
 * scan after a dir event, so that scan never takes a listing made before the process that made the event ran.
 */
const LISTING_SHARED_MS = Math.min(NEOVIM_SCAN_DELAYS_MS[0], EMACS_SCAN_DELAYS_MS[0]) - 10;
/** Pids whose start `ps` could not tell, remembered so that they are not asked again (a bound, not a cache size). */
const MAX_UNANSWERED_PIDS = 1024;
/** Facts that could not be known, kept for `/ide status`. */
const MAX_UNKNOWN_FACTS = 5;
const LSOF_BASE = ["-nP", "-w"] as const;
const ROOT_UID = 0;

/**
 * The process facts of `ps` and `lsof` (macOS; a Linux whose `/proc` pi cannot read): one `ps` lists every
 * process for a scan, `lsof` is asked about the pids that need it (`-p`), and only a port's owner scans all.
 * Nothing here runs on a timer or per prompt: the synchronous questions are answered from `PidRecords`.
 */
export class PsBackend implements ProcessFacts {
	readonly backend: ProcessFactsBackend = "ps";
	private readonly records = new PidRecords();
	private shared: { atMs: number; listing: Promise<ListedProcess[] | string> } | undefined;
	private readonly pendingStarts = new Set<number>();
	private readonly unanswered = new Set<number>();
	private lastScanMs: number | undefined;
	private lsofVersion: string | undefined;
	private versionAsked = false;
	private readonly unknown: string[] = [];

	constructor(
		private readonly why: string,
		private readonly platform: string,
		private readonly nowMs: () => number,
	) {}

	async named(isName: (name: string) => boolean, uid: number, testScope: string | undefined) {
		const listing = await this.listing();
		if (typeof listing === "string") return listing;
		const mine = listing.filter((process) => isName(process.name) && process.uid === uid && !process.exited);
		if (testScope === undefined || mine.length === 0) return mine.map(named);
		const scopes = await this.environments(
			mine.map((process) => process.pid),
			[TEST_SCOPE_VARIABLE],
		);
		return mine.filter((process) => scopes.get(process.pid)?.[TEST_SCOPE_VARIABLE] === testScope).map(named);
	}

	executables(pids: readonly number[]) {
		return this.descriptorNames(pids, "txt");
	}

	async launchArgs(pids: readonly number[], maxArgs: number) {
		if (pids.length === 0) return new Map<number, string[]>();
		const answer = await runTool("ps", ["-ww", "-o", "pid=,command=", "-p", pids.join(",")]);
		return answer.ok ? parseCommandLines(answer.text, maxArgs) : this.noted(new Map<number, string[]>(), answer.reason);
	}

	workingDirs(pids: readonly number[]) {
		return this.descriptorNames(pids, "cwd");
	}

	async listeningUnixPaths(pids: readonly number[], everyProcess = false): Promise<ListeningUnixPaths> {
		const byPid = new Map<number, string[]>(pids.map((pid) => [pid, []]));
		if (pids.length === 0) return { byPid, heldTwice: new Set() };
		const holders = await this.lsof(everyProcess ? ["-U", "-FpfnT"] : ["-a", "-U", "-p", pids.join(","), "-FpfnT"]);
		const bindings = holders.flatMap((process) => {
			const paths = listeningUnixPaths(process);
			if (byPid.has(process.pid)) byPid.set(process.pid, paths);
			return paths.map((path) => [process.pid, path] as const);
		});
		return { byPid, heldTwice: pathsBoundTwice(bindings) };
	}

	async listeningTcpPorts(pid: number) {
		const files = (await this.lsof(["-a", "-p", String(pid), "-iTCP", "-sTCP:LISTEN", "-Fpfn"])).flatMap(
			(process) => process.files,
		);
		const ports = files.map((file) => tcpEnd(file.name)?.port).filter((port): port is number => port !== undefined);
		return [...new Set(ports)].sort((a, b) => a - b);
	}

	async portHolder(port: number, nearPid: number | undefined, uid: number): Promise<PortHolder> {
		const listing = await this.listing();
		const parents = typeof listing === "string" ? new Map() : new Map(listing.map((p) => [p.pid, p.parentPid]));
		const near = nearPid === undefined ? [] : [nearPid, ...descendants(nearPid, parents)];
		const listen = [`-iTCP:${port}`, "-sTCP:LISTEN", "-Fpufn"];
		// `-i` alone looks at every process: the lockfile's own pids first.
		let holders = near.length > 0 ? await this.lsof(["-a", "-p", near.join(","), ...listen]) : [];
		if (!holders.some((process) => process.uid === uid)) holders = await this.lsof(listen);
		const listeners = portListeners(holders, port);
		// lsof run by root sees every process: nothing shown is nothing listening. Run by a user it sees only
		// that user's: another user's listener is invisible, so the owner is unknown and nothing is connected.
		if (listeners.length === 0 && uid !== ROOT_UID)
			return this.noted(
				`owner of port ${port} unknown: lsof shows no process of yours listening (another user's is invisible without root)`,
			);
		const trust = checkPortListeners(port, listeners, uid);
		if (!trust.ok) return trust.reason;
		const holder = holders.find((process) => process.uid === uid);
		const startSeconds = holder && (await this.startOf(holder.pid));
		return holder && startSeconds !== undefined
			? { pid: holder.pid, startSeconds }
			: `no process of yours holds port ${port}'s socket`;
	}

	async stillHeldBy(port: number, holderPid: number, uid: number) {
		const holders = await this.lsof(["-a", "-p", String(holderPid), `-iTCP:${port}`, "-sTCP:LISTEN", "-Fpufn"]);
		const listeners = portListeners(holders, port);
		if (listeners.length === 0) return `pid ${holderPid} no longer holds port ${port}`;
		const trust = checkPortListeners(port, listeners, uid);
		return trust.ok ? undefined : trust.reason;
	}

	/**
	 * The server's end of pi's connection as soon as it is accepted; before that (lsof sees no socket not yet
	 * accepted) the owner of the port's listener, which took it.
	 */
	async connectionServerUid(serverPort: number, clientPort: number) {
		const accepted = acceptedConnectionUid(await this.lsof([`-iTCP:${clientPort}`, "-Fpufn"]), serverPort, clientPort);
		if (accepted !== undefined) return accepted;
		const uids = new Set(
			portListeners(await this.lsof([`-iTCP:${serverPort}`, "-sTCP:LISTEN", "-Fpufn"]), serverPort).map((l) => l.uid),
		);
		return uids.size === 1 ? [...uids][0] : this.noted(undefined, `owner of port ${serverPort} unknown to lsof`);
	}

	async ancestors(pid: number) {
		const listing = await this.listing();
		if (typeof listing === "string") return [];
		const parentOf = new Map(listing.map((process) => [process.pid, process.parentPid]));
		return ancestors(pid, (child) => parentOf.get(child));
	}

	/** From the pid's record when a listing or an earlier answer made one (no spawn), else asked of `ps`. */
	async startOf(pid: number) {
		if (!Number.isSafeInteger(pid) || pid <= 0) return undefined;
		const recorded = this.records.startOf(pid);
		if (recorded !== undefined) return recorded;
		const answer = await runTool("ps", ["-ww", "-o", PS_LISTING_COLUMNS, "-p", String(pid)]);
		if (!answer.ok) return this.noted(undefined, answer.reason);
		const listed = parsePsListing(answer.text).processes.find((process) => process.pid === pid && !process.exited);
		if (listed) this.records.note(pid, listed.startSeconds);
		return listed?.startSeconds;
	}

	runsNow(pid: number, startSeconds?: number): boolean {
		return this.records.runs(pid, startSeconds);
	}

	/**
	 * Not recorded yet: asked in the background (once per pid), and `learned` told when the answer is in. A pid
	 * `ps` could not tell is not asked again (until a listing names it): no answer never turns into a loop.
	 */
	knownStart(pid: number, learned?: () => void): number | "asking" | undefined {
		const known = this.records.startOf(pid);
		if (known !== undefined || this.unanswered.has(pid)) return known;
		if (this.pendingStarts.has(pid)) return "asking";
		this.pendingStarts.add(pid);
		// In the background: a throw of `learned` is recorded for `/ide status`, never an unhandled rejection.
		void runInBackground("process start", async () => {
			const start = await this.startOf(pid);
			this.pendingStarts.delete(pid);
			if (start === undefined) {
				if (this.unanswered.size >= MAX_UNANSWERED_PIDS) this.unanswered.clear();
				this.unanswered.add(pid);
			}
			learned?.();
		});
		return "asking";
	}

	async learnStarts(pids: readonly number[]): Promise<void> {
		const unknown = pids.filter(
			(pid) => Number.isSafeInteger(pid) && pid > 0 && this.records.startOf(pid) === undefined,
		);
		if (unknown.length === 0) return;
		const answer = await runTool("ps", ["-ww", "-o", PS_LISTING_COLUMNS, "-p", unknown.join(",")]);
		if (!answer.ok) return void this.noted(undefined, answer.reason);
		for (const listed of parsePsListing(answer.text).processes)
			if (!listed.exited) this.records.note(listed.pid, listed.startSeconds);
	}

	status(): ProcessFactsStatus {
		return {
			backend: this.backend,
			why: this.why,
			...(this.lsofVersion !== undefined && { lsofVersion: this.lsofVersion }),
			...(this.lastScanMs !== undefined && { lastScanMs: this.lastScanMs }),
			unknown: [...this.unknown],
		};
	}

	/** One `ps` for every process, shared by the scans asking at once; every pid's start recorded. */
	private listing(): Promise<ListedProcess[] | string> {
		const now = this.nowMs();
		if (this.shared && now - this.shared.atMs < LISTING_SHARED_MS) return this.shared.listing;
		const listing = runTool("ps", ["-A", "-ww", "-o", PS_LISTING_COLUMNS]).then((answer) => {
			this.lastScanMs = this.nowMs() - now;
			if (!answer.ok) return this.noted(answer.reason, answer.reason);
			const { processes, unreadable } = parsePsListing(answer.text);
			if (processes.length === 0) return this.noted("ps printed no process line pi can read");
			if (unreadable > 0) this.noted(undefined, `${unreadable} lines of ps's listing were of another shape: skipped`);
			for (const process of processes) {
				if (process.exited) continue;
				this.records.note(process.pid, process.startSeconds);
				this.unanswered.delete(process.pid);
			}
			return processes;
		});
		this.shared = { atMs: now, listing };
		return listing;
	}

	/** The variables `names` of each pid's environment, one `ps` for all (procps `e`, macOS `-E`). */
	async environments(pids: readonly number[], names: readonly string[]) {
		const found = new Map<number, Record<string, string> | undefined>();
		if (pids.length === 0) return found;
		const args = this.platform === "linux" ? ["eww", "-o", "pid=,command="] : ["-E", "-ww", "-o", "pid=,command="];
		const answer = await runTool("ps", [...args, "-p", pids.join(",")]);
		if (!answer.ok) return this.noted(found, answer.reason);
		for (const [pid, words] of parseCommandLines(answer.text, Number.POSITIVE_INFINITY))
			found.set(pid, environmentWords(words, names));
		return found;
	}

	/** The first path of one kind of descriptor (`txt`: the executable comes first; `cwd`) of each pid. */
	private async descriptorNames(pids: readonly number[], descriptor: "txt" | "cwd") {
		const found = new Map<number, string>();
		if (pids.length === 0) return found;
		for (const process of await this.lsof(["-a", "-p", pids.join(","), "-d", descriptor, "-Fpfn"])) {
			const name = nameOfDescriptor(process, descriptor);
			if (name !== undefined) found.set(process.pid, name);
		}
		return found;
	}

	private async lsof(args: readonly string[]): Promise<LsofProcess[]> {
		if (!this.versionAsked) {
			this.versionAsked = true;
			void runTool("lsof", ["-v"]).then((answer) => {
				if (answer.ok) this.lsofVersion = lsofRevision(`${answer.text}\n${answer.stderr}`);
			});
		}
		const answer = await runTool("lsof", [...LSOF_BASE, ...args]);
		return answer.ok ? parseLsofFields(answer.text) : this.noted([], answer.reason);
	}

	/** `fact` told to `/ide status` (newest last, a few) and `value` returned. */
	private noted<T>(value: T, fact?: string): T {
		const said = fact ?? (typeof value === "string" ? value : undefined);
		if (said && this.unknown.at(-1) !== said) {
			this.unknown.push(said);
			if (this.unknown.length > MAX_UNKNOWN_FACTS) this.unknown.shift();
		}
		return value;
	}
}

function named(process: ListedProcess): NamedProcess {
	return { pid: process.pid, startSeconds: process.startSeconds, name: process.name };
}

/** The loopback (or not) listeners on `port` among lsof's answer, with their owners' uids. */
function portListeners(processes: readonly LsofProcess[], port: number): PortListener[] {
	return processes.flatMap((process) =>
		process.files
			.map((file) => tcpEnd(file.name))
			.filter((end) => end?.port === port && process.uid !== undefined)
			.map((end) => ({ loopback: isLoopbackAddress(end?.address ?? ""), uid: process.uid as number })),
	);
}
