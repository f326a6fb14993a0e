import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export const MAIN_TS = `import { greet } from "./util.ts";

interface Order {
	id: string;
	total: number;
	items: string[];
}

export function summarize(orders: Order[]): string {
	const count = orders.length;
	const revenue = orders.reduce((sum, order) => sum + order.total, 0);
	const average = count === 0 ? 0 : revenue / count;
	return \`\${count} orders, \${revenue.toFixed(2)} total, \${average.toFixed(2)} average\`;
}

export function largest(orders: Order[]): Order | undefined {
	return [...orders].sort((a, b) => b.total - a.total)[0];
}

console.log(greet("pi"));
console.log(summarize([{ id: "a", total: 12.5, items: ["tea"] }]));
`;

export const UTIL_TS = `export function greet(name: string): string {
	return \`Hello, \${name}!\`;
}

export function clamp(value: number, low: number, high: number): number {
	return Math.min(high, Math.max(low, value));
}
`;

/** A small project for the demo: real files, so the paths in the editor block exist. */
export function writeSampleProject(project: string): void {
	mkdirSync(join(project, "src"), { recursive: true });
	writeFileSync(join(project, "src", "main.ts"), MAIN_TS);
	writeFileSync(join(project, "src", "util.ts"), UTIL_TS);
	writeFileSync(join(project, "README.md"), "# orders\n\nA tiny sample project for the pi-ide-context demo.\n");
}
