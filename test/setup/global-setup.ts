import { installPi1Toolchain } from "../support/pi1-toolchain.ts";

/** Runs once before any test file: the pi 1.x suites need their toolchain in the cache. */
export default function setup(): void {
	const toolchain = installPi1Toolchain((message) => process.stderr.write(`[setup] ${message}\n`));
	if (toolchain.skipReason) process.stderr.write(`[setup] pi 1.x tests will be skipped: ${toolchain.skipReason}\n`);
}
