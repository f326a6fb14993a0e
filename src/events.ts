/**
 * The public event of pi-ide-context, for other extensions: `import { EDITOR_EVENT_CHANNEL, type EditorEvent }
 * from "pi-ide-context/events"`, then `pi.events.on(EDITOR_EVENT_CHANNEL, (editor: EditorEvent | undefined) => …)`.
 */

/** pi event-bus channel: the connected editor whenever it or its state changes, `undefined` when none is. */
export const EDITOR_EVENT_CHANNEL = "pi-ide-context:editor";

/** The payload on `EDITOR_EVENT_CHANNEL`. Strings from the editor are sanitised for display, not escaped. */
export interface EditorEvent {
	/** The editor's key from its source (`pid:1234` for a protocol state file): stable while it runs. */
	key: string;
	pid: number;
	app: string;
	/** The active file as an absolute path, or undefined when the editor shows no named buffer. */
	file: string | undefined;
	/** The editor's own `timestamp` of its latest state (unix seconds). */
	timestamp: number;
	/** The widget line pi shows for it (without the review's end), or undefined when none is shown. */
	widget: string | undefined;
	/** The model's `write` and `edit` are shown for review before they land (`/ide review`, `"review": true`). */
	review: boolean;
}
