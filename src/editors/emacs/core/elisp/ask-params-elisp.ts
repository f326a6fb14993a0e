import { DIAGNOSTICS_FORM } from "./lines-elisp.ts";

/**
 * What an ask sends with the typed words, made in Emacs when the user sends it (core/elisp/asks-elisp.ts): a
 * `(lambda (context prompt caps file-of encode) ...)` giving the ask's params as an alist (asks/core/ask-messages.ts
 * checks them in pi), or a string: why it is not sent. `context` is `[buffer region-start region-end point]` as
 * `M-x pi-ask` found them (markers; no region: nil), `caps` core/asks.ts `EMACS_ASK_CAPS`, `file-of` a buffer's
 * local file (TRAMP's none), `encode` the line's JSON bytes.
 *
 * Only the placeholders the prompt uses are sent (`@this` `@selection` `@buffer` `@buffers` `@diagnostics`, after
 * the start or a space and before no word character, as asks/core/placeholders.ts finds them). `@this` is the
 * region, else point's line; a span's lines are counted in the widened buffer (a region ending at a line's start
 * ends on the line before), a region inside one line has its byte columns (1-based, inclusive) as the snapshot
 * counts them, and its text is exactly the region's. A buffer visiting no local file is its name and its text.
 * Diagnostics are Flymake's and Flycheck's as the snapshot reads them (core/elisp/lines-elisp.ts).
 *
 * The whole line is at most `ask_bytes` (120 KiB) of JSON, inside the pushes' 128 KiB window: the typed words
 * stand as typed; the texts are cut first (in the order taken, each to what is left), and when the line is over
 * even with every text empty, diagnostics and then listed buffers are halved until it fits; else it is refused.
 */
export const ASK_PARAMS_FORM = `(lambda (context prompt caps file-of encode)
  (let* ((cap (lambda (key default)
                (let ((value (and (hash-table-p caps) (gethash key caps))))
                  (if (and (integerp value) (> value 0)) value default))))
         (ask-bytes (funcall cap "ask_bytes" 122880))
         (max-buffers (funcall cap "buffers" 50))
         (max-diagnostics (funcall cap "diagnostics" 100))
         (message-chars (funcall cap "message_chars" 1024))
         (names (let ((found nil) (start 0))
                  (save-match-data
                    (while (string-match (rx (or bos (any blank ?\\n ?\\r ?\\f)) "@"
                                             (group (or "this" "selection" "buffers" "buffer" "diagnostics"))
                                             (or (not (any "A-Za-z0-9_-")) eos))
                                         prompt start)
                      (push (match-string 1 prompt) found)
                      (setq start (match-end 1))))
                  found))
         (source (aref context 0))
         (placeholders nil)
         (texts nil)
         (items nil)
         (text-cost (lambda (text) (string-bytes (encode-coding-string (json-encode-string text) 'utf-8 t))))
         (cut (lambda (text budget)
                (if (<= (- (funcall text-cost text) 2) budget)
                    text
                  (let ((low 0) (high (length text)))
                    (while (< low high)
                      (let ((middle (/ (+ low high 1) 2)))
                        (if (<= (- (funcall text-cost (substring text 0 middle)) 2) budget)
                            (setq low middle)
                          (setq high (1- middle)))))
                    (substring text 0 low))))))
    (when (and names (buffer-live-p source))
      (with-current-buffer source
        (save-excursion
          (save-restriction
            (widen)
            (let* ((file (funcall file-of source))
                   (where (if file (list (cons "file" file)) (list (cons "name" (buffer-name)))))
                   (marker-at (lambda (marker)
                                (and (markerp marker) (eq (marker-buffer marker) source) (marker-position marker))))
                   (region (let ((start (funcall marker-at (aref context 1)))
                                 (end (funcall marker-at (aref context 2))))
                             (and start end (< start end) (cons start end))))
                   (at (or (funcall marker-at (aref context 3)) (point)))
                   ;; forward-line, never line-beginning-position: a field (a shell's prompt) does not stop it.
                   (bol (lambda (position) (goto-char position) (forward-line 0) (point)))
                   (column (lambda (position) (1+ (- (position-bytes position) (position-bytes (funcall bol position))))))
                   (text-cell (lambda (from to)
                                (let ((cell (cons "text" (buffer-substring-no-properties from (min to (+ from ask-bytes))))))
                                  (push cell texts)
                                  cell)))
                   (span (lambda (from to)
                           (let* ((at-bol (progn (goto-char to) (bolp)))
                                  (last (if at-bol (1- to) to))
                                  (first-line (line-number-at-pos from t))
                                  (last-line (line-number-at-pos last t)))
                             (append where
                                     (list (cons "startLine" first-line) (cons "endLine" last-line))
                                     (and (= first-line last-line) (not at-bol)
                                          (list (cons "startColumn" (funcall column from))
                                                (cons "endColumn" (max (funcall column from) (1- (funcall column to))))))
                                     (list (funcall text-cell from to))))))
                   (line-span (lambda ()
                                (let* ((from (funcall bol at))
                                       (to (progn (goto-char at) (skip-chars-forward "^\\n") (point)))
                                       (line (line-number-at-pos from t)))
                                  (append where (list (cons "startLine" line) (cons "endLine" line)
                                                      (funcall text-cell from to)))))))
              (when (member "this" names)
                (push (cons "this" (if region (funcall span (car region) (cdr region)) (funcall line-span)))
                      placeholders))
              (when (and region (member "selection" names))
                (push (cons "selection" (funcall span (car region) (cdr region))) placeholders))
              (when (member "buffer" names)
                (push (cons "buffer" (if file where (append where (list (funcall text-cell (point-min) (point-max))))))
                      placeholders))
              (when (member "buffers" names)
                (let ((files nil) (count 0))
                  (dolist (buffer (buffer-list))
                    (let ((name (funcall file-of buffer)))
                      (when (and name (< count max-buffers) (not (member name files)))
                        (push name files)
                        (setq count (1+ count)))))
                  (push (cons "buffers" (vconcat (mapcar (lambda (name) (list (cons "file" name))) (nreverse files))))
                        placeholders)))
              (when (member "diagnostics" names)
                (setq items
                      (cons "items"
                            (funcall ${DIAGNOSTICS_FORM.replaceAll("\n", "\n                                     ")}
                                     max-diagnostics message-chars
                                     (lambda (position)
                                       (cons (line-number-at-pos position t) (funcall column position))))))
                (push (cons "diagnostics" (append where (list items))) placeholders)))))))
    (setq placeholders (nreverse placeholders) texts (nreverse texts))
    (let* ((params (cons (cons "prompt" prompt) (and placeholders (list (cons "placeholders" placeholders)))))
           (size (lambda () (string-bytes (funcall encode params)))))
      (if (<= (funcall size) ask-bytes)
          params
        (let ((whole (mapcar #'cdr texts))
              (buffers (assoc "buffers" placeholders)))
          (dolist (cell texts) (setcdr cell ""))
          (while (and items (> (length (cdr items)) 0) (> (funcall size) ask-bytes))
            (setcdr items (substring (cdr items) 0 (/ (length (cdr items)) 2))))
          (while (and buffers (> (length (cdr buffers)) 0) (> (funcall size) ask-bytes))
            (setcdr buffers (substring (cdr buffers) 0 (/ (length (cdr buffers)) 2))))
          (let ((left (- ask-bytes (funcall size))))
            (if (< left 0)
                "pi: the prompt is too long to send with what it refers to"
              (dolist (cell texts)
                (let ((kept (funcall cut (car whole) left)))
                  (setcdr cell kept)
                  (setq left (- left (- (funcall text-cost kept) 2))
                        whole (cdr whole))))
              params)))))))`;
