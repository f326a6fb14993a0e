/**
 * Linux's socket tables as `/proc/net/*` prints them: which sockets listen, whose they are, and the inode that
 * ties each to the fds of the process holding it. A name or a port alone proves nothing; an inode among a
 * process's own fds does.
 */

/**
 * Which unix sockets listen, from `/proc/net/unix` (`Num RefCount Protocol Flags Type St Inode Path`): a
 * listening socket has the `__SO_ACCEPTCON` flag (`00010000`) and state `01`. Abstract sockets (`@name`) and
 * unnamed ones have no path to connect to and are left out.
 */
export function listeningUnixSockets(table: string): Map<number, string> {
	const byInode = new Map<number, string>();
	for (const line of table.split("\n").slice(1)) {
		const fields = line.trim().split(/\s+/);
		if (fields.length < 8) continue;
		const [, , , flags, , st, inode] = fields;
		// The path is the rest of the line: a path may hold spaces.
		const path = fields.slice(7).join(" ");
		if (flags !== "00010000" || st !== "01" || !path.startsWith("/")) continue;
		const number = Number(inode);
		if (Number.isSafeInteger(number) && number > 0) byInode.set(number, path);
	}
	return byInode;
}

/** The inode of a `/proc/<pid>/fd/*` link that is a socket (`socket:[57581]`). */
export function socketInode(link: string): number | undefined {
	const match = /^socket:\[(\d+)\]$/.exec(link);
	return match ? Number(match[1]) : undefined;
}

/** A TCP socket in the LISTEN state, as `/proc/net/tcp` or `tcp6` lists it. */
export interface TcpListener {
	port: number;
	/** Bound to a loopback address (127.0.0.0/8, ::1, ::ffff:127.x.x.x): reachable from this machine only. */
	loopback: boolean;
	/** The socket's owner. */
	uid: number;
	inode: number;
}

/** `st` of a listening socket. */
const TCP_LISTEN = "0A";

/** `st` of an established connection (also a connection still in its listener's accept queue). */
const TCP_ESTABLISHED = "01";

/** One socket of `/proc/net/tcp` or `tcp6`: both ends (loopback or not), its state, owner and inode. */
interface TcpRow {
	local: { port: number; loopback: boolean };
	remote: { port: number; loopback: boolean };
	state: string;
	uid: number;
	inode: number;
}

/** `0100007F:9CBB` → port 40123 on loopback; undefined when it is no address and port. */
function endOf(field: string | undefined): TcpRow["local"] | undefined {
	const [address, portHex] = (field ?? "").split(":");
	if (address === undefined || !/^[0-9A-F]{4}$/i.test(portHex ?? "")) return undefined;
	const loopback = isLoopbackHex(address);
	return loopback === undefined ? undefined : { port: Number.parseInt(portHex as string, 16), loopback };
}

/**
 * The rows of `/proc/net/tcp` or `/proc/net/tcp6`
 * (`sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode ...`); a malformed row is skipped.
 * The address is hex in the kernel's byte order: each 32-bit word little-endian, so `0100007F` is 127.0.0.1.
 */
function tcpRows(table: string): TcpRow[] {
	const rows: TcpRow[] = [];
	for (const line of table.split("\n").slice(1)) {
		const fields = line.trim().split(/\s+/);
		if (fields.length < 10) continue;
		const [local, remote] = [endOf(fields[1]), endOf(fields[2])];
		const uid = Number(fields[7]);
		const inode = Number(fields[9]);
		if (!local || !remote || !Number.isSafeInteger(uid) || !Number.isSafeInteger(inode)) continue;
		rows.push({ local, remote, state: fields[3] as string, uid, inode });
	}
	return rows;
}

/** Listening sockets of `/proc/net/tcp` or `/proc/net/tcp6`. */
export function listeningTcp(table: string): TcpListener[] {
	return tcpRows(table)
		.filter((row) => row.state === TCP_LISTEN && row.inode > 0)
		.map((row) => ({ port: row.local.port, loopback: row.local.loopback, uid: row.uid, inode: row.inode }));
}

/** The 32-bit words of a hex address, each turned from the kernel's little-endian order into bytes. */
function addressBytes(hex: string): number[] {
	const bytes: number[] = [];
	for (let word = 0; word < hex.length; word += 8)
		for (let byte = 6; byte >= 0; byte -= 2) bytes.push(Number.parseInt(hex.slice(word + byte, word + byte + 2), 16));
	return bytes;
}

/** Whether a hex address (8 digits: IPv4, 32: IPv6) is loopback; undefined when it is no address. */
function isLoopbackHex(hex: string): boolean | undefined {
	if (!/^[0-9A-F]+$/i.test(hex) || (hex.length !== 8 && hex.length !== 32)) return undefined;
	const bytes = addressBytes(hex);
	if (bytes.length === 4) return bytes[0] === 127;
	const zeros = (from: number, to: number) => bytes.slice(from, to).every((byte) => byte === 0);
	if (zeros(0, 15) && bytes[15] === 1) return true;
	const mapped = zeros(0, 10) && bytes[10] === 0xff && bytes[11] === 0xff;
	return mapped && bytes[12] === 127;
}

/**
 * The owner of the server's end of a loopback connection pi made from `clientPort` to `serverPort`: the entry whose
 * local port is the server's and remote port pi's, on loopback. The kernel gives a connection not yet accepted the
 * listener's uid, so this says whose listener took pi's connection, before pi sends it a byte. Undefined when the
 * tables hold no such entry.
 */
export function connectionServerUid(table: string, serverPort: number, clientPort: number): number | undefined {
	return tcpRows(table).find(
		(row) =>
			row.state === TCP_ESTABLISHED &&
			row.local.port === serverPort &&
			row.remote.port === clientPort &&
			row.local.loopback &&
			row.remote.loopback,
	)?.uid;
}
