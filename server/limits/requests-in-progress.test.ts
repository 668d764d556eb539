import { describe, expect, it } from 'vitest';
import { createRequestsInProgress } from './requests-in-progress.ts';

describe('the requests each client network has in progress', () => {
  it('gives each network its own places, and a place back when a request finishes', () => {
    const inProgress = createRequestsInProgress(2);
    expect([inProgress.tryStart('a'), inProgress.tryStart('a'), inProgress.tryStart('a')]).toEqual([
      true,
      true,
      false,
    ]);
    expect(inProgress.tryStart('b')).toBe(true);
    inProgress.finish('a');
    expect(inProgress.tryStart('a')).toBe(true);
  });

  it('forgets a network once none of its requests is in progress', () => {
    const inProgress = createRequestsInProgress(4);
    inProgress.tryStart('a');
    inProgress.tryStart('b');
    inProgress.finish('a');
    inProgress.finish('b');
    expect(inProgress.size).toBe(0);
  });
});
