import { elispChunk } from "./elisp-chunk.ts";

/**
 * Every piece of elisp pi sends to an Emacs, as fixed texts: each is a `(lambda (pi-ide-args) ...)` called
 * with one base64 string of JSON (core/server-protocol.ts `evalRequestLine`), so what pi reads from outside is
 * data and never code. Each returns base64 of UTF-8 JSON, so no print setting of the user's (`print-escape-*`,
 * `pp`'s) changes the reply, and catches every error itself: an error that reaches the server makes 28.2 hold
 * its process filter in a `(sit-for 5)` (30 shows it in the echo area for 2 s) and pi's must never show.
 * json.el, not `json-parse-string`: before Emacs 30 that needs libjansson, and a build may lack it.
 */

/**
 * Who answered: the pid, the version, whether it is a daemon, how many frames a user can see (visible or
 * iconified, not a child frame such as a posframe's; a daemon's own frame is on its `initial_terminal`, shown
 * nowhere; each `emacsclient -t`/`-c` adds one), and the arguments read back (the test of the quoting: what pi
 * sent is what the elisp got). Arrays read as vectors and objects as hash tables, so `[]` and `{}` come back as
 * they went. In the frame every chunk shares (core/elisp/elisp-chunk.ts).
 */
export const PROBE_ELISP = elispChunk(`(list (cons "pid" (emacs-pid))
      (cons "version" emacs-version)
      (cons "daemon" (if (daemonp) t :json-false))
      (cons "frames"
            (let ((count 0))
              (dolist (frame (frame-list) count)
                (when (and (frame-visible-p frame)
                           (not (frame-parameter frame 'parent-frame))
                           (not (equal (terminal-name (frame-terminal frame)) "initial_terminal")))
                  (setq count (1+ count))))))
      (cons "args" args))`);
