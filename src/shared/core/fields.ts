/** A JSON object's fields, as untrusted input is looked at before a schema or a check reads one field. */
export type Fields = Record<string, unknown>;

/** A plain object (not null, not an array): what a field-by-field check may read. */
export const isFields = (value: unknown): value is Fields =>
	typeof value === "object" && value !== null && !Array.isArray(value);
