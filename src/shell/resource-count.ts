/**
 * Watchers and liveness timers open in this pi process, across every session and module instance (pi 0.73
 * re-imports extensions on `/new`). `/ide status` shows it, so a leak across session replacement is visible.
 */
export interface ResourceCount {
	watchers: number;
	timers: number;
}

const COUNT_KEY = Symbol.for("pi-ide-context.resource-count");

export function resourceCount(): ResourceCount {
	const holder = globalThis as { [COUNT_KEY]?: ResourceCount };
	holder[COUNT_KEY] ??= { watchers: 0, timers: 0 };
	return holder[COUNT_KEY];
}
