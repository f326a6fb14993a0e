import { afterEach, describe, expect, test } from "vitest";
import { suggestionStanding } from "../../src/settings/core/settings.ts";
import { suggestionsMemory } from "../../src/shared/process-memory.ts";
import { forgetProcessMemory, type ServiceRig, serviceRig } from "./service-fixture.ts";

/**
 * pi's own editors (Neovim's ghost text) ask only when suggestions are on, never in the default "asked-only";
 * `/ide suggestions on|off` tells the editors' side at once.
 */
describe("the standing pi's own editors read", () => {
	let rig: ServiceRig | undefined;
	afterEach(async () => {
		await rig?.close();
		rig = undefined;
		forgetProcessMemory();
	});

	test.each([
		["asked-only (the default)", { mode: "asked-only", source: "default" }, true, false],
		["on", { mode: "on", source: "global" }, true, true],
		["off", { mode: "off", source: "project" }, false, false],
	] as const)("%s: wanted %s, own editors %s", async (_name, standing, wanted, own) => {
		rig = await serviceRig();
		rig.now.standing = standing;
		const editors = rig.service.forEditors();
		expect(editors.wanted()).toBe(wanted);
		expect(editors.ownEditors()).toBe(own);
	});

	test("/ide suggestions on|off: the override kept, every listener told, a removed one no more", async () => {
		rig = await serviceRig({
			standing: () => suggestionStanding({ mode: "asked-only", source: "default" }, suggestionsMemory().override),
		});
		const editors = rig.service.forEditors();
		const told: string[] = [];
		const stop = editors.onStandingChange(() => told.push("first"));
		editors.onStandingChange(() => told.push("second"));
		expect(rig.service.setForProcess(true)).toContain("inline suggestions on for this pi process");
		expect(editors.ownEditors()).toBe(true);
		await new Promise((done) => setImmediate(done));
		expect(told.sort()).toEqual(["first", "second"]);
		stop();
		rig.service.setForProcess(false);
		expect(editors.ownEditors()).toBe(false);
		await new Promise((done) => setImmediate(done));
		expect(told.sort()).toEqual(["first", "second", "second"]);
	});
});
