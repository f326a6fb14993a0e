import type { EditorAsks } from "../editors/editor-asks.ts";
import type { EditorRequests, NoticeLevel } from "../editors/editor-source.ts";
import type { Mention } from "../editors/ide-servers/core/status.ts";
import type { EditorEvent } from "../events.ts";
import type { IdeSettings } from "../settings/core/settings.ts";
import type { SettingsFiles } from "../settings/settings-files.ts";
import type { Clock } from "../shared/core/clock.ts";
import type { ConnectionMemory } from "../shared/process-memory.ts";
import type { StatusEnvironment } from "./core/status-report.ts";
import type { SourcesConfig } from "./editor-sources.ts";

/** What the controller works from: where editors are read (SourcesConfig), for which project, with which settings. */
export interface ControllerConfig extends SourcesConfig {
	cwd: string;
	/** The environment `/ide status` reports (which variables decided where pi looks). */
	environment?: Omit<StatusEnvironment, "uid">;
	memory: ConnectionMemory;
	settings: IdeSettings;
	/** Where the settings came from, for `/ide status`. */
	settingsFiles?: SettingsFiles;
	/** Time and timers; tests hand in a clock they move by hand. The system clock by default. */
	clock?: Clock;
	/** Review of the model's edits is on now (review/ decides; the widget and the event say it). Off by default. */
	reviewOn?: () => boolean;
}

/** Where the controller's results go: pi's widget, pi's event bus, pi's notices. */
export interface ControllerOutputs {
	showWidget: (text: string | undefined) => void;
	announce?: (editor: EditorEvent | undefined) => void;
	notify: (message: string, level: NoticeLevel) => void;
	/** The connected editor's own "send to agent" (an IDE server's `at_mentioned`): a reference for pi's input. */
	mentioned?: (mention: Mention) => void;
	/** What answers editors' own requests (inline suggestions): a feature after the connection. */
	requests?: EditorRequests;
	/** Where editors' asks go (asks/): a feature after the connection. */
	asks?: EditorAsks;
}
