import { elispChunk } from "./elisp-chunk.ts";

/**
 * The buffer's diagnostics (called in it, widened): Flymake's (`flymake-diagnostics`) and, when it is on,
 * Flycheck's (`flycheck-current-errors`), the errors first, cut to `max` and each message to `message-chars`;
 * their places found in one forward walk over the sorted positions.
 */
const DIAGNOSTICS_FORM = `
(lambda (max-diagnostics message-chars line-at bytes-from-bol reset-walk)
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
    (let ((kept nil) (count 0) (places (make-hash-table :test 'eql)) (positions nil))
      (dolist (item items)
        (when (< count max-diagnostics)
          (push item kept)
          (setq count (1+ count))))
      (setq kept (nreverse kept))
      (dolist (item kept) (push (nth 1 item) positions) (push (nth 2 item) positions))
      (funcall reset-walk)
      (dolist (position (sort positions #'<))
        (unless (gethash position places)
          (puthash position (cons (funcall line-at position) (1+ (funcall bytes-from-bol position))) places)))
      (vconcat
       (mapcar (lambda (item)
                 (let ((start (gethash (nth 1 item) places)) (end (gethash (nth 2 item) places)))
                   (append (list (cons "severity" (car item))
                                 (cons "line" (car start)) (cons "column" (cdr start))
                                 (cons "end_line" (car end)) (cons "end_column" (cdr end))
                                 (cons "message" (funcall cut (nth 3 item) message-chars)))
                           (and (nth 4 item) (list (cons "source" (funcall cut (nth 4 item) 200)))))))
               kept)))))`;

/**
 * The elisp that describes what the user sees now, as one JSON-ready alist (core/snapshot.ts checks it): the
 * text both `STATE_ELISP` (one read) and `INSTALL_ELISP` (every push) call. A `(lambda (caps memory) ...)`:
 * `caps` the hash table of core/snapshot.ts `EMACS_SNAPSHOT_CAPS`, `memory` nil for one read, or the install's
 * hash table (`region`: the last region seen and whether it was active, `lines`: line counts per buffer by
 * `buffer-chars-modified-tick`, `roots`: project roots per directory, `candidates`: buffers a change touched,
 * the only ones the unsaved list looks at). Arrays are vectors (json.el writes nil as null).
 *
 * The window: the selected frame's most recently used one that visits a local file, the minibuffer's
 * `minibuffer-selected-window` first while the user is in the minibuffer. TRAMP buffers are never touched
 * (`file-remote-p` on a name reads no network), nor files with names over the cap. Lines and byte columns are
 * counted in the widened buffer, from `forward-line 0` (a field, as in a shell buffer, does not stop it).
 */
export const SNAPSHOT_FORM = `(lambda (caps memory)
  (let* ((cap (lambda (key default)
                (let ((value (and (hash-table-p caps) (gethash key caps))))
                  (if (and (integerp value) (> value 0)) value default))))
         (selection-chars (funcall cap "selection_chars" 66000))
         (max-diagnostics (funcall cap "diagnostics" 100))
         (message-chars (funcall cap "message_chars" 1024))
         (max-unsaved (funcall cap "unsaved" 1000))
         (path-chars (funcall cap "path_chars" 4096))
         (now (float-time))
         (local-file (lambda (buffer)
                       (let ((name (buffer-file-name buffer)))
                         (and name (not (file-remote-p name))
                              (let ((full (expand-file-name name)))
                                (and (<= (length full) path-chars) full))))))
         (minibuffer (and (minibufferp (window-buffer (selected-window))) t))
         (first-window (if minibuffer
                           (let ((window (minibuffer-selected-window)))
                             (and (window-live-p window) window))
                         (selected-window)))
         (window (or (and first-window (funcall local-file (window-buffer first-window)) first-window)
                     (let ((found nil))
                       (dolist (candidate (sort (window-list (selected-frame) 'nomini)
                                                (lambda (a b) (> (window-use-time a) (window-use-time b)))))
                         (when (and (not found) (funcall local-file (window-buffer candidate)))
                           (setq found candidate)))
                       found)
                     first-window
                     (frame-first-window (selected-frame))))
         (buffer (window-buffer window))
         (file (funcall local-file buffer))
         (point-now (window-point window))
         (frames (let ((count 0))
                   (dolist (frame (frame-list) count)
                     (unless (equal (terminal-name (frame-terminal frame)) "initial_terminal")
                       (setq count (1+ count))))))
         (unsaved
          (let ((found nil)
                (count 0)
                (candidates (and memory (gethash 'candidates memory)))
                (gone nil))
            (if candidates
                (maphash (lambda (candidate _)
                           (let ((name (and (buffer-live-p candidate) (buffer-modified-p candidate)
                                            (funcall local-file candidate))))
                             (if (not name)
                                 (push candidate gone)
                               (when (< count max-unsaved)
                                 (push name found)
                                 (setq count (1+ count))))))
                         candidates)
              (dolist (candidate (buffer-list))
                (when (and (< count max-unsaved) (buffer-modified-p candidate))
                  (let ((name (funcall local-file candidate)))
                    (when name
                      (push name found)
                      (setq count (1+ count)))))))
            (dolist (candidate gone) (remhash candidate candidates))
            (vconcat (sort found #'string<))))
         (project-root
          (and file
               (let* ((dir (file-name-directory file))
                      (roots (and memory (gethash 'roots memory)))
                      (known (if roots (gethash dir roots 'unknown) 'unknown)))
                 (if (not (eq known 'unknown))
                     known
                   (let ((root (condition-case nil
                                   (progn
                                     (require 'project)
                                     (let ((project (project-current nil dir)))
                                       (and project (expand-file-name (project-root project)))))
                                 (error nil))))
                     (when roots
                       (when (> (hash-table-count roots) 1000) (clrhash roots))
                       (puthash dir root roots))
                     root))))))
    (with-current-buffer buffer
      (save-excursion
        (save-restriction
          (widen)
          (let* ((walk-bol nil)
                 (walk-line 1)
                 ;; Line numbers walked forward from the last position asked (one pass over a sorted list).
                 (line-at (lambda (position)
                            (goto-char position)
                            (forward-line 0)
                            (let ((bol (point)))
                              (setq walk-line (if (and walk-bol (>= bol walk-bol))
                                                  (+ walk-line (count-lines walk-bol bol))
                                                (line-number-at-pos bol t)))
                              (setq walk-bol bol)
                              walk-line)))
                 (bytes-from-bol (lambda (position)
                                   (goto-char position)
                                   (forward-line 0)
                                   (- (position-bytes position) (position-bytes (point)))))
                 (place (lambda (position)
                          (list (cons "line" (funcall line-at position))
                                (cons "column" (1+ (funcall bytes-from-bol position))))))
                 (lines-total
                  (let* ((cache (and memory (gethash 'lines memory)))
                         (tick (buffer-chars-modified-tick))
                         (known (and cache (gethash buffer cache))))
                    (if (and known (eq (car known) tick))
                        (cdr known)
                      (let ((count (count-lines (point-min) (point-max))))
                        (when cache (puthash buffer (cons tick count) cache))
                        count))))
                 ;; Read before anything moves point (the walk below does, inside save-excursion).
                 (region-bounds (and (use-region-p) (cons (region-beginning) (region-end))))
                 (cursor (progn (setq walk-bol nil) (funcall place point-now)))
                 (region-now
                  (and region-bounds
                       (let* ((start (car region-bounds))
                              (end (cdr region-bounds))
                              (at-bol (and (> end start)
                                           (progn (goto-char end) (forward-line 0) (= (point) end))))
                              (last (if at-bol (1- end) end))
                              (text (buffer-substring-no-properties
                                     start (max start (min last (+ start selection-chars))))))
                         (setq walk-bol nil)
                         (vector buffer
                                 (funcall place start)
                                 (list (cons "line" (funcall line-at last))
                                       (cons "column" (max 1 (funcall bytes-from-bol last))))
                                 text now t))))
                 (remembered (and memory (gethash 'region memory)))
                 (region (cond (region-now
                                (when memory (puthash 'region region-now memory))
                                region-now)
                               ((and remembered (eq (aref remembered 0) buffer))
                                ;; The region just ended: its last active moment is now.
                                (when (aref remembered 5)
                                  (aset remembered 4 now)
                                  (aset remembered 5 nil))
                                remembered))))
            (list (cons "file" file)
                  (cons "name" (let ((name (buffer-name buffer))) (substring name 0 (min (length name) 1000))))
                  (cons "mode" (let ((mode (symbol-name major-mode))) (substring mode 0 (min (length mode) 200))))
                  (cons "cursor" cursor)
                  (cons "modified" (if (buffer-modified-p) t :json-false))
                  (cons "lines_total" lines-total)
                  (cons "region" (and region
                                      (list (cons "start" (aref region 1))
                                            (cons "end" (aref region 2))
                                            (cons "text" (aref region 3))
                                            (cons "active" (if region-now t :json-false))
                                            (cons "selected_at" (aref region 4)))))
                  (cons "diagnostics" (funcall ${DIAGNOSTICS_FORM.trim()} max-diagnostics message-chars line-at bytes-from-bol
                                               (lambda () (setq walk-bol nil))))
                  (cons "unsaved" unsaved)
                  (cons "project_root" project-root)
                  (cons "minibuffer" (if minibuffer t :json-false))
                  (cons "frames" frames))))))))`;

/**
 * Args `{caps}` (core/snapshot.ts `EMACS_SNAPSHOT_CAPS`): what the user sees now, read once, for an Emacs that
 * does not push (and the first read of one that will). Without an install it knows only an active region
 * (`selected_at` now), and it scans `buffer-list` once for the unsaved list.
 */
export const STATE_ELISP = elispChunk(`(funcall ${SNAPSHOT_FORM}
         (gethash "caps" args) nil)`);

/**
 * Args `{}`: every buffer visiting a local file with unsaved changes, `{"unsaved": [absolute paths]}` (at most
 * 1000): the unsaved guard's ask at a tool call, one `buffer-list` scan.
 */
export const UNSAVED_ELISP = elispChunk(`(let ((found nil) (count 0))
  (dolist (buffer (buffer-list))
    (let ((name (buffer-file-name buffer)))
      (when (and name (< count 1000) (buffer-modified-p buffer) (not (file-remote-p name)))
        (push (expand-file-name name) found)
        (setq count (1+ count)))))
  (list (cons "unsaved" (vconcat (nreverse found)))))`);

/**
 * Args `{file}` (a real path the model just wrote): the model's write shown. An unmodified buffer visiting that
 * file is reverted from disk (`(revert-buffer t t t)`: no question, modes kept); its contents are replaced in
 * place, so every window's point stays on the same text. A modified buffer is left alone (the user's edits
 * win, and the guard has already said so); `{"result": "reloaded" | "modified" | "not-loaded"}`.
 */
export const RELOAD_ELISP = elispChunk(`(let* ((file (gethash "file" args))
       (buffer (and (stringp file) (file-name-absolute-p file) (not (file-remote-p file))
                    (find-buffer-visiting file))))
  (list (cons "result"
              (cond ((not buffer) "not-loaded")
                    ((buffer-modified-p buffer) "modified")
                    (t (with-current-buffer buffer (revert-buffer t t t))
                       "reloaded")))))`);
