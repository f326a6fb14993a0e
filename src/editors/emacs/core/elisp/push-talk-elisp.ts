/**
 * The push connection's talk for the asks, two forms of the install's body (core/elisp/push-elisp.ts: its
 * connection, `encode`, `send`, the window's `sizes` and `in-flight`): an ask's line out, and what pi writes back.
 */

/**
 * The install's `<prefix>send-ask` (core/elisp/push-elisp.ts: its connection, its `encode`, `send` and window):
 * one ask's line, within the pushes' window of `windowBytes` bytes.
 */
export const sendAskForm = (
	windowBytes: number,
) => `;; An ask's line (core/elisp/asks-elisp.ts) keeps to the window: a state in flight is answered within
;; ms, so its byte is waited for (this process's only, no timer run), up to 1 s. sent, full (pi reads
;; nothing: suspended), gone (the connection closed, known now or by the send), or nil (not encoded).
(fset (intern (concat prefix "send-ask"))
      (lambda (value)
        (let ((line (condition-case nil (funcall encode value) (error nil)))
              (open (lambda () (and process (eq (process-status process) 'open))))
              (waits 0))
          (while (and line (funcall open) sizes (< waits 10)
                      (> (+ in-flight (string-bytes line)) ${windowBytes}))
            (setq waits (1+ waits))
            (condition-case nil (accept-process-output process 0.1 nil 1) (error nil)))
          (cond ((not (funcall open)) 'gone)
                ((not line) nil)
                ((and sizes (> (+ in-flight (string-bytes line)) ${windowBytes})) 'full)
                ((condition-case nil (funcall send line) (error nil)) 'sent)
                ((funcall open) nil)
                (t 'gone)))))`;

/**
 * The install's `receive`, its connection's filter: pi's bytes back are a dot for each line pi read (the
 * window's acknowledgement) or a line of JSON of pi's own, handed to `<prefix>asks-message` once the asks are
 * installed (core/elisp/ask-news-elisp.ts): each read as data (json.el, hash tables), never evaluated.
 */
export const receiveForm = (windowBytes: number) => `(lambda (input)
  (let ((start 0) (done nil) (lines nil) (handle (intern-soft (concat prefix "asks-message"))))
    (setq incoming (concat incoming input))
    (while (and (not done) (< start (length incoming)))
      (if (eq (aref incoming start) ?.)
          (progn (when sizes (setq in-flight (- in-flight (car sizes)) sizes (cdr sizes)))
                 (setq start (1+ start)))
        (let ((end (string-search "\\n" incoming start)))
          (if (not end)
              (setq done t)
            (push (substring incoming start end) lines)
            (setq start (1+ end))))))
    ;; No line of pi's is this long: one never ended is dropped.
    (setq incoming (if (> (- (length incoming) start) 1048576) "" (substring incoming start)))
    (when (and wanted (< in-flight ${windowBytes}))
      (setq wanted nil)
      (funcall schedule))
    (dolist (line (nreverse lines))
      (when (and handle (fboundp handle))
        (condition-case nil
            (funcall handle (let ((json-object-type 'hash-table)
                                  (json-array-type 'vector)
                                  (json-key-type 'string)
                                  (json-false :json-false)
                                  (json-null nil))
                              (json-read-from-string (decode-coding-string line 'utf-8 t))))
          (error nil))))))`;
