import { CHOOSE_FORM, OPEN_ASK_FORM } from "./ask-buffers-elisp.ts";
import { ASK_NEWS_FORM } from "./ask-news-elisp.ts";
import { ASK_PARAMS_FORM } from "./ask-params-elisp.ts";
import { elispChunk, indent } from "./elisp-chunk.ts";

/**
 * The asks' install body (args `{prefix, pid, project, connected, caps}`). One registry per Emacs, the variable
 * `pi-ide-asks`, shared by every pi that reads it: a plist of `:pis` (one `[prefix pid project connected]` per
 * pi, by pid), `:commands` (each command pi defined, with the function it holds), `:choice` (the pi picked in
 * the list, while it lives), `:ask`, `:choose` and `:reply` (pi's buffers), `:reply-wanted` and `:questions`
 * (each pi's `*pi question*`, core/elisp/question-elisp.ts, which takes them out first). The commands are
 * closures that reach a pi only through the registry and that pi's `<prefix>send-ask` (core/elisp/push-elisp.ts),
 * so they work whichever pi defined them and outlive it; `<prefix>asks-close`, which the install's teardown
 * calls, takes this pi out, and the last one out removes the commands, the registry and pi's buffers (a prompt
 * typed and not sent stays: its words are the user's). `<prefix>asks-message` takes pi's news on its push
 * connection (ask-news-elisp.ts). Installed again (after a failure) it updates the entry. Every function is
 * bound in the `let*` first and set after, so the closures can call each other.
 */
const ASKS_BODY = `(let* ((own-prefix (let ((prefix (gethash "prefix" args)))
                     (unless (and (stringp prefix) (string-match "pi-ide-[0-9]+-[0-9]+-" prefix)
                                  (= (match-beginning 0) 0) (= (match-end 0) (length prefix)))
                       (error "pi-ide: a bad prefix"))
                     prefix))
       (own-pid (let ((pid (gethash "pid" args))) (if (natnump pid) pid (error "pi-ide: a bad pid"))))
       (own-project (let ((dir (gethash "project" args)))
                      (if (and (stringp dir) (file-name-absolute-p dir)) dir (error "pi-ide: a bad project"))))
       (caps (gethash "caps" args))
       (path-chars (let ((value (and (hash-table-p caps) (gethash "path_chars" caps))))
                     (if (natnump value) value 4096)))
       (registry 'pi-ide-asks)
       (empty (make-hash-table :test 'equal))
       (get nil) (put nil) (say nil) (close-buffer nil) (file-of nil) (encode nil) (params-of nil)
       (unregister nil) (send-to nil) (target-of nil) (choose nil) (dispatch nil) (guard nil) (complete nil)
       (context-here nil) (release nil) (submit nil) (open-ask nil) (add nil)
       (ask-command nil) (add-command nil) (stop-command nil) (reply-command nil))
  (unless (fboundp (intern-soft (concat own-prefix "send-ask")))
    (error "pi's elisp is not installed in this Emacs"))
  (setq get (lambda (key) (plist-get (and (boundp registry) (symbol-value registry)) key)))
  ;; Never makes the registry again once the last pi took it away (a buffer's hook may run after).
  (setq put (lambda (key value)
              (when (boundp registry) (set registry (plist-put (symbol-value registry) key value)))))
  ;; The words answer the user's own command: shown, never kept in *Messages*.
  (setq say (lambda (text &optional face)
              (let ((message-log-max nil))
                (message "%s" (if face (propertize text 'face face) text)))))
  (setq close-buffer
        (lambda (buffer)
          (when (buffer-live-p buffer)
            (dolist (window (get-buffer-window-list buffer nil t))
              (condition-case nil (quit-window nil window) (error nil)))
            (let ((kill-buffer-query-functions nil)) (kill-buffer buffer)))))
  (setq file-of
        (lambda (buffer)
          (let ((name (buffer-file-name buffer)))
            (and name (not (file-remote-p name))
                 (let ((full (expand-file-name name))) (and (<= (length full) path-chars) full))))))
  (setq encode
        (lambda (value)
          (let ((json-encoding-pretty-print nil)
                (json-encoding-object-sort-predicate nil)
                (json-false :json-false)
                (json-null nil))
            (encode-coding-string (json-encode (list (cons "kind" "ask") (cons "method" "ask") (cons "params" value)))
                                  'utf-8 t))))
  (setq params-of ${indent(ASK_PARAMS_FORM, 18).trimStart()})
  (setq unregister
        (lambda (prefix)
          (when (boundp registry)
            ;; Its question goes first (core/elisp/question-elisp.ts), while the registry holds it.
            (let ((close (intern-soft (concat prefix "questions-close"))))
              (when (and close (fboundp close)) (funcall close)))
            (let ((kept nil))
              (dolist (entry (funcall get :pis)) (unless (equal (aref entry 0) prefix) (push entry kept)))
              (setq kept (nreverse kept))
              (funcall put :pis kept)
              (dolist (key '(:choice :reply-wanted)) (when (equal (funcall get key) prefix) (funcall put key nil)))
              (let ((reply (funcall get :reply)))
                (when (and reply (equal (car reply) prefix))
                  (funcall put :reply nil)
                  (funcall close-buffer (cdr reply))))
              (funcall close-buffer (funcall get :choose))
              (funcall put :choose nil)
              (unless kept
                (dolist (command (funcall get :commands))
                  (when (eq (symbol-function (car command)) (cdr command)) (fmakunbound (car command))))
                (let ((ask (funcall get :ask)))
                  (when (and (buffer-live-p ask) (= (buffer-size ask) 0)) (funcall close-buffer ask)))
                (makunbound registry))))))
  ;; sent, or why not said; a pi gone is dropped (its teardown: the connection is dead) and nothing is sent.
  (setq send-to
        (lambda (entry method params)
          (let* ((prefix (aref entry 0))
                 (send (intern-soft (concat prefix "send-ask")))
                 (result (if (and send (fboundp send))
                             (funcall send (list (cons "kind" "ask") (cons "method" method) (cons "params" params)))
                           'gone)))
            (cond ((eq result 'sent) t)
                  ((eq result 'full) (funcall say "pi: pi reads nothing now (stopped?): nothing sent" 'error) nil)
                  ((eq result 'gone)
                   (let ((teardown (intern-soft (concat prefix "teardown"))))
                     (if (and teardown (fboundp teardown)) (funcall teardown) (funcall unregister prefix)))
                   (funcall say "pi: gone" 'error)
                   nil)
                  (t (funcall say "pi: this could not be sent" 'error) nil)))))
  ;; The pi connected to this Emacs; else the one picked while it lives; else those of the deepest project
  ;; holding the file (all when none does): one is the target, several make the list.
  (setq target-of
        (lambda (file)
          (let* ((entries (funcall get :pis))
                 (connected (let ((found nil))
                              (dolist (entry entries (nreverse found)) (when (eq (aref entry 3) t) (push entry found)))))
                 (choice (let ((prefix (funcall get :choice)) (found nil))
                           (dolist (entry entries found) (when (equal (aref entry 0) prefix) (setq found entry)))))
                 (candidates (or connected entries)))
            (cond ((null entries) nil)
                  ((= (length connected) 1) connected)
                  ((and choice (memq choice candidates)) (list choice))
                  (t (let ((depth -1) (deepest nil))
                       (dolist (entry candidates)
                         (let ((dir (file-name-as-directory (aref entry 2))))
                           (when (and file (string-prefix-p dir file))
                             (cond ((> (length dir) depth) (setq depth (length dir) deepest (list entry)))
                                   ((= (length dir) depth) (push entry deepest))))))
                       (or (nreverse deepest) candidates)))))))
  ;; The numbered list (ask-buffers-elisp.ts).
  (setq choose ${indent(CHOOSE_FORM, 8).trimStart()})
  (setq dispatch
        (lambda (method params file done)
          (let ((targets (funcall target-of file)))
            (cond ((null targets) (funcall say "pi: gone" 'error))
                  ((cdr targets) (funcall choose targets method params done))
                  ((funcall send-to (car targets) method params) (funcall done (car targets)))))))
  (setq guard
        (lambda (body)
          (condition-case failure
              (funcall body)
            (error (funcall say (format "pi: %s" (error-message-string failure)) 'error)))))
  (setq complete
        (lambda ()
          (let ((end (point)))
            (save-excursion
              (skip-chars-backward "a-z")
              (when (eq (char-before) ?@)
                (list (1- (point)) end '("@this" "@selection" "@buffer" "@buffers" "@diagnostics")
                      :exclusive 'no))))))
  (setq context-here
        (lambda ()
          (let ((region (and (use-region-p) (cons (region-beginning) (region-end)))))
            (vector (current-buffer) (and region (copy-marker (car region))) (and region (copy-marker (cdr region)))
                    (copy-marker (point))))))
  (setq release
        (lambda (context)
          (when (vectorp context)
            (dolist (index '(1 2 3))
              (let ((marker (aref context index))) (when (markerp marker) (set-marker marker nil)))))))
  (setq submit
        (lambda (buffer context)
          (let* ((prompt (replace-regexp-in-string (rx (any (0 . 8) 11 12 (14 . 31) 127)) ""
                                                   (with-current-buffer buffer
                                                     (buffer-substring-no-properties (point-min) (point-max)))))
                 (typed (string-bytes (encode-coding-string prompt 'utf-8 t)))
                 (most (let ((value (and (hash-table-p caps) (gethash "typed_bytes" caps))))
                         (if (natnump value) value 65536))))
            (cond ((string-match-p (rx bos (* (any blank ?\\n ?\\r ?\\f)) eos) prompt)
                   (funcall say "pi: type a prompt first (C-c C-k cancels)"))
                  ((> typed most)
                   (funcall say (format "pi: prompt too long (%d KiB typed; %d KiB at most)"
                                        (ceiling typed 1024) (/ most 1024))
                            'error))
                  (t (let ((params (funcall params-of context prompt caps file-of encode)))
                       (if (stringp params)
                           (funcall say params 'error)
                         (funcall dispatch "ask" params (funcall file-of (aref context 0))
                                  (lambda (entry)
                                    (funcall close-buffer buffer)
                                    (funcall release context)
                                    (funcall put :ask nil)
                                    (funcall say (format "pi: sent to pi %d" (aref entry 1))))))))))))
  ;; The prompt's own buffer (ask-buffers-elisp.ts).
  (setq open-ask ${indent(OPEN_ASK_FORM, 8).trimStart()})
  (setq add
        (lambda ()
          (let ((file (funcall file-of (current-buffer))))
            (if (not file)
                (funcall say "pi: this buffer visits no file on this machine: nothing added")
              (save-excursion
                (let* ((region (and (use-region-p) (cons (region-beginning) (region-end))))
                       (start (if region (car region) (point)))
                       (end (if region (cdr region) (point)))
                       (last (if (and region (progn (goto-char end) (bolp))) (1- end) end)))
                  (funcall dispatch "add"
                           (list (cons "file" file)
                                 (cons "startLine" (line-number-at-pos start t))
                                 (cons "endLine" (line-number-at-pos last t)))
                           file #'ignore)))))))
  (setq ask-command
        (lambda ()
          "Ask pi: type the prompt in a buffer of its own (the region is @this and @selection)."
          (interactive)
          (funcall guard open-ask)))
  (setq add-command
        (lambda ()
          "Put a reference to the region's lines, else point's line, into pi's input."
          (interactive)
          (funcall guard add)))
  (setq stop-command
        (lambda ()
          "Stop pi's run."
          (interactive)
          (funcall guard (lambda () (funcall dispatch "stop" empty (funcall file-of (current-buffer)) #'ignore)))))
  (setq reply-command
        (lambda ()
          "Show pi's reply to the latest ask in a read-only buffer."
          (interactive)
          (funcall guard
                   (lambda ()
                     (funcall dispatch "reply" empty (funcall file-of (current-buffer))
                              (lambda (entry)
                                (funcall put :reply-wanted (aref entry 0))
                                (let ((reply (funcall get :reply)))
                                  (when (and reply (equal (car reply) (aref entry 0)) (buffer-live-p (cdr reply)))
                                    (display-buffer (cdr reply))))))))))
  (unless (boundp registry) (set registry (list :pis nil)))
  ;; By pid, then in the order they came (sort is stable): the list's numbers stay as they were.
  (let* ((entry (vector own-prefix own-pid own-project (eq (gethash "connected" args) t)))
         (entries (funcall get :pis))
         (known (let ((found nil))
                  (dolist (old entries found) (when (equal (aref old 0) own-prefix) (setq found old))))))
    (funcall put :pis (sort (if known
                                (mapcar (lambda (old) (if (eq old known) entry old)) entries)
                              (append entries (list entry)))
                            (lambda (a b) (< (aref a 1) (aref b 1))))))
  (fset (intern (concat own-prefix "asks-close"))
        (lambda () (condition-case nil (funcall unregister own-prefix) (error nil))))
  ;; pi's news on its push connection (ask-news-elisp.ts), handed over by the install's filter.
  (fset (intern (concat own-prefix "asks-message")) ${indent(ASK_NEWS_FORM, 8).trimStart()})
  ;; A name of the user's is never replaced: pi-ide-<name> then, and pi says so.
  (let ((commands (funcall get :commands)) (defined nil) (kept nil))
    (dolist (spec (list (cons "ask" ask-command) (cons "add" add-command)
                        (cons "stop" stop-command) (cons "reply" reply-command)))
      (let* ((public (intern (concat "pi-" (car spec))))
             (fallback (intern (concat "pi-ide-" (car spec))))
             (ours (lambda (symbol)
                     (let ((known (assq symbol commands))) (and known (eq (symbol-function symbol) (cdr known))))))
             (chosen (cond ((funcall ours public) public)
                           ((funcall ours fallback) fallback)
                           ((not (fboundp public)) public)
                           ((not (fboundp fallback)) fallback))))
        (unless (eq chosen public) (push (symbol-name public) kept))
        (when chosen
          (unless (funcall ours chosen)
            (fset chosen (cdr spec))
            (setq commands (cons (cons chosen (cdr spec)) (assq-delete-all chosen commands))))
          (push (symbol-name chosen) defined))))
    (funcall put :commands commands)
    (list (cons "ok" t) (cons "commands" (vconcat (nreverse defined))) (cons "kept" (vconcat (nreverse kept))))))`;

/**
 * Args `{prefix, pid, project, connected, caps}` (after `INSTALL_ELISP`, which defines `<prefix>send-ask`): this pi
 * in the Emacs's registry of pis, and `M-x pi-ask`, `pi-add`, `pi-stop`, `pi-reply` defined once for all of them
 * (a function of the user's by that name is kept: `pi-ide-ask` and so on instead). `pi-ask` opens `*pi ask*` (the
 * region and point as they were are what the placeholders stand for; `C-c C-c` sends, `C-c C-k` cancels);
 * `pi-add` sends the region's lines, else point's line; `pi-reply` asks for the reply view (ask-news-elisp.ts).
 * Each goes to one pi (the connected one, the one picked, the only one) or opens `*pi choose*`, a numbered
 * list. `{"ok": true, "commands": [names defined], "kept": [the user's names left alone]}`.
 */
export const ASKS_INSTALL_ELISP = elispChunk(ASKS_BODY);
