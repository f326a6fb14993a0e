/**
 * How far the frame moves its body right: little, as every space is two characters on the wire (`&_`);
 * test/support/elisp-quotes.ts takes the body back out of a chunk by it.
 */
export const CHUNK_BODY_COLUMNS = 2;

/**
 * The frame every chunk of pi's elisp shares (core/elisp/probe-elisp.ts's probe, the state, the install, the review's): a
 * `(lambda (pi-ide-args) ...)` that decodes its one base64-of-JSON argument into `args` (objects as hash tables
 * with string keys, arrays as vectors, `false` as `:json-false`), evaluates `body` and returns base64 of the
 * UTF-8 JSON of its value; any error comes back as `{"error": ...}`, never reaching the server (28.2 would
 * then hold its filter in a `(sit-for 5)`).
 *
 * The body runs lexically: 28.2's server evaluates `-eval` with dynamic binding, so without the `(eval ... t)`
 * every `let` of a chunk (`file`, `buffer`, `args`) would be a dynamic binding that the user's hooks it runs
 * (a revert's, a mode's) could see and change. It is macroexpanded once before it runs, so the closures an
 * install leaves behind (run on every key) carry no macro calls: an interpreted `dolist` expands again on every
 * call, about ten times slower. The json.el settings are bound only around the decoding and the
 * encoding, so a user's hook that reads JSON meanwhile reads it as it expects. `inhibit-message` and
 * `message-log-max` are bound around the body: nothing pi runs writes to the echo area or `*Messages*`.
 */
export function elispChunk(body: string): string {
	return `(lambda (pi-ide-args)
  (condition-case pi-ide-error
      (funcall
       (eval
        (quote
         (lambda (pi-ide-args pi-ide-body)
           (require 'json)
           (let* ((args (let ((json-object-type 'hash-table)
                              (json-array-type 'vector)
                              (json-key-type 'string)
                              (json-false :json-false)
                              (json-null nil))
                          (json-read-from-string
                           (decode-coding-string (base64-decode-string pi-ide-args) 'utf-8 t))))
                  (pi-ide-value (let ((inhibit-message t)
                                      (message-log-max nil))
                                  (funcall pi-ide-body args))))
             (let ((json-false :json-false)
                   (json-null nil)
                   (json-encoding-pretty-print nil)
                   (json-encoding-object-sort-predicate nil))
               (base64-encode-string (encode-coding-string (json-encode pi-ide-value) 'utf-8 t) t)))))
        t)
       pi-ide-args
       (eval
        (macroexpand-all
         (quote
          (lambda (args)
${indent(body.trim(), CHUNK_BODY_COLUMNS)})))
        t))
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
