import type { SourceHooks } from "../../src/editors/editor-source.ts";
import { systemClock } from "../../src/shared/clock.ts";

/** A source's hooks as a test gives them: the system clock and nothing heard, but what `overrides` listens to. */
export function sourceHooks(overrides: Partial<SourceHooks> = {}): SourceHooks {
	return {
		clock: systemClock,
		changed: () => {},
		event: () => {},
		notify: () => {},
		settled: () => {},
		...overrides,
	};
}
