/**
 * `<prefix>asks-message`, a form of the asks' install body (core/elisp/asks-elisp.ts: `own-prefix`, `get`, `put`,
 * `empty`): what pi tells the asks in Emacs while it runs, as lines of JSON on its push connection (never a
 * request to the server: 28.2's server lets a C-g typed meanwhile quit the request and the key is lost, while a
 * process filter holds quits and Emacs reads the C-g as the user's key once it returns). Each is data, never
 * evaluated; nothing here asks the user anything.
 *
 * - `{kind: "status", text, level}`: the first line in the echo area, cut to its width, the face `error` for an
 *   error, with `message-log-max` nil so it stays out of `*Messages*`.
 * - `{kind: "reply", file, streaming}`: the reply's text, read from a 0600 file in pi's private dir (pi keeps only
 *   the latest; one gone meanwhile is skipped), replaces the text of `*pi reply*` when that view is open for this
 *   pi, or opens it when the user just asked for it (`pi-reply`: `:reply-wanted`). The buffer is read-only,
 *   Markdown where `markdown-mode` is loaded, else `text-mode`, the mode's hooks dropped; the text is only
 *   inserted: no file-local variables, no mode from the text, no `coding:` cookie read (`coding-system-for-read`
 *   bound). Each window keeps its point and start. Killing the buffer tells pi (`replyClosed`); a reply with no
 *   view open for it tells pi the same, so pi stops sending it.
 * - `{kind: "follow", id}`: a run ended, so every buffer visiting a local file that changed on disk since Emacs
 *   read it (`verify-visited-file-modtime`: the model's `bash`, say) follows the disk: an unmodified one is
 *   reverted as the model's write is (`(revert-buffer t t t)`: no question, modes kept, a narrowing put back
 *   between markers); one with unsaved changes, or whose file is gone, is left alone and counted. TRAMP buffers
 *   are never looked at. Answered with `{kind: "followed", id, not_reloaded}`.
 * - `{kind: "question", ...}`, `{kind: "notice", ...}`, `{kind: "questionClosed", id}`: one of pi's questions
 *   of a run this Emacs asked, handed to `<prefix>question` (core/elisp/question-elisp.ts) when it is installed.
 * - `{kind: "connected", connected}`: whether this pi is connected to this Emacs now, in its registry entry.
 */
export const ASK_NEWS_FORM = `(lambda (message)
  (let* ((kind (gethash "kind" message))
         (send-symbol (intern-soft (concat own-prefix "send")))
         ;; The install's own line to pi; gone with it (a buffer's hook may run after).
         (send (lambda (value) (when (and send-symbol (fboundp send-symbol)) (funcall send-symbol value)))))
    (cond
     ((equal kind "status")
      (let* ((text (gethash "text" message))
             (line (car (split-string (if (stringp text) text "") "\\n")))
             (width (max 20 (1- (window-width (minibuffer-window)))))
             (shown (truncate-string-to-width line width nil nil "...")))
        (let ((message-log-max nil))
          (message "%s" (if (equal (gethash "level" message) "error") (propertize shown 'face 'error) shown)))))
     ((equal kind "reply")
      (let* ((reply (funcall get :reply))
             (buffer (and reply (equal (car reply) own-prefix) (buffer-live-p (cdr reply)) (cdr reply)))
             (file (gethash "file" message)))
        (cond
         ((not (or buffer (equal (funcall get :reply-wanted) own-prefix)))
          (funcall send (list (cons "kind" "ask") (cons "method" "replyClosed") (cons "params" empty))))
         ((and (stringp file) (file-name-absolute-p file) (file-regular-p file))
          (unless buffer
            (when (and reply (buffer-live-p (cdr reply)))
              (let ((kill-buffer-query-functions nil)) (kill-buffer (cdr reply))))
            (setq buffer (generate-new-buffer "*pi reply*"))
            (with-current-buffer buffer
              (condition-case nil
                  (delay-mode-hooks (if (featurep 'markdown-mode) (markdown-mode) (text-mode)))
                (error (fundamental-mode)))
              (setq delayed-mode-hooks nil)
              (when (boundp 'delayed-after-hook-functions) (setq delayed-after-hook-functions nil))
              (setq buffer-read-only t buffer-undo-list t)
              (let ((map (make-sparse-keymap)))
                (set-keymap-parent map (current-local-map))
                (define-key map "q" #'quit-window)
                (use-local-map map))
              (add-hook 'kill-buffer-hook
                        (lambda ()
                          (condition-case nil
                              (progn
                                (when (eq (cdr (funcall get :reply)) (current-buffer)) (funcall put :reply nil))
                                (funcall send (list (cons "kind" "ask") (cons "method" "replyClosed")
                                                    (cons "params" empty))))
                            (error nil)))
                        nil t))
            (funcall put :reply (cons own-prefix buffer))
            (funcall put :reply-wanted nil)
            (let ((window (display-buffer buffer '((display-buffer-reuse-window display-buffer-pop-up-window)
                                                   (inhibit-same-window . t)))))
              (when (and window (zerop (recursion-depth)) (not (minibufferp (window-buffer (selected-window)))))
                (select-window window))))
          (with-current-buffer buffer
            (let ((inhibit-read-only t)
                  (coding-system-for-read 'utf-8-unix)
                  (format-alist nil)
                  (after-insert-file-functions nil)
                  (file-name-handler-alist nil)
                  (at (point))
                  (windows (mapcar (lambda (window) (list window (window-point window) (window-start window)))
                                   (get-buffer-window-list buffer nil t))))
              (erase-buffer)
              (insert-file-contents file)
              (goto-char (min at (point-max)))
              (dolist (kept windows)
                (set-window-start (nth 0 kept) (min (nth 2 kept) (point-max)) t)
                (set-window-point (nth 0 kept) (min (nth 1 kept) (point-max))))
              (set-buffer-modified-p nil))
            (setq header-line-format
                  (if (eq (gethash "streaming" message) t) " pi's reply (still coming)" " pi's reply")))))))
     ((equal kind "follow")
      (let ((reverted 0) (left 0) (inhibit-message t) (message-log-max nil))
        (dolist (buffer (buffer-list))
          (let ((file (buffer-file-name buffer)))
            (when (and file (not (file-remote-p file))
                       (not (condition-case nil (verify-visited-file-modtime buffer) (error t))))
              (if (or (buffer-modified-p buffer) (not (file-exists-p file)))
                  (setq left (1+ left))
                (condition-case nil
                    (with-current-buffer buffer
                      (let ((restriction (and (buffer-narrowed-p)
                                              (cons (copy-marker (point-min)) (copy-marker (point-max) t)))))
                        (unwind-protect
                            (revert-buffer t t t)
                          (when restriction
                            (narrow-to-region (car restriction) (cdr restriction))
                            (set-marker (car restriction) nil)
                            (set-marker (cdr restriction) nil))))
                      (setq reverted (1+ reverted)))
                  (error (setq left (1+ left))))))))
        (funcall send (list (cons "kind" "followed") (cons "id" (gethash "id" message))
                            (cons "reverted" reverted) (cons "not_reloaded" left)))))
     ((member kind '("question" "notice" "questionClosed"))
      (let ((question (intern-soft (concat own-prefix "question"))))
        (when (and question (fboundp question)) (funcall question message))))
     ((equal kind "connected")
      (dolist (entry (funcall get :pis))
        (when (equal (aref entry 0) own-prefix) (aset entry 3 (eq (gethash "connected" message) t))))))))`;
