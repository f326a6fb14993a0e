import type { EditorAnswer, ShownResult } from "./diff-host.ts";

/**
 * A diff view's two outcomes, each kept at its first: `shown` and `answer` hear from several places (the editor,
 * its connection ending, pi closing it). A failed show is the answer too, and the answer ends the editor's
 * subscription (`stop`, read when the answer comes in).
 */
export function viewOutcome(stop: () => void = () => {}) {
	const shownOnce = settleOnce<ShownResult>();
	const answerOnce = settleOnce<EditorAnswer>();
	const settleAnswer = (answer: EditorAnswer) => {
		if (answerOnce.settled) return;
		stop();
		answerOnce.settle(answer);
	};
	const settleShown = (result: ShownResult) => {
		if (shownOnce.settled) return;
		shownOnce.settle(result);
		if (!result.ok) settleAnswer({ kind: "failed", reason: result.reason });
	};
	return {
		shown: shownOnce.promise,
		answer: answerOnce.promise,
		settleShown,
		settleAnswer,
		get answered() {
			return answerOnce.settled;
		},
	};
}

export type ViewOutcome = ReturnType<typeof viewOutcome>;

/** A promise settled by its first answer only. */
function settleOnce<T>(): { promise: Promise<T>; settle: (value: T) => void; readonly settled: boolean } {
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
