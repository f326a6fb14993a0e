import { elispChunk } from "./elisp-chunk.ts";
import { DIAGNOSTICS_FORM, NEWLINES_FORM } from "./lines-elisp.ts";

/**
 * The elisp that describes what the user sees now, as one JSON-ready alist (core/snapshot.ts checks it): the
 * text both `STATE_ELISP` (one read) and `INSTALL_ELISP` (every push) call. A `(lambda (caps memory) ...)`:
 * `caps` the hash table of core/snapshot.ts `EMACS_SNAPSHOT_CAPS`, `memory` nil for one read, or the install's
 * hash table (`region`: the last region seen and whether it was active, `lines`: each buffer's line record
 * (core/elisp/lines-elisp.ts), `roots`: project roots per directory, `candidates`: buffers a change touched, the only
 * ones the unsaved list looks at). Arrays are vectors (json.el writes nil as null).
 *
 * The window: the selected frame's most recently used one that visits a local file, the minibuffer's
 * `minibuffer-selected-window` first while the user is in the minibuffer. TRAMP buffers are never touched
 * (`file-remote-p` on a name reads no network), nor files with names over the cap. Lines and byte columns are
 * counted in the widened buffer, from `forward-line 0` (a field, as in a shell buffer, does not stop it), each
 * line number from the nearest line start whose number is known (the buffer's first and last, the last cursor's
 * kept in the record, the last one found): a key at the end of a 100 000-line buffer counts a few lines, not all.
 *
 * A region's text is cut to `selection_bytes` UTF-8 bytes (`text_cut` says so), fewer when it holds control
 * characters (json.el writes each as six bytes), so one pushed line stays far below what a unix socket holds.
 * While the region is active `selected_at` is null (pi takes now): a time read per push would make every push
 * differ from the last sent. Frames are those a user sees: visible or iconified, not a child frame (a
 * posframe's), not a daemon's own on `initial_terminal`.
 */
export const SNAPSHOT_FORM = `(lambda (caps memory)
  (let* ((cap (lambda (key default)
                (let ((value (and (hash-table-p caps) (gethash key caps))))
                  (if (and (integerp value) (> value 0)) value default))))
         (selection-bytes (funcall cap "selection_bytes" 66000))
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
                     (when (and (frame-visible-p frame)
                                (not (frame-parameter frame 'parent-frame))
                                (not (equal (terminal-name (frame-terminal frame)) "initial_terminal")))
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
          (let* (;; Read before anything moves point (the counting below does, inside save-excursion).
                 (region-bounds (and (use-region-p) (cons (region-beginning) (region-end))))
                 (newlines ${NEWLINES_FORM.replaceAll("\n", "\n                 ")})
                 (tick (buffer-chars-modified-tick))
                 (table (and memory (gethash 'lines memory)))
                 (record (and table (gethash buffer table)))
                 (exact (and record (aref record 1) (eq (aref record 0) tick) (eq (aref record 6) (buffer-size))))
                 (count (if exact (aref record 1) (funcall newlines (point-min) (point-max))))
                 (last-bol (progn (goto-char (point-max)) (forward-line 0) (point)))
                 (known (append (list (cons (point-min) 1) (cons last-bol (1+ count)))
                                (and exact (aref record 2) (list (cons (aref record 2) (aref record 3))))))
                 (walk nil)
                 (line-at (lambda (position)
                            (goto-char position)
                            (forward-line 0)
                            (let ((bol (point)) (from nil))
                              (dolist (start (if walk (cons walk known) known))
                                (when (or (not from) (< (abs (- bol (car start))) (abs (- bol (car from)))))
                                  (setq from start)))
                              (setq walk (cons bol (if (>= bol (car from))
                                                       (+ (cdr from) (funcall newlines (car from) bol))
                                                     (- (cdr from) (funcall newlines bol (car from))))))
                              (cdr walk))))
                 (bytes-from-bol (lambda (position)
                                   (goto-char position)
                                   (forward-line 0)
                                   (- (position-bytes position) (position-bytes (point)))))
                 (place (lambda (position)
                          (list (cons "line" (funcall line-at position))
                                (cons "column" (1+ (funcall bytes-from-bol position))))))
                 (lines-total (if (and (> (point-max) (point-min)) (/= (char-before (point-max)) ?\\n))
                                  (1+ count)
                                count))
                 (cursor (funcall place point-now))
                 (anchor walk)
                 (old-places (and exact (aref record 4)))
                 (places (make-hash-table :test 'eql))
                 (place-of (lambda (position)
                             (or (gethash position places)
                                 (puthash position
                                          (or (and old-places (gethash position old-places))
                                              (cons (funcall line-at position)
                                                    (1+ (funcall bytes-from-bol position))))
                                          places))))
                 (region-now
                  (and region-bounds
                       (let* ((start (car region-bounds))
                              (end (cdr region-bounds))
                              (at-bol (and (> end start) (progn (goto-char end) (bolp))))
                              (whole (and (> end start)
                                          (progn (goto-char start) (bolp))
                                          (or at-bol (progn (goto-char end) (eolp)))))
                              (last (if at-bol (1- end) end))
                              (start-byte (position-bytes start))
                              (costly 0)
                              ;; Control characters but \\b \\t \\n \\f \\r are six bytes each in JSON: each
                              ;; counts five more, so the text and its escapes keep to the cap (others: 2 bytes).
                              (limit (let ((stop (if (> (- (position-bytes last) start-byte) selection-bytes)
                                                     (byte-to-position (+ start-byte selection-bytes))
                                                   last)))
                                       (goto-char start)
                                       (while (progn (skip-chars-forward "^\\0-\\7\\13\\16-\\37" stop)
                                                     (< (point) stop))
                                         (if (> (+ (- (position-bytes (point)) start-byte) 6 (* 5 costly))
                                                selection-bytes)
                                             (setq stop (point))
                                           (setq costly (1+ costly))
                                           (forward-char 1)))
                                       (if (= costly 0)
                                           stop
                                         (min stop (byte-to-position
                                                    (+ start-byte (- selection-bytes (* 5 costly)))))))))
                         (vector buffer
                                 (funcall place start)
                                 (list (cons "line" (funcall line-at last))
                                       (cons "column" (max 1 (funcall bytes-from-bol last))))
                                 (buffer-substring-no-properties start (max start limit))
                                 nil t whole (< limit last)))))
                 (remembered (and memory (gethash 'region memory)))
                 (region (cond (region-now
                                (when memory (puthash 'region region-now memory))
                                region-now)
                               ((and remembered (eq (aref remembered 0) buffer))
                                ;; The region just ended: its last active moment is now.
                                (when (aref remembered 5)
                                  (aset remembered 4 now)
                                  (aset remembered 5 nil))
                                remembered)))
                 (diagnostics (funcall ${DIAGNOSTICS_FORM.replaceAll("\n", "\n                                       ")}
                                       max-diagnostics message-chars place-of)))
            (when table
              (puthash buffer (vector tick count (car anchor) (cdr anchor) places nil (buffer-size)) table))
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
                                            (cons "selected_at" (aref region 4))
                                            (cons "whole_lines" (if (aref region 6) t :json-false))
                                            (cons "text_cut" (if (aref region 7) t :json-false)))))
                  (cons "diagnostics" diagnostics)
                  (cons "unsaved" unsaved)
                  (cons "project_root" project-root)
                  (cons "minibuffer" (if minibuffer t :json-false))
                  (cons "frames" frames))))))))`;

/**
 * Args `{caps}` (core/snapshot.ts `EMACS_SNAPSHOT_CAPS`): what the user sees now, read once, for an Emacs that
 * does not push (and the first read of one that will). Without an install it knows only an active region
 * (`selected_at` null: pi takes now), and it scans `buffer-list` once for the unsaved list.
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
 * place, so every window's point stays on the same text. Its narrowing (`narrow-to-defun`, Org's subtree)
 * survives: the revert widens (28.2's `revert-buffer-insert-file-contents--default-function` calls `widen`), so
 * the restriction is put back between markers set before it (the start's stays before text inserted there, the
 * end's after), which keep to the same text where the file did not change. A modified buffer is left alone (the
 * user's edits win, and the guard has already said so); one whose file has the time it recorded
 * (`verify-visited-file-modtime`: nothing wrote it since) is not reverted.
 * `{"result": "reloaded" | "unchanged" | "modified" | "not-loaded"}`.
 */
export const RELOAD_ELISP = elispChunk(`(let* ((file (gethash "file" args))
       (buffer (and (stringp file) (file-name-absolute-p file) (not (file-remote-p file))
                    (find-buffer-visiting file))))
  (list (cons "result"
              (cond ((not buffer) "not-loaded")
                    ((buffer-modified-p buffer) "modified")
                    ((and (verify-visited-file-modtime buffer)
                          (not (equal (with-current-buffer buffer (visited-file-modtime)) 0)))
                     "unchanged")
                    (t
                     (with-current-buffer buffer
                       (let ((restriction (and (buffer-narrowed-p)
                                               (cons (copy-marker (point-min)) (copy-marker (point-max) t)))))
                         (unwind-protect
                             (revert-buffer t t t)
                           (when restriction
                             (narrow-to-region (car restriction) (cdr restriction))
                             (set-marker (car restriction) nil)
                             (set-marker (cdr restriction) nil)))))
                     "reloaded")))))`);
