import { elispChunk, indent } from "../../editors/emacs/core/elisp/elisp-chunk.ts";

/**
 * The elisp a review sends into Emacs, verbatim (docs/security.md quotes it, a test keeps it so). Each chunk is
 * one fixed text in the frame every chunk of pi's shares (editors/emacs/core/elisp/elisp-chunk.ts: base64 JSON in and
 * out, every error caught, nothing in the echo area). The proposal never travels in the request (a request line
 * is capped at 256 KiB): pi writes it to a 0600 file in its private dir and the elisp reads it; the accepted
 * text goes back the same way, and the line saying so through the install's `<prefix>send`. A review is a buffer
 * of pi's own, `*pi: <name> (proposed)*`, in the file's major mode beside the file's window: the user's buffers
 * are never touched, nothing is written anywhere but pi's dir. Every symbol is `<prefix>review-...` and exists only
 * while a review is open: the last review to end removes them all. The frame macroexpands the form once, so the
 * two hook functions (every command, every killed buffer while a review is open) expand no macro when they run.
 */

/**
 * The names, and the review's functions (re)defined; `body` follows. The registry `<prefix>review-list` holds
 * one `[id buffer window accept-path decided window-kind]` per open review; while it is not empty
 * `kill-buffer-hook` and `post-command-hook` carry one function of pi's each.
 */
const reviewForm = (body: string) => `(let* ((prefix (let ((prefix (gethash "prefix" args)))
                 (unless (and (stringp prefix) (string-match "pi-ide-[0-9]+-[0-9]+-" prefix)
                              (= (match-beginning 0) 0) (= (match-end 0) (length prefix)))
                   (error "pi-ide: a bad prefix"))
                 prefix))
       (reviews (intern (concat prefix "review-list")))
       (keys-var (intern (concat prefix "review-keys")))
       (close-fn (intern (concat prefix "review-close")))
       (killed-fn (intern (concat prefix "review-killed")))
       (check-fn (intern (concat prefix "review-check")))
       (accept-fn (intern (concat prefix "review-accept")))
       (reject-fn (intern (concat prefix "review-reject")))
       (send-fn (intern (concat prefix "send")))
       ;; The review's words answer the user's own keys: shown in the echo area, never kept in *Messages*.
       (say (lambda (text) (let ((message-log-max nil)) (message "%s" text))))
       (entry-of
        (lambda (buffer)
          (let (found)
            (dolist (entry (and (boundp reviews) (symbol-value reviews)) found)
              (when (eq (aref entry 1) buffer) (setq found entry))))))
       (send-event
        (lambda (id event reason)
          (condition-case nil
              (and (funcall send-fn (append (list (cons "kind" "review") (cons "id" id) (cons "event" event))
                                            (and reason (list (cons "reason" reason)))))
                   t)
            (error nil))))
       ;; A window made for the review is dedicated to it, so killing the buffer deletes it; not when it
       ;; shows another buffer now, nor when it is its frame's only one (that would delete the user's frame).
       (release-window
        (lambda (entry)
          (let ((window (aref entry 2)))
            (when (and (window-live-p window) (eq (window-dedicated-p window) reviews)
                       (or (not (eq (window-buffer window) (aref entry 1)))
                           (and (frame-root-window-p window) (not (eq (aref entry 5) 'frame)))))
              (set-window-dedicated-p window nil)))))
       (answer
        (lambda (event reason)
          (let ((entry (funcall entry-of (current-buffer))))
            (cond
             ((null entry) (funcall say "pi's review of this change has ended"))
             ((aref entry 4) (funcall say "Already answered: pi has it"))
             (t
              (condition-case failure
                  (progn
                    (when (equal event "accepted")
                      (let ((coding-system-for-write 'utf-8-unix)
                            (file-name-handler-alist nil)
                            (create-lockfiles nil)
                            (write-region-annotate-functions nil)
                            (write-region-post-annotation-function nil))
                        (save-restriction
                          (widen)
                          (with-file-modes #o600
                            (write-region nil nil (aref entry 3) nil 'quiet)))))
                    (aset entry 4 t)
                    (if (funcall send-event (aref entry 0) event reason)
                        (progn
                          (set-buffer-modified-p nil)
                          (setq header-line-format " pi has your answer and closes this buffer"))
                      (funcall close-fn)
                      (funcall say "pi is gone: its review is closed")))
                (error (funcall say (format "Not answered in Emacs (%s): decide in pi"
                                            (error-message-string failure)))))))))))
  (fset close-fn
        (lambda (&optional id)
          "Close pi's reviews in this Emacs, ID's or every one; pi is told nothing."
          (let ((gone nil) (kept nil) (count 0) (kill-buffer-query-functions nil))
            (dolist (entry (and (boundp reviews) (symbol-value reviews)))
              (if (or (null id) (equal id (aref entry 0))) (push entry gone) (push entry kept)))
            (set reviews (nreverse kept))
            (dolist (entry gone)
              (funcall release-window entry)
              (when (buffer-live-p (aref entry 1))
                (setq count (1+ count))
                (condition-case nil (kill-buffer (aref entry 1)) (error nil)))
              (funcall release-window entry))
            (unless (symbol-value reviews)
              (remove-hook 'kill-buffer-hook killed-fn)
              (remove-hook 'post-command-hook check-fn)
              (makunbound reviews)
              (dolist (name (list accept-fn reject-fn killed-fn check-fn close-fn))
                (fmakunbound name)))
            count)))
  (fset killed-fn
        (lambda ()
          "Tell pi a review's buffer was killed: that decides nothing, pi's select asks."
          (condition-case nil
              (let ((entry (funcall entry-of (current-buffer))))
                (when entry
                  (set reviews (delq entry (symbol-value reviews)))
                  (funcall release-window entry)
                  (unless (aref entry 4) (funcall send-event (aref entry 0) "closed" nil))
                  (unless (symbol-value reviews) (funcall close-fn))))
            (error nil))))
  (fset check-fn
        (lambda ()
          "Close pi's reviews once pi is gone: its send function goes with its connection."
          (condition-case nil (unless (fboundp send-fn) (funcall close-fn)) (error nil))))
  (fset accept-fn
        (lambda ()
          "Accept pi's proposed change as this buffer holds it: pi's own tool writes the file."
          (interactive)
          (funcall answer "accepted" nil)))
  (fset reject-fn
        (lambda (reason)
          "Reject pi's proposed change; REASON (may be empty) is what the model reads."
          (interactive
           (list (let ((entry (funcall entry-of (current-buffer))))
                   (if (and entry (not (aref entry 4)))
                       (read-string "Reject pi's change; why (RET: no reason): ")
                     ""))))
          (funcall answer "rejected" reason)))
${indent(body, 2)})`;

/** A review form run as a chunk (the frame expands it once, so the hook functions it leaves expand no macro). */
const reviewChunk = (body: string) => elispChunk(reviewForm(body));

/**
 * The mode `auto-mode-alist` gives a file name, as `set-auto-mode` reads it (its `(MODE t)` entries too), then
 * the user's `major-mode-remap-alist` (29 and later: `js-mode` to `js-ts-mode`, say).
 */
const MODE_OF_NAME = `(let ((name (file-name-sans-versions file)) (found nil))
  (while name
    (setq found (or (let ((case-fold-search nil))
                      (assoc-default name auto-mode-alist 'string-match))
                    (and auto-mode-case-fold
                         (let ((case-fold-search t))
                           (assoc-default name auto-mode-alist 'string-match)))))
    (if (and (consp found) (cadr found))
        (setq found (car found) name (substring name 0 (match-beginning 0)))
      (setq name nil)))
  (cond ((fboundp 'major-mode-remap) (major-mode-remap found))
        ((boundp 'major-mode-remap-alist) (or (cdr (assq found major-mode-remap-alist)) found))
        (t found)))`;

/** The buffer (current) set up: the file's dir, its text, its mode without hooks, keys, header, highlights, point. */
const FILL_BUFFER = `(setq default-directory (file-name-directory file))
(let ((inhibit-read-only t)
      (inhibit-modification-hooks t)
      (coding-system-for-read 'utf-8-unix)
      (format-alist nil)
      (after-insert-file-functions nil))
  (buffer-disable-undo)
  (insert-file-contents (gethash "proposal" args))
  (buffer-enable-undo))
(condition-case nil
    (delay-mode-hooks (funcall (if (and mode (symbolp mode) (fboundp mode)) mode 'fundamental-mode)))
  (error (fundamental-mode)))
(setq delayed-mode-hooks nil)
(when (boundp 'delayed-after-hook-functions) (setq delayed-after-hook-functions nil))
(and (bound-and-true-p syntax-propertize-function)
     (not (local-variable-p 'parse-sexp-lookup-properties))
     (setq-local parse-sexp-lookup-properties t))
(when (and (bound-and-true-p global-font-lock-mode) (fboundp 'turn-on-font-lock-if-desired))
  (turn-on-font-lock-if-desired))
(setq buffer-file-coding-system (if (eq (gethash "dos" args) t) 'utf-8-dos 'utf-8-unix))
(set (make-local-variable keys-var) t)
(setq-local minor-mode-overriding-map-alist
            (cons (cons keys-var keymap) minor-mode-overriding-map-alist))
(setq header-line-format (gethash "header" args))
(set-buffer-modified-p nil)
(goto-char (point-min))
(let ((face (if (facep 'diff-added) 'diff-added 'highlight)) (at 1))
  (mapc (lambda (range)
          (forward-line (- (aref range 0) at))
          (let ((start (point)))
            (forward-line (1+ (- (aref range 1) (aref range 0))))
            (setq at (1+ (aref range 1)))
            (let ((overlay (make-overlay start (point))))
              (overlay-put overlay 'face face)
              (overlay-put overlay 'evaporate t))))
        (gethash "changed" args)))
(goto-char (point-min))
(forward-line (1- (gethash "line" args)))`;

const OPEN_BODY = `(let ((id (gethash "id" args))
      (file (gethash "file" args))
      (file-name-handler-alist nil)
      (buffer nil)
      (entry nil))
  (if (> (float-time) (gethash "deadline" args))
      (progn
        (funcall close-fn :none)
        (list (cons "ok" :json-false) (cons "reason" "too late: pi stopped waiting")))
    (condition-case failure
        (let* ((visiting (if (and (stringp file) (file-name-absolute-p file))
                             (find-buffer-visiting file)
                           (error "pi-ide: a bad file name")))
               (mode (if visiting
                         (buffer-local-value 'major-mode visiting)
${indent(MODE_OF_NAME, 25)}))
               (user-window (if (window-minibuffer-p (selected-window))
                                (or (minibuffer-selected-window) (frame-first-window))
                              (selected-window)))
               (file-window (and visiting (get-buffer-window visiting)))
               (keymap (make-sparse-keymap))
               (window nil))
          (define-key keymap (kbd "C-c C-c") accept-fn)
          (define-key keymap (kbd "C-c C-k") reject-fn)
          ;; A habitual C-x C-s would ask where to write the proposal: it says how to answer instead.
          (define-key keymap [remap save-buffer]
            (lambda () (interactive) (funcall say "pi's proposal: C-c C-c accepts it, C-c C-k rejects it")))
          (setq buffer (generate-new-buffer (gethash "buffer" args)))
          (setq entry (vector id buffer nil (gethash "accept" args) nil nil))
          (unless (boundp reviews) (set reviews nil))
          (set reviews (cons entry (symbol-value reviews)))
          (add-hook 'kill-buffer-hook killed-fn)
          (add-hook 'post-command-hook check-fn)
          (with-current-buffer buffer
${indent(FILL_BUFFER, 12)})
          (setq window
                (display-buffer buffer
                                (list (list 'display-buffer-in-direction
                                            'display-buffer-pop-up-window
                                            'display-buffer-use-some-window)
                                      (cons 'window (or file-window user-window))
                                      '(direction . right)
                                      '(inhibit-same-window . t)
                                      '(inhibit-switch-frame . t))))
          (when window
            (aset entry 2 window)
            (aset entry 5 (car-safe (window-parameter window 'quit-restore)))
            (when (memq (aref entry 5) '(window frame))
              (set-window-dedicated-p window reviews))
            (when (and (eq (gethash "enter" args) t) (zerop (recursion-depth))
                       (eq (window-frame window) (selected-frame)))
              (select-window window)))
          (list (cons "ok" t) (cons "buffer" (buffer-name buffer))
                (cons "window" (if window t :json-false))))
      (error
       (funcall close-fn (if entry id :none))
       (when (buffer-live-p buffer)
         (let ((kill-buffer-query-functions nil)) (kill-buffer buffer)))
       (list (cons "ok" :json-false) (cons "reason" (error-message-string failure)))))))`;

/**
 * Args `{prefix, id, file, buffer, header, proposal, accept, deadline, enter, dos, line, changed}`: the proposal
 * read from `proposal` (UTF-8 and LF: pi dropped the CRs and the BOM) into a new buffer named `buffer`, in the
 * mode of the buffer visiting `file`, else the one `auto-mode-alist` gives its name (never the content's `-*-`
 * cookie: the model wrote it). The mode's body runs with its hooks delayed and then dropped, as vc.el's
 * revision buffers and diff-mode's hunks do (bug#39190): no `prog-mode-hook`, no `after-change-major-mode-hook`,
 * so no Eglot, LSP or checker starts on a buffer that is no file; font-lock is turned on by hand where the global
 * mode would. `C-c C-c` and `C-c C-k` live in a keymap in the buffer's own `minor-mode-overriding-map-alist`, so
 * nothing global holds them. `changed` (line ranges) are highlighted, point on `line`. Shown beside the file's
 * window (else the user's), never in the selected one; the window is selected only with `enter` and at top level
 * (not from the minibuffer). Past `deadline` it opens nothing. `{ok, buffer, window}` or `{ok:false, reason}`,
 * leaving nothing behind.
 */
export const EMACS_DIFF_OPEN_ELISP = reviewChunk(OPEN_BODY);

/** Args `{prefix, id}`: that review's buffer killed (its window with it) without telling pi; `{closed: n}`. */
export const EMACS_DIFF_CLOSE_ELISP = reviewChunk(
	`(list (cons "closed" (funcall close-fn (or (gethash "id" args) :none))))`,
);

/** Every chunk of the review's, by name: docs/security.md quotes each (a test keeps it so). */
export const EMACS_REVIEW_ELISP_CHUNKS: Readonly<Record<string, string>> = {
	EMACS_DIFF_OPEN_ELISP,
	EMACS_DIFF_CLOSE_ELISP,
};
