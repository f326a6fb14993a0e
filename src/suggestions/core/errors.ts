/**
 * The JSON-RPC error codes a `getSuggestions` answer may carry, as the seed pi-ide replies them (the peer
 * protocol's "Editor-initiated requests"): an editor tells a cancel from a failure by the code alone.
 */

/** The editor's `request_cancelled` arrived first (LSP's RequestCancelled): the editor drops it quietly. */
export const REQUEST_CANCELLED = -32800;

/** Any method pi does not serve. */
export const METHOD_NOT_FOUND = -32601;

/** The params are not a `getSuggestions` request (a wrong type, an over-long path or model). */
export const INVALID_PARAMS = -32602;

/** pi failed on its side (the model call, no model): the editor shows nothing and may ask again. */
export const INTERNAL_ERROR = -32603;
