import { expect, test } from "vitest";
import { resolveAutoconnect } from "../../src/core/settings.ts";

const off = { "pi-ide": { autoconnect: false } };
const on = { "pi-ide": { autoconnect: true } };

test.each([
	["nothing set", undefined, undefined, true],
	["global off", off, undefined, false],
	["project off", undefined, off, false],
	["project on wins over global off", off, on, true],
	["project off wins over global on", on, off, false],
	["a non-boolean is ignored", { "pi-ide": { autoconnect: "no" } }, undefined, true],
	["a broken section is ignored", { "pi-ide": 5 }, null, true],
])("%s", (_name, global, project, expected) => {
	expect(resolveAutoconnect(global, project)).toBe(expected);
});
