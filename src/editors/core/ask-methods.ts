/** The messages an editor sends pi's asks (asks/ checks their params, never a source), by method. */
export const ASK_METHODS = ["ask", "add", "stop", "reply", "replyClosed"] as const;
export type AskMethod = (typeof ASK_METHODS)[number];

export const isAskMethod = (method: string): method is AskMethod => (ASK_METHODS as readonly string[]).includes(method);

/** `@buffers` names at most this many files (the editor lists no more; pi's check refuses more). */
export const MAX_LISTED_BUFFERS = 50;
