/**
 * What outlives a session inside one pi process: `/new`, `/resume`, `/fork` and `/reload` replace the
 * extension instance (pi 0.73 even re-imports the module), so this lives on globalThis.
 */
export interface ConnectionMemory {
	connected?: { pid: number; label: string; why: string };
	/** `/ide off` (or the picker's Disconnect) pauses auto-connect until the user picks an editor. */
	suppressed: boolean;
}

const MEMORY_KEY = Symbol.for("pi-ide-context.connection-memory");

type MemoryStore = Map<string, ConnectionMemory>;

function store(): MemoryStore {
	const holder = globalThis as { [MEMORY_KEY]?: MemoryStore };
	holder[MEMORY_KEY] ??= new Map();
	return holder[MEMORY_KEY];
}

/** Keyed by state dir and project: a connection only means something for the same pair. */
export function connectionMemory(stateDir: string, projectDir: string): ConnectionMemory {
	const key = `${stateDir}\u0000${projectDir}`;
	const memories = store();
	let memory = memories.get(key);
	if (!memory) {
		memory = { suppressed: false };
		memories.set(key, memory);
	}
	return memory;
}
