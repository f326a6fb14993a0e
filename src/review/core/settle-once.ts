/**
 * A promise settled by its first answer only: a view's `shown` and `answer` hear from several places (the
 * editor, its connection ending, pi closing it) and must keep the first.
 */
export function settleOnce<T>(): { promise: Promise<T>; settle: (value: T) => void; readonly settled: boolean } {
	let resolve!: (value: T) => void;
	let settled = false;
	const promise = new Promise<T>((done) => {
		resolve = done;
	});
	return {
		promise,
		settle: (value) => {
			if (settled) return;
			settled = true;
			resolve(value);
		},
		get settled() {
			return settled;
		},
	};
}
