/**
 * Benchmark helper loaded next to the measured extension: `/bench-gc` runs a full garbage collection inside
 * the pi process (started with --expose-gc), so RSS is compared after GC rather than at V8's whim.
 */
import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";

export default function gcCommand(pi: ExtensionAPI): void {
	pi.registerCommand("bench-gc", {
		description: "benchmark only: full GC",
		handler: async () => {
			(globalThis as { gc?: () => void }).gc?.();
		},
	});
}
