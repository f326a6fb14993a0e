import { ASKS_INSTALL_ELISP } from "./asks-elisp.ts";
import { elispChunk, indent } from "./elisp-chunk.ts";
import { CHANGE_END_FORM, CHANGE_START_FORM, NEWLINES_FORM } from "./lines-elisp.ts";
import { PROBE_ELISP } from "./probe-elisp.ts";
import { receiveForm, sendAskForm } from "./push-talk-elisp.ts";
import { QUESTIONS_INSTALL_ELISP } from "./question-elisp.ts";
import { RELOAD_ELISP, SNAPSHOT_FORM, STATE_ELISP, UNSAVED_ELISP } from "./state-elisp.ts";

/**
 * How many bytes of pushed lines may wait for pi's one-byte acknowledgements (push-listener.ts) before Emacs
 * holds the next state back: well below the ~208 KiB a unix socket takes before `process-send-string` blocks.
 */
export const PUSH_WINDOW_BYTES = 128 * 1024;

/**
 * The install's body (`args` a hash table; the frame, core/elisp/elisp-chunk.ts, macroexpands it once, so the closures
 * that run on every key carry no macro calls). Every symbol is `<prefix><name>`; the closures share their state
 * through the `let*`, so nothing but those functions is defined.
 *
 * Flow control: pi writes one byte back for every line it read; Emacs keeps the sizes of the lines sent, oldest
 * first, and each byte back takes one off. A state is sent when nothing waits, or when it and the bytes waiting
 * stay within `PUSH_WINDOW_BYTES`: one line is at most ~132 KB (a selection's text is cut to 66 000 bytes, its
 * JSON escapes bounded, core/elisp/state-elisp.ts), so a pi that stops reading (suspended with C-z) can never fill
 * the socket and freeze Emacs inside `process-send-string`; the acknowledgement that opens the window again
 * sends the state held back. The review's lines (`<prefix>send`) are always sent: they are few, small, and
 * must arrive (they are counted all the same).
 *
 * Advice on a function not yet loaded (`flymake--handle-report` before Flymake is) leaves entries on its
 * symbol's plist after `advice-remove` (`advice--pending`, `function-documentation`, `defalias-fset-function`):
 * those pi's `advice-add` made are taken off again once no advice is left on it.
 */
const INSTALL_BODY = `(let ((socket (gethash "socket" args))
      (token (gethash "token" args))
      (prefix (gethash "prefix" args))
      (whole (lambda (pattern text)
               (and (stringp text)
                    (save-match-data
                      (let ((case-fold-search nil))
                        (and (eq (string-match pattern text) 0)
                             (= (match-end 0) (length text)))))))))
  (unless (funcall whole "pi-ide-[0-9]+-[0-9]+-" prefix) (error "pi-ide: a bad prefix"))
  (unless (and (stringp socket) (file-name-absolute-p socket)) (error "pi-ide: a bad socket path"))
  (unless (funcall whole "[0-9a-f]+" token) (error "pi-ide: a bad token"))
  ;; An older install with this prefix goes first, before any of its names is interned again.
  (let ((old (intern-soft (concat prefix "teardown"))))
    (when (and old (fboundp old)) (funcall old)))
  (let* ((debounce-ms (gethash "debounce_ms" args))
         (debounce (/ (if (and (numberp debounce-ms) (<= 0 debounce-ms 10000)) debounce-ms 10) 1000.0))
         (caps (gethash "caps" args))
         (push-symbol (intern (concat prefix "push")))
         (changed-symbol (intern (concat prefix "changed")))
         (hooks (mapcar (lambda (entry) (cons (car entry) (intern (concat prefix (cdr entry)))))
                        '((post-command-hook . "changed")
                          (before-change-functions . "before-change")
                          (window-selection-change-functions . "changed")
                          (window-buffer-change-functions . "changed")
                          (after-change-functions . "after-change")
                          (after-save-hook . "changed")
                          (after-revert-hook . "changed")
                          (kill-buffer-hook . "buffer-killed")
                          (after-load-functions . "loaded"))))
         ;; While installed, pushes on or off: how many frames a user sees decides whether pi offers it.
         (frame-hooks (list (cons 'after-make-frame-functions (intern (concat prefix "frame-made")))
                            (cons 'delete-frame-functions (intern (concat prefix "frame-deleted")))))
         (snapshot ${indent(SNAPSHOT_FORM, 10).trimStart()})
         (memory (make-hash-table :test 'eq))
         (candidates (make-hash-table :test 'eq :weakness 'key))
         (newlines ${indent(NEWLINES_FORM, 19).trimStart()})
         (change-start ${indent(CHANGE_START_FORM, 23).trimStart()})
         (change-end ${indent(CHANGE_END_FORM, 21).trimStart()})
         (process nil) (timer nil) (last-sent nil) (sizes nil) (in-flight 0) (wanted nil) (pushing nil)
         (incoming "") (receive nil)
         (frame-due nil) (dying nil) (dying-waits 0) (advice-keys nil)
         (flycheck-hooked nil) (hook-flycheck nil) (encode nil) (send nil) (schedule nil) (set-pushing nil)
         (unadvise nil) (teardown nil))
    (puthash 'lines (make-hash-table :test 'eq :weakness 'key) memory)
    (puthash 'roots (make-hash-table :test 'equal) memory)
    (puthash 'candidates candidates memory)
    (setq encode
          (lambda (value)
            ;; json.el prints into a temporary buffer: no change hook (ours included) needs to see that.
            (let ((inhibit-modification-hooks t)
                  (json-encoding-pretty-print nil)
                  (json-encoding-object-sort-predicate nil)
                  (json-false :json-false)
                  (json-null nil))
              (concat (encode-coding-string (json-encode value) 'utf-8 t) "\\n"))))
    (setq send
          (lambda (line)
            (and process (eq (process-status process) 'open)
                 (let ((size (string-bytes line)))
                   (process-send-string process line)
                   (setq sizes (nconc sizes (list size)) in-flight (+ in-flight size))
                   t))))
    (setq schedule
          (lambda ()
            (when (and (or pushing frame-due) (not timer))
              (setq timer (run-with-timer debounce nil push-symbol)))))
    ;; Flycheck's hook is added once Flycheck is loaded (at pushes on, or on its load): never bound by pi.
    (setq hook-flycheck
          (lambda ()
            (when (and pushing (not flycheck-hooked) (boundp 'flycheck-after-syntax-check-hook))
              (add-hook 'flycheck-after-syntax-check-hook changed-symbol t)
              (setq flycheck-hooked t))))
    (setq set-pushing
          (lambda (on)
            (cond ((and on (not pushing))
                   (setq pushing t last-sent nil wanted nil)
                   (clrhash candidates)
                   (dolist (buffer (buffer-list))
                     (when (and (buffer-file-name buffer) (buffer-modified-p buffer))
                       (puthash buffer t candidates)))
                   (dolist (hook hooks) (add-hook (car hook) (cdr hook) t))
                   (setq advice-keys nil)
                   (dolist (key '(advice--pending function-documentation defalias-fset-function))
                     (unless (plist-member (symbol-plist 'flymake--handle-report) key) (push key advice-keys)))
                   (advice-add 'flymake--handle-report :after changed-symbol)
                   (funcall hook-flycheck)
                   (funcall schedule))
                  ((and (not on) pushing)
                   (setq pushing nil)
                   (dolist (hook hooks) (remove-hook (car hook) (cdr hook)))
                   (when flycheck-hooked
                     (remove-hook 'flycheck-after-syntax-check-hook changed-symbol)
                     (setq flycheck-hooked nil))
                   (advice-remove 'flymake--handle-report changed-symbol)
                   (funcall unadvise)
                   ;; A frame's coming or going still due is sent; nothing else is.
                   (unless frame-due
                     (setq wanted nil)
                     (when timer (cancel-timer timer) (setq timer nil)))))
            t))
    (setq unadvise
          (lambda ()
            (let ((advised nil))
              (advice-mapc (lambda (&rest _) (setq advised t)) 'flymake--handle-report)
              (unless advised
                (let ((plist (symbol-plist 'flymake--handle-report)) (kept nil))
                  (while plist
                    (unless (and (memq (car plist) advice-keys)
                                 (or (null (cadr plist)) (eq (car plist) 'function-documentation)))
                      (push (car plist) kept)
                      (push (cadr plist) kept))
                    (setq plist (cddr plist)))
                  (setplist 'flymake--handle-report (nreverse kept)))))
            (setq advice-keys nil)))
    (setq receive ${indent(receiveForm(PUSH_WINDOW_BYTES), 10).trimStart()})
    (setq teardown
          (lambda ()
            ;; A review open when pi goes is closed now, not at the user's next key (review/core/emacs-diff-elisp.ts).
            ;; The asks' commands and views go with the last pi (core/elisp/asks-elisp.ts), this one's entry now.
            (dolist (name '("review-close" "asks-close"))
              (let ((close (intern-soft (concat prefix name))))
                (when (and close (fboundp close))
                  (condition-case nil (funcall close) (error nil)))))
            (funcall set-pushing nil)
            (dolist (hook frame-hooks) (remove-hook (car hook) (cdr hook)))
            ;; Whatever it was for: once the functions are unbound, a timer left would fire into a void one.
            (when timer (cancel-timer timer) (setq timer nil))
            (when process
              (set-process-sentinel process #'ignore)
              (set-process-filter process #'ignore)
              (delete-process process)
              (setq process nil))
            ;; Every symbol of this install's prefix, the review's included: none is left defined or interned.
            (let ((mine nil))
              (mapatoms (lambda (symbol)
                          (when (string-prefix-p prefix (symbol-name symbol)) (push symbol mine))))
              (dolist (symbol mine)
                (fmakunbound symbol)
                (makunbound symbol)
                (unintern symbol obarray)))
            t))
    ;; Whatever fails from here on leaves nothing: the teardown removes what was made.
    (condition-case failure
        (progn
          (setq process
                (make-network-process
                 :name (concat prefix "connection") :family 'local :service socket
                 :noquery t :coding 'binary
                 ;; A filter holds quits: a C-g typed meanwhile is read as the user's key once it returns.
                 :filter (lambda (_connection input)
                           (condition-case nil (funcall receive input) (error nil)))
                 :sentinel (lambda (connection _event)
                             (condition-case nil
                                 (unless (eq (process-status connection) 'open) (funcall teardown))
                               (error nil)))))
          (process-send-string process (concat token "\\n"))
          (fset (intern (concat prefix "send"))
                (lambda (value)
                  (condition-case nil (funcall send (funcall encode value)) (error nil))))
          ${indent(sendAskForm(PUSH_WINDOW_BYTES), 10).trimStart()}
          (fset (intern (concat prefix "set-pushing"))
                (lambda (on) (condition-case nil (funcall set-pushing (eq on t)) (error nil))))
          (fset (intern (concat prefix "teardown"))
                (lambda () (condition-case nil (funcall teardown) (error nil))))
          (fset push-symbol
                (lambda ()
                  (setq timer nil)
                  (condition-case nil
                      (let ((inhibit-message t) (message-log-max nil))
                        (save-match-data
                          (cond
                           ;; A frame is deleted after its delete-frame-functions ran: a timer that fired
                           ;; inside them (a hook that waited) would still count it. Up to 1 s later, then as is.
                           ((and (< dying-waits 100)
                                 (let ((live nil)) (dolist (frame dying live) (when (frame-live-p frame) (setq live t)))))
                            (setq dying-waits (1+ dying-waits))
                            (funcall schedule))
                           ((>= in-flight ${PUSH_WINDOW_BYTES})
                            (setq wanted t))
                           (t
                            (setq dying nil dying-waits 0)
                            (let ((line (funcall encode
                                                 (list (cons "kind" "state")
                                                       (cons "state"
                                                             (condition-case failure
                                                                 (funcall snapshot caps memory)
                                                               (error (list (cons "error" (error-message-string failure))))))))))
                              (cond ((equal line last-sent) (setq frame-due nil))
                                    ((and sizes (> (+ in-flight (string-bytes line)) ${PUSH_WINDOW_BYTES}))
                                     (setq wanted t))
                                    ((funcall send line) (setq last-sent line frame-due nil))))))))
                    (error nil))))
          (fset changed-symbol
                (lambda (&rest _) (condition-case nil (funcall schedule) (error nil))))
          (fset (intern (concat prefix "before-change"))
                (lambda (beg end)
                  (condition-case nil (funcall change-start (gethash 'lines memory) newlines beg end) (error nil))))
          (fset (intern (concat prefix "after-change"))
                (lambda (beg end old-length)
                  (condition-case nil (funcall change-end (gethash 'lines memory) newlines beg end old-length)
                    (error nil))
                  (condition-case nil
                      (when buffer-file-name
                        (puthash (current-buffer) t candidates)
                        (funcall schedule))
                    (error nil))))
          (fset (intern (concat prefix "frame-made"))
                (lambda (&rest _) (condition-case nil (progn (setq frame-due t) (funcall schedule)) (error nil))))
          (fset (intern (concat prefix "frame-deleted"))
                (lambda (frame &rest _)
                  (condition-case nil
                      (progn (when (frame-live-p frame) (push frame dying))
                             (setq frame-due t)
                             (funcall schedule))
                    (error nil))))
          (fset (intern (concat prefix "loaded"))
                (lambda (&rest _) (condition-case nil (funcall hook-flycheck) (error nil))))
          (fset (intern (concat prefix "buffer-killed"))
                (lambda (&rest _)
                  (condition-case nil
                      (progn (remhash (current-buffer) candidates)
                             (when buffer-file-name (funcall schedule)))
                    (error nil))))
          (dolist (hook frame-hooks) (add-hook (car hook) (cdr hook) t))
          (funcall set-pushing (eq (gethash "push" args) t))
          (list (cons "ok" t)))
      (error (funcall teardown) (signal (car failure) (cdr failure))))))`;

/**
 * Args `{socket, token, prefix, push, debounce_ms, caps}`: connects this Emacs to pi's push socket
 * (push-listener.ts), writes the token as the first line, defines `<prefix>send` (one JSON line to pi: the
 * review's way back, `(funcall (intern (concat prefix "send")) alist)`), `<prefix>send-ask` (an ask's line,
 * within the window: core/elisp/ask-params-elisp.ts), `<prefix>set-pushing` and
 * `<prefix>teardown`, adds `<prefix>frame-made` to `after-make-frame-functions` and `<prefix>frame-deleted` to
 * `delete-frame-functions`, and with `push` true adds the other hooks. The connection's close (pi exited, was
 * killed, or closed it) removes everything: it calls `<prefix>review-close` when a review defined it (an open
 * review closes at once) and `<prefix>asks-close` when the asks did (core/elisp/asks-elisp.ts), then removes hooks, advice, a pending timer (always: it would call a function no
 * longer defined) and process, and every symbol named with the prefix (functions, variables, the symbols
 * themselves). `{"ok": true}` or `{"error": ...}`; installing again with the same prefix first tears the older
 * install down.
 *
 * Pushes: `post-command-hook`, window selection and buffer changes, Lisp-made changes to a file buffer
 * (`after-change-functions`: no command runs for them), saves, reverts, killed buffers, Flymake reports
 * (advice `:after` on `flymake--handle-report`, Flymake 1.2.2's handler: it has no hook) and Flycheck's
 * `flycheck-after-syntax-check-hook` (added once Flycheck is loaded: `after-load-functions` watches) each
 * start the one timer, unless it is pending; when it fires the state is sent as `{"kind":"state","state":...}`
 * if it differs from the last sent. A frame made or deleted starts it with pushes off too (and pushes turned
 * off leave it pending), so a daemon pi reads is offered once an `emacsclient` frame opens and no longer once
 * its last one closes. `delete-frame-functions` run while the frame still exists; the timer fires after
 * `delete-frame` is done (checked in 28.2), and one that fires while that frame is still live (a hook that
 * waited and so ran timers) is started again, up to 1 s, so `frames` never counts a frame being deleted.
 * `before-change-functions` and `after-change-functions` also keep the line record of each buffer described
 * (core/elisp/lines-elisp.ts): a push after an edit counts the edit's lines, not the buffer's.
 */
export const INSTALL_ELISP = elispChunk(INSTALL_BODY);

/** Args `{prefix, push}`: turns that install's hooks on or off; the connection stays. `{"ok": true}` or `{"error"}`. */
export const SET_PUSHING_ELISP = elispChunk(`(let* ((prefix (gethash "prefix" args))
       (function (and (stringp prefix) (intern-soft (concat prefix "set-pushing")))))
  (if (and function (fboundp function))
      (progn (funcall function (eq (gethash "push" args) t))
             (list (cons "ok" t)))
    (list (cons "error" "pi's elisp is not installed in this Emacs"))))`);

/** Every chunk of elisp the Emacs source sends, by name (docs/security.md quotes each verbatim; a test keeps it so). */
export const EMACS_ELISP_CHUNKS: Readonly<Record<string, string>> = {
	PROBE_ELISP,
	STATE_ELISP,
	UNSAVED_ELISP,
	RELOAD_ELISP,
	INSTALL_ELISP,
	SET_PUSHING_ELISP,
	ASKS_INSTALL_ELISP,
	QUESTIONS_INSTALL_ELISP,
};
