import { solveChallengeWorkers } from 'altcha-lib/v1';
import { solverConcurrency, type BookingChallenge } from './proof-of-work.ts';

/**
 * Solves a proof-of-work challenge in Web Workers, off the page's main thread
 * so the page stays responsive while it works, each worker searching its own
 * share of the numbers. Loaded only when the API asks for a proof.
 */

class ProofOfWorkError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProofOfWorkError';
  }
}

/** The secret number of `challenge`; rejects if it takes longer than `timeoutMs` or a worker fails. */
export async function solveBookingChallenge(
  challenge: BookingChallenge,
  timeoutMs: number,
): Promise<number> {
  const workers: Worker[] = [];
  // altcha-lib waits for every worker's answer and has no deadline of its own:
  // a worker that cannot start, or a search that outlasts the deadline, ends here.
  let fail: (error: ProofOfWorkError) => void = () => {};
  const failure = new Promise<never>((_resolve, reject) => (fail = reject));
  const timer = setTimeout(
    () => fail(new ProofOfWorkError(`No solution within ${timeoutMs} ms`)),
    timeoutMs,
  );
  const spawn = () => {
    const worker = new Worker(new URL('./proof-of-work-worker.ts', import.meta.url), {
      type: 'module',
    });
    worker.addEventListener('error', () => fail(new ProofOfWorkError('A worker failed')));
    workers.push(worker);
    return worker;
  };
  try {
    const solution = await Promise.race([
      solveChallengeWorkers(
        spawn,
        solverConcurrency(navigator.hardwareConcurrency),
        challenge.challenge,
        challenge.salt,
        challenge.algorithm,
        challenge.maxnumber,
      ),
      failure,
    ]);
    if (!solution) throw new ProofOfWorkError('The challenge has no solution');
    return solution.number;
  } finally {
    clearTimeout(timer);
    for (const worker of workers) worker.terminate();
  }
}
