import { elispChunk, indent } from "./elisp-chunk.ts";

/**
 * `*pi question*`: one of pi's questions of a run this Emacs asked (questions/), shown beside pi's own dialog.
 * Its own chunk, installed after the asks' (core/elisp/asks-elisp.ts), whose registry `pi-ide-asks` it shares:
 * `:questions` holds one `[prefix id buffer timer window-before]` per pi that shows one. Never the minibuffer,
 * never a prompt that waits: the buffer's own keys answer, and Emacs stays free. The two forms below are set in
 * the questions' install body (`QUESTIONS_BODY`: `own-prefix`, `get`, `put`, `say`, `send`).
 */

/**
 * `(lambda (prefix id &optional killed) ...)`: that pi's question (`id` nil: whichever it shows) taken out of
 * the registry, its focus timer cancelled, its window deleted and its buffer killed (`killed`: being killed
 * already); the window selected before it is selected again when the question's was, and no other selection
 * changes. t when there was one.
 */
const QUESTION_CLOSE_FORM = `(lambda (prefix id &optional killed)
  (let ((found nil) (kept nil))
    (dolist (entry (funcall get :questions))
      (if (and (not found) (equal (aref entry 0) prefix) (or (null id) (equal (aref entry 1) id)))
          (setq found entry)
        (push entry kept)))
    (when found
      (funcall put :questions (nreverse kept))
      (when (timerp (aref found 3)) (cancel-timer (aref found 3)))
      (let* ((buffer (aref found 2))
             (before (aref found 4))
             (selected (and (buffer-live-p buffer) (eq (window-buffer (selected-window)) buffer))))
        ;; delete-window, never quit-window: that selects the window selected when it was shown (the
        ;; minibuffer's user would lose their prompt's focus).
        (dolist (window (and (buffer-live-p buffer) (get-buffer-window-list buffer nil t)))
          (condition-case nil (delete-window window) (error nil)))
        (unless killed
          (let ((kill-buffer-query-functions nil)) (when (buffer-live-p buffer) (kill-buffer buffer))))
        (when (and selected (window-live-p before) (not (eq before (selected-window))))
          (select-window before)))
      t)))`;

/**
 * `(lambda (message) ...)`: pi's `{kind: "question", id, title, choices, focus}` or `{kind: "notice", id,
 * text}` (data from pi's line: text inserted as text, never evaluated) in a new read-only buffer `*pi
 * question*`, this pi's older one closed first. The title on the first lines, then the choices numbered
 * (`1 Yes`, `2 No`); a digit answers (with ten choices or more, digits add up until the number is whole, RET
 * answers a number typed), RET on a choice's line answers it, `q` (or killing the buffer) closes only this copy
 * (`dismiss`: pi's dialog stays and still decides). A notice has no choices: `q` closes it, pi closes it when
 * its dialog ends.
 *
 * Shown in a side window at the bottom, fitted to its text (at most half the frame). Selected only when that
 * takes no key from the user: never for a notice, never when pi runs in this Emacs's own terminal (`focus`
 * false: pi's dialog is in front of the user already), and otherwise once Emacs has been idle for 0.5 s with no
 * minibuffer open (a half-typed `M-x`, a prompt) and no recursive edit: at once when it is so already, else by an
 * idle timer that waits for that moment (the window shows meanwhile, and is shown again when a minibuffer's
 * exit took it away: 28 puts back the windows the minibuffer found). Closed, it gives the selection back to the
 * window selected before.
 */
const QUESTION_SHOW_FORM = `(lambda (message)
  (let* ((id (gethash "id" message))
         (notice (equal (gethash "kind" message) "notice"))
         (title (gethash (if notice "text" "title") message))
         (choices (if notice [] (gethash "choices" message)))
         (count (if (vectorp choices) (length choices) 0))
         (strings (let ((all (vectorp choices)))
                    (when all (mapc (lambda (choice) (unless (stringp choice) (setq all nil))) choices))
                    all)))
    (when (and (natnump id) (stringp title) strings (<= count 50) (or notice (> count 0)))
      (funcall question-close own-prefix nil)
      (let* ((buffer (generate-new-buffer "*pi question*"))
             (map (make-sparse-keymap))
             (first-choice nil)
             (typed 0)
             (range (if (= count 1) "1" (format "1-%d" count)))
             (mine (lambda ()
                     (let ((found nil))
                       (dolist (entry (funcall get :questions) found) (when (eq (aref entry 2) buffer) (setq found entry))))))
             (answer (lambda (choice)
                       (setq typed 0)
                       (cond ((not (and (integerp choice) (<= 1 choice count)))
                              (funcall say (format "pi: type a number from %s (q closes this copy)" range)))
                             ((funcall send "answer" (list (cons "id" id) (cons "choice" choice)))
                              (funcall question-close own-prefix id)))))
             (dismiss (lambda ()
                        (when (funcall question-close own-prefix id)
                          (funcall send "dismiss" (list (cons "id" id))))))
             (digit-command nil)
             (return-command nil))
        (setq digit-command
              (lambda ()
                "Answer pi's question with the choice of this number."
                (interactive)
                (let ((number (+ (if (eq last-command digit-command) (* typed 10) 0) (- last-command-event ?0))))
                  (cond (notice (funcall say "pi: answer in pi's terminal (q closes this note)"))
                        ((or (<= count 9) (zerop number) (> (* number 10) count)) (funcall answer number))
                        (t (setq typed number)
                           (funcall say (format "pi: %d (RET answers; another digit goes on)" number)))))))
        (setq return-command
              (lambda ()
                "Answer pi's question with the number typed, else the choice on this line."
                (interactive)
                (cond (notice (funcall say "pi: answer in pi's terminal (q closes this note)"))
                      ((and (eq last-command digit-command) (> typed 0)) (funcall answer typed))
                      ((and first-choice (>= (line-number-at-pos) first-choice))
                       (funcall answer (1+ (- (line-number-at-pos) first-choice))))
                      (t (funcall say (format "pi: RET on a choice answers it, or type %s" range))))))
        (set-keymap-parent map special-mode-map)
        (dotimes (digit 10) (define-key map (number-to-string digit) digit-command))
        (define-key map (kbd "RET") return-command)
        (define-key map "q" (lambda () "Close this copy of pi's question: pi's dialog still decides." (interactive) (funcall dismiss)))
        (funcall put :questions (append (funcall get :questions) (list (vector own-prefix id buffer nil nil))))
        (with-current-buffer buffer
          (insert title)
          (unless notice
            (insert "\\n\\n")
            (setq first-choice (line-number-at-pos))
            (let ((number 0) (shape (format "%%%dd %%s" (length (number-to-string count)))))
              (insert (mapconcat (lambda (choice) (setq number (1+ number)) (format shape number choice)) choices "\\n"))))
          (setq buffer-read-only t buffer-undo-list t)
          (setq header-line-format
                (if notice " pi: answer in pi's terminal; q closes this note"
                  (concat " pi asks: " range " answers (or RET on a line); q closes this copy")))
          (use-local-map map)
          (set-buffer-modified-p nil)
          (goto-char (point-min))
          (when first-choice (forward-line (1- first-choice)))
          (add-hook 'kill-buffer-hook
                    (lambda ()
                      (condition-case nil
                          (when (funcall question-close own-prefix id t)
                            (funcall send "dismiss" (list (cons "id" id))))
                        (error nil)))
                    nil t))
        (let* ((slot (1- (length (funcall get :questions))))
               (focus (not (or notice (eq (gethash "focus" message) :json-false))))
               (window nil)
               ;; Shown (again: 28 puts back the windows a minibuffer found when it exits) and, when wanted,
               ;; selected once the user's keys are free: t once nothing is left to do.
               (settle
                (lambda ()
                  (when (funcall mine)
                    (unless (and (window-live-p window) (eq (window-buffer window) buffer))
                      (setq window
                            (display-buffer
                             buffer
                             (list '(display-buffer-in-side-window)
                                   '(side . bottom)
                                   (cons 'slot slot)
                                   (cons 'window-height
                                         (lambda (shown)
                                           (fit-window-to-buffer shown (max 5 (/ (frame-height (window-frame shown)) 2)) 3)))
                                   '(preserve-size . (nil . t)))))))
                  (cond ((not (and (funcall mine) window)) t)
                        ((or (> (recursion-depth) 0) (active-minibuffer-window)) nil)
                        ((or (not focus) (eq (selected-window) window)) t)
                        ((let ((idle (current-idle-time))) (and idle (>= (float-time idle) 0.5)))
                         (aset (funcall mine) 4 (selected-window))
                         (select-window window)
                         t)))))
          (unless (funcall settle)
            (let ((timer nil))
              (setq timer (run-with-idle-timer
                           0.5 t
                           (lambda ()
                             (when (condition-case nil (funcall settle) (error t))
                               (cancel-timer timer)
                               (let ((entry (funcall mine))) (when entry (aset entry 3 nil)))))))
              (aset (funcall mine) 3 timer)))
          (unless window (funcall say (concat "pi asks (in *pi question*): " (car (split-string title "\\n"))))))))))`;

/**
 * The questions' install body (args `{prefix}`), after the asks' (its `<prefix>asks-message` hands pi's question
 * lines to `<prefix>question`; its `<prefix>asks-close` calls `<prefix>questions-close`). `send` is an answer's
 * way to this pi: its own `<prefix>send-ask` (core/elisp/push-elisp.ts), and what became of it said as the asks
 * say it (a pi gone is torn down: its question goes with it).
 */
const QUESTIONS_BODY = `(let* ((own-prefix (let ((prefix (gethash "prefix" args)))
                     (unless (and (stringp prefix) (string-match "pi-ide-[0-9]+-[0-9]+-" prefix)
                                  (= (match-beginning 0) 0) (= (match-end 0) (length prefix)))
                       (error "pi-ide: a bad prefix"))
                     prefix))
       (registry 'pi-ide-asks)
       (get (lambda (key) (plist-get (and (boundp registry) (symbol-value registry)) key)))
       ;; Never makes the registry: the asks' install does, and the last pi out takes it away.
       (put (lambda (key value)
              (when (boundp registry) (set registry (plist-put (symbol-value registry) key value)))))
       (say (lambda (text &optional face)
              (let ((message-log-max nil))
                (message "%s" (if face (propertize text 'face face) text)))))
       (send nil) (question-close nil) (question-show nil))
  (unless (fboundp (intern-soft (concat own-prefix "asks-message")))
    (error "pi's asks are not installed in this Emacs"))
  (setq send
        (lambda (method params)
          (let* ((send-ask (intern-soft (concat own-prefix "send-ask")))
                 (result (if (and send-ask (fboundp send-ask))
                             (funcall send-ask (list (cons "kind" "ask") (cons "method" method) (cons "params" params)))
                           'gone)))
            (cond ((eq result 'sent) t)
                  ((eq result 'full) (funcall say "pi: pi reads nothing now (stopped?): nothing sent" 'error) nil)
                  ((eq result 'gone)
                   (let ((teardown (intern-soft (concat own-prefix "teardown"))))
                     (if (and teardown (fboundp teardown))
                         (funcall teardown)
                       (while (funcall question-close own-prefix nil))))
                   (funcall say "pi: gone" 'error)
                   nil)
                  (t (funcall say "pi: this could not be sent" 'error) nil)))))
  (setq question-close ${indent(QUESTION_CLOSE_FORM, 8).trimStart()})
  (setq question-show ${indent(QUESTION_SHOW_FORM, 8).trimStart()})
  (fset (intern (concat own-prefix "question"))
        (lambda (message)
          (condition-case nil
              (if (equal (gethash "kind" message) "questionClosed")
                  (when (natnump (gethash "id" message)) (funcall question-close own-prefix (gethash "id" message)))
                (funcall question-show message))
            (error nil))))
  (fset (intern (concat own-prefix "questions-close"))
        (lambda () (condition-case nil (while (funcall question-close own-prefix nil)) (error nil))))
  (list (cons "ok" t)))`;

/**
 * Args `{prefix}` (after `ASKS_INSTALL_ELISP`): `<prefix>question`, which shows pi's question lines in `*pi
 * question*` (or takes the copy away), and `<prefix>questions-close`. `{"ok": true}` or `{"error": ...}`.
 */
export const QUESTIONS_INSTALL_ELISP = elispChunk(QUESTIONS_BODY);
