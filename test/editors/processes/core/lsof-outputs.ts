/**
 * What `lsof -F` prints, as fixtures for `lsof-fields.test.ts`. Each says where it comes from.
 *
 * LINUX: lsof 4.95.0 (Debian), copied from runs on this machine (as root: `u0`) against a Neovim
 * (`nvim --headless --clean --listen /tmp/x.sock`) and Node servers started for the purpose.
 *
 * MAC: lsof 4.91's darwin dialect, built from lsof-org/lsof at 8662085 (Vic's final tree, 4.92;
 * `dialects/darwin/libproc/dsock.c`, `dproc.c`, `store.c`; the same code is `lib/dialects/darwin/` today):
 * - `store.c` selects the `f` field by default (`LSOF_FIX_FD`, "always selected", 4.88 to 4.93; 00DIST:
 *   "Don't select the file descriptor field by default", 4.94): `f` precedes every file whatever `-F` names.
 * - a unix socket has no state (no `T` field); bound: its `sun_path`; unbound and connected: `->0x<kernel
 *   pointer>`; unbound, unconnected: `->(none)`; family AF_UNIX with an empty path: `no address`.
 * - XNU copies a listener's address onto each connection it accepts (`unp_connect`), so an accepted socket
 *   names the listener's path too (the reference notes, `bsd/kern/uipc_usrreq.c`).
 * - internet names are printed by the shared `print.c`: `127.0.0.1:8765`, `[::1]:8765`, `*:8765`,
 *   `local->remote`; a v4-mapped IPv6 socket is turned into IPv4 first (`dsock.c`: `IPv6_2_IPv4`).
 * - `cwd` comes from `PROC_PIDVNODEPATHINFO` (an error is `cwd|rtd info error: <strerror>`), `txt` from
 *   `PROC_PIDREGIONPATHINFO` walked from address 0: the executable's region comes first, then dyld's.
 */

export const LINUX = {
	/** `lsof -nP -w -a -U -p <nvim> -FpfnT` */
	nvimListener: ["p19998", "f15", "n/tmp/x.sock type=STREAM", "TST=LISTEN"].join("\n"),
	/**
	 * `lsof -nP -w -a -U -p <node> -FpfnT`: a Node process listening on /tmp/y.sock, a client of its own
	 * (unbound), an abstract listener (Node pads its name with NULs, shown as `@`) and the accepted connection.
	 */
	nodeSockets: [
		"p30443",
		"f19",
		"n/tmp/y.sock type=STREAM",
		"TST=LISTEN",
		"f20",
		"ntype=STREAM",
		"TST=CONNECTED",
		"f21",
		`n@pi-abstract${"@".repeat(96)} type=STREAM`,
		"TST=LISTEN",
		"f22",
		"n/tmp/y.sock type=STREAM",
		"TST=CONNECTED",
	].join("\n"),
	/** The same process, `-Fpn`: 4.95 prints no `f` unless asked, and no state without `T`. */
	nodeSocketsNoFd: [
		"p30443",
		"n/tmp/y.sock type=STREAM",
		"ntype=STREAM",
		`n@pi-abstract${"@".repeat(96)} type=STREAM`,
		"n/tmp/y.sock type=STREAM",
	].join("\n"),
	/** `lsof -nP -w -iTCP:<port> -sTCP:LISTEN -Fpufn` for four listeners of one Node process. */
	listenerAnyAddress: ["p20124", "u0", "f21", "n*:41423"].join("\n"),
	listenerIpv6Loopback: ["p20124", "u0", "f23", "n[::1]:46003"].join("\n"),
	/** Node's `listen(0, "0.0.0.0")`: lsof shows `*` for the IPv4 wildcard as well. */
	listenerZeroes: ["p20124", "u0", "f24", "n*:38799"].join("\n"),
	listenerLoopback: ["p20124", "u0", "f22", "n127.0.0.1:36361"].join("\n"),
	/** `lsof -nP -w -iTCP:46534 -Fpufn`: a connection whose both ends the one process holds. */
	connectionWithin: [
		"p20124",
		"u0",
		"f25",
		"n127.0.0.1:46534->127.0.0.1:36361",
		"f27",
		"n127.0.0.1:36361->127.0.0.1:46534",
	].join("\n"),
	/**
	 * `lsof -nP -w -iTCP:45770 -Fpufn`: another Node connected to the `*:41423` listener (an IPv6 socket: the
	 * accepted end is v4-mapped, which lsof prints as IPv4).
	 */
	connectionAccepted: [
		"p20124",
		"u0",
		"f28",
		"n127.0.0.1:41423->127.0.0.1:45770",
		"p20260",
		"u0",
		"f19",
		"n127.0.0.1:45770->127.0.0.1:41423",
	].join("\n"),
	/** `lsof -nP -w -a -p <nvim> -d txt,cwd -Fpfn` */
	nvimTxtCwd: ["p19998", "fcwd", "n/tmp", "ftxt", "n/usr/bin/nvim"].join("\n"),
	/** The same of a `sleep` whose binary was removed while it ran: as `/proc/<pid>/exe` reads. */
	deletedTxt: ["p28865", "fcwd", "n/tmp", "ftxt", "n/tmp/pst/gone-sleep (deleted)"].join("\n"),
	/** `lsof -v`, on stderr (its first lines). */
	version: [
		"lsof version information:",
		"    revision: 4.95.0",
		"    latest revision: https://github.com/lsof-org/lsof",
		"    latest FAQ: https://github.com/lsof-org/lsof/blob/master/00FAQ",
		"    latest (non-formatted) man page: https://github.com/lsof-org/lsof/blob/master/Lsof.8",
		"    compiler: cc",
	].join("\n"),
};

const NVIM_SOCKET = "/var/folders/x1/abc123/T/nvim.alice/Xq3zR1/nvim.4242.0";
const EMACS_SOCKET = "/var/folders/x1/abc123/T/emacs501/server";

export const MAC = {
	/**
	 * `lsof -nP -w -a -U -p 4242 -FpfnT` of a Neovim with two clients attached: its listener and two accepted
	 * connections all name the listener's path; a socket of its own connected elsewhere; one unconnected.
	 */
	nvimSockets: [
		"p4242",
		"f3",
		"n->0x5e2f1b7c9a0d4e61",
		"f12",
		`n${NVIM_SOCKET}`,
		"f14",
		`n${NVIM_SOCKET}`,
		"f15",
		`n${NVIM_SOCKET}`,
		"f16",
		"n->(none)",
	].join("\n"),
	/** The same question about an Emacs and that Neovim at once (`-p 8123,4242`), the `-F` letters Linux's. */
	twoProcesses: ["p8123", "f5", `n${EMACS_SOCKET}`, "f9", "nno address", "p4242", "f12", `n${NVIM_SOCKET}`].join("\n"),
	/** `lsof -nP -w -iTCP:8765 -sTCP:LISTEN -Fpufn`: an IDE server on 127.0.0.1 and ::1 (`localhost`). */
	listenerLocalhost: ["p8200", "u501", "f41", "n127.0.0.1:8765", "f42", "n[::1]:8765"].join("\n"),
	/** `-Fpun` asked of 4.91: the `f` comes anyway. */
	listenerNoFdAsked: ["p8200", "u501", "f43", "n*:8766"].join("\n"),
	/** `lsof -nP -w -iTCP:52001 -Fpufn`: pi's end (uid 501) and the IDE server's (uid 502) of one connection. */
	connection: [
		"p777",
		"u501",
		"f23",
		"n127.0.0.1:52001->127.0.0.1:8765",
		"p8200",
		"u502",
		"f44",
		"n127.0.0.1:8765->127.0.0.1:52001",
	].join("\n"),
	/** `lsof -nP -w -a -p 8123 -d txt,cwd -Fpfn`: every mapped file is `txt`, the executable first. */
	emacsTxtCwd: [
		"p8123",
		"fcwd",
		"n/Users/alice/project",
		"ftxt",
		"n/Applications/Emacs.app/Contents/MacOS/Emacs-arm64-11",
		"ftxt",
		"n/usr/lib/dyld",
		"ftxt",
		"n/Library/Preferences/Logging/.plist-cache.Kx1Z",
	].join("\n"),
	/** The same where darwin may not look: the reason stands in the name (printed whatever `-w` says). */
	unreadableTxtCwd: [
		"p8123",
		"fcwd",
		"ncwd|rtd info error: Operation not permitted",
		"ftxt",
		"nregion info error: Operation not permitted",
	].join("\n"),
	/** `lsof -v` of the 4.92 tree (`usage.c`), on stderr. */
	version: [
		"lsof version information:",
		"    revision: 4.91",
		"    latest revision: ftp://lsof.itap.purdue.edu/pub/tools/unix/lsof/",
		"    latest FAQ: ftp://lsof.itap.purdue.edu/pub/tools/unix/lsof/FAQ",
		"    latest man page: ftp://lsof.itap.purdue.edu/pub/tools/unix/lsof/lsof_man",
	].join("\n"),
	nvimSocket: NVIM_SOCKET,
	emacsSocket: EMACS_SOCKET,
};
