/**
 * pi's buffers that the asks' commands open (core/elisp/asks-elisp.ts): the prompt's own and the list of pis.
 * Each is a form of the asks' install body, set there, where the functions it calls are bound (`get`, `put`,
 * `say`, `close-buffer`, `send-to`, `context-here`, `release`, `submit`, `guard`, `complete`).
 */

/** The prompt's buffer's header line: no `%` in it (the header line's own escapes). */
const ASK_HEADER = " pi: C-c C-c sends, C-c C-k cancels; @this @selection @buffer @buffers @diagnostics";

/**
 * `*pi ask*`, never the minibuffer: Emacs stays free while the user types. The region and point of the buffer
 * it was opened from are kept (markers) for the placeholders; `C-c C-c` sends, `C-c C-k` cancels, both bound in
 * the buffer's own keymap; `@` completes the placeholders (`completion-at-point`). Opened again from another
 * buffer, it keeps what is typed and takes that buffer's region and point.
 */
export const OPEN_ASK_FORM = `(lambda ()
  (let ((old (funcall get :ask)))
    (if (and (buffer-live-p old) (eq (current-buffer) old))
        (funcall say "pi: type the prompt here; C-c C-c sends it, C-c C-k cancels")
      (let* ((context (funcall context-here))
             (buffer (if (buffer-live-p old) old (generate-new-buffer "*pi ask*")))
             (map (make-sparse-keymap)))
        (funcall release (funcall get :ask-context))
        (funcall put :ask-context context)
        (funcall put :ask buffer)
        (with-current-buffer buffer
          (unless (eq buffer old)
            (condition-case nil (delay-mode-hooks (text-mode)) (error nil))
            (setq delayed-mode-hooks nil)
            (setq-local completion-at-point-functions (list complete)))
          (set-keymap-parent map text-mode-map)
          (define-key map (kbd "C-c C-c")
            (lambda () (interactive) (funcall guard (lambda () (funcall submit buffer context)))))
          (define-key map (kbd "C-c C-k")
            (lambda ()
              (interactive)
              (funcall close-buffer buffer)
              (funcall release context)
              (funcall say "pi: nothing sent")))
          (use-local-map map)
          (setq header-line-format ${JSON.stringify(ASK_HEADER)}))
        (let ((window (display-buffer buffer '((display-buffer-reuse-window display-buffer-at-bottom)
                                               (window-height . 8)))))
          (when window
            (select-window window)
            (goto-char (point-max))))))))`;

/**
 * `*pi choose*`: which pi takes a message when several could (never a prompt in the minibuffer): a digit picks
 * (kept as the choice while that pi lives), `q` sends nothing.
 */
export const CHOOSE_FORM = `(lambda (candidates method params done)
  (funcall close-buffer (funcall get :choose))
  (let ((buffer (generate-new-buffer "*pi choose*"))
        (map (make-sparse-keymap))
        (index 0))
    (with-current-buffer buffer
      (insert "Which pi takes this? Type its number (q: none).\\n\\n")
      (dolist (entry candidates)
        (setq index (1+ index))
        (when (<= index 9)
          (insert (format " %d  pi %d in %s%s\\n" index (aref entry 1) (abbreviate-file-name (aref entry 2))
                          (if (eq (aref entry 3) t) " (connected)" "")))
          (let ((chosen entry))
            (define-key map (number-to-string index)
              (lambda ()
                (interactive)
                (funcall close-buffer buffer)
                (funcall put :choice (aref chosen 0))
                (when (funcall send-to chosen method params) (funcall done chosen)))))))
      (define-key map "q" (lambda () (interactive) (funcall close-buffer buffer) (funcall say "pi: nothing sent")))
      (use-local-map map)
      (setq buffer-read-only t)
      (set-buffer-modified-p nil)
      (goto-char (point-min)))
    (funcall put :choose buffer)
    (let ((window (display-buffer buffer '((display-buffer-at-bottom) (window-height . fit-window-to-buffer)))))
      (when window (select-window window)))))`;
