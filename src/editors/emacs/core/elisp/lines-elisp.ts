/**
 * How the snapshot (core/elisp/state-elisp.ts `SNAPSHOT_FORM`) finds line numbers without counting from the buffer's
 * start on every key: the pieces of elisp it and the install (core/elisp/push-elisp.ts) share.
 *
 * The install keeps one record per buffer it described, in its `lines` table (weak keys):
 * `[tick newlines anchor-bol anchor-line places pending size]`: at `buffer-chars-modified-tick` `tick` (and
 * `buffer-size` `size`) the widened buffer held `newlines` newlines and `anchor-bol` started line `anchor-line`
 * (the last cursor's line); `places` are the diagnostics' places at that tick. Its `before-change-functions`
 * and `after-change-functions` entries keep the count and the anchor exact through each change, counting only
 * the changed text; a change they did not see (hooks inhibited, another hook's change inside ours) leaves the
 * tick or the size other than the record says, and the next snapshot counts the buffer again.
 */

/** `(lambda (from to) ...)`: the newlines in [from, to), counted in C (`line-number-at-pos` in a restriction). */
export const NEWLINES_FORM = `(lambda (from to)
  (save-restriction
    (narrow-to-region from to)
    (1- (line-number-at-pos to))))`;

/**
 * `(lambda (lines newlines beg end) ...)`, called from `before-change-functions` in the changed buffer: the
 * newlines about to go, when the buffer's record is still exact; else the record is dropped to a recount.
 */
export const CHANGE_START_FORM = `(lambda (lines newlines beg end)
  (let ((record (gethash (current-buffer) lines)))
    (when record
      (if (and (aref record 1)
               (eq (aref record 0) (buffer-chars-modified-tick))
               (eq (aref record 6) (buffer-size)))
          (aset record 5 (list beg end (funcall newlines beg end) (buffer-size)))
        (aset record 1 nil)
        (aset record 5 nil)))))`;

/**
 * `(lambda (lines newlines beg end old-length) ...)`, from `after-change-functions`: the count and the anchor
 * moved by what changed, when it is the change the start saw (same place, the size it leaves); else dropped.
 * An anchor after the change moves with it; one inside it (or just after a newline it removed) is dropped.
 */
export const CHANGE_END_FORM = `(lambda (lines newlines beg end old-length)
  (let ((record (gethash (current-buffer) lines)))
    (when record
      (let ((pending (aref record 5))
            (tick (buffer-chars-modified-tick)))
        (aset record 5 nil)
        (if (and pending (aref record 1)
                 (= (nth 0 pending) beg)
                 (= (nth 1 pending) (+ beg old-length))
                 (= (buffer-size) (+ (nth 3 pending) (- end beg) (- old-length))))
            (let ((delta (- (funcall newlines beg end) (nth 2 pending)))
                  (anchor (aref record 2)))
              (aset record 1 (+ (aref record 1) delta))
              (when anchor
                (cond ((>= beg anchor))
                      ((< (+ beg old-length) anchor)
                       (aset record 2 (+ anchor (- end beg) (- old-length)))
                       (aset record 3 (+ (aref record 3) delta)))
                      (t (aset record 2 nil))))
              (unless (eq tick (aref record 0)) (aset record 4 nil))
              (aset record 0 tick)
              (aset record 6 (buffer-size)))
          (aset record 1 nil))))))`;

/**
 * The buffer's diagnostics (called in it, widened): Flymake's (`flymake-diagnostics`) and, when it is on,
 * Flycheck's (`flycheck-current-errors`), the errors first, cut to `max` and each message to `message-chars`;
 * their places asked of `place-of` in buffer order (it counts on from the last place it found).
 */
export const DIAGNOSTICS_FORM = `(lambda (max-diagnostics message-chars place-of)
  (let* ((items nil)
         (rank (lambda (severity)
                 (cond ((equal severity "error") 0) ((equal severity "warning") 1) (t 2))))
         (cut (lambda (text limit)
                (let ((text (if (stringp text) text (format "%s" text))))
                  (substring-no-properties text 0 (min (length text) limit)))))
         (clamp (lambda (position)
                  (if (integerp position) (max (point-min) (min position (point-max))) (point-min)))))
    (when (and (bound-and-true-p flymake-mode) (fboundp 'flymake-diagnostics))
      (dolist (diagnostic (condition-case nil (flymake-diagnostics) (error nil)))
        (condition-case nil
            (let* ((type (flymake-diagnostic-type diagnostic))
                   (category (and (symbolp type) (get type 'flymake-category)))
                   (backend (flymake-diagnostic-backend diagnostic)))
              (push (list (cond ((or (memq type '(:error error)) (eq category 'flymake-error)) "error")
                                ((or (memq type '(:warning warning)) (eq category 'flymake-warning)) "warning")
                                (t "info"))
                          (funcall clamp (flymake-diagnostic-beg diagnostic))
                          (funcall clamp (flymake-diagnostic-end diagnostic))
                          (flymake-diagnostic-text diagnostic)
                          (and backend (symbolp backend) (symbol-name backend)))
                    items))
          (error nil))))
    (when (and (bound-and-true-p flycheck-mode) (boundp 'flycheck-current-errors))
      (dolist (found flycheck-current-errors)
        (condition-case nil
            (let ((level (flycheck-error-level found))
                  (start (funcall clamp (flycheck-error-pos found)))
                  (checker (flycheck-error-checker found)))
              (push (list (cond ((eq level 'error) "error") ((eq level 'warning) "warning") (t "info"))
                          start start (or (flycheck-error-message found) "")
                          (and checker (symbolp checker) (symbol-name checker)))
                    items))
          (error nil))))
    (setq items (sort items (lambda (a b)
                              (let ((rank-a (funcall rank (car a))) (rank-b (funcall rank (car b))))
                                (or (< rank-a rank-b) (and (= rank-a rank-b) (< (nth 1 a) (nth 1 b))))))))
    (let ((kept nil) (count 0) (positions nil))
      (dolist (item items)
        (when (< count max-diagnostics)
          (push item kept)
          (setq count (1+ count))))
      (setq kept (nreverse kept))
      (dolist (item kept) (push (nth 1 item) positions) (push (nth 2 item) positions))
      (dolist (position (sort positions #'<)) (funcall place-of position))
      (vconcat
       (mapcar (lambda (item)
                 (let ((start (funcall place-of (nth 1 item))) (end (funcall place-of (nth 2 item))))
                   (append (list (cons "severity" (car item))
                                 (cons "line" (car start)) (cons "column" (cdr start))
                                 (cons "end_line" (car end)) (cons "end_column" (cdr end))
                                 (cons "message" (funcall cut (nth 3 item) message-chars)))
                           (and (nth 4 item) (list (cons "source" (funcall cut (nth 4 item) 200)))))))
               kept)))))`;
