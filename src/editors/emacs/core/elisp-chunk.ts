/**
 * The frame every chunk of pi's elisp shares (the style of core/elisp.ts `PROBE_ELISP`): a
 * `(lambda (pi-ide-args) ...)` that decodes its one base64-of-JSON argument into `args` (objects as hash tables
 * with string keys, arrays as vectors, `false` as `:json-false`), evaluates `body` and returns base64 of the
 * UTF-8 JSON of its value; any error comes back as `{"error": ...}`, never reaching the server (28.2 would
 * then hold its filter in a `(sit-for 5)`). `inhibit-message` and `message-log-max` are bound around the body:
 * nothing pi runs writes to the echo area or `*Messages*`.
 */
export function elispChunk(body: string): string {
	return `(lambda (pi-ide-args)
  (condition-case pi-ide-error
      (progn
        (require 'json)
        (let* ((inhibit-message t)
               (message-log-max nil)
               (json-object-type 'hash-table)
               (json-array-type 'vector)
               (json-key-type 'string)
               (json-false :json-false)
               (json-null nil)
               (json-encoding-pretty-print nil)
               (json-encoding-object-sort-predicate nil)
               (args (json-read-from-string
                      (decode-coding-string (base64-decode-string pi-ide-args) 'utf-8 t))))
          (base64-encode-string
           (encode-coding-string
            (json-encode
${indent(body.trim(), 12)})
            'utf-8 t)
           t)))
    (error
     (base64-encode-string
      (encode-coding-string
       (condition-case nil
           (json-encode (list (cons "error" (error-message-string pi-ide-error))))
         (error "{\\"error\\":\\"unreadable\\"}"))
       'utf-8 t)
      t))))`;
}

/** Every line of `text` moved right by `columns` spaces (the chunk stays readable in docs/security.md). */
export function indent(text: string, columns: number): string {
	const pad = " ".repeat(columns);
	return text
		.split("\n")
		.map((line) => (line === "" ? line : pad + line))
		.join("\n");
}
