import { describe, expect, it } from 'vitest';
import { againstControl, median, type RoundRun } from './bench-compare.ts';

const run = (round: number, tbt: number, mainThread = 400): RoundRun => ({
  round,
  tbt,
  mainThread,
  lcp: 800,
  benchmarkIndex: 2500,
});

describe('a view against its control', () => {
  it('compares the medians and applies the goal', () => {
    const against = againstControl(
      [run(1, 150, 450), run(2, 30, 420), run(3, 60, 430)],
      [run(1, 40, 300), run(2, 0, 310), run(3, 10, 320)],
    );
    expect(against.tbtMs).toBe(50);
    expect(against.mainThreadMs).toBe(120);
    expect(against.mainThreadRatio).toBeCloseTo(430 / 310);
    expect(against.meetsGoal).toBe(true);
    expect(againstControl([run(1, 300)], [run(1, 100)]).meetsGoal).toBe(false);
    expect(againstControl([run(1, 0, 700)], [run(1, 0, 400)]).meetsGoal).toBe(false);
  });

  it("pairs each round's view with its control, in round order, leaving out a round missing either", () => {
    const against = againstControl(
      [run(3, 60), run(1, 150), run(2, 30)],
      [run(2, 0), run(3, 100), run(4, 5)],
    );
    expect(against.tbtByRoundMs).toEqual([30, -40]);
  });

  it("gives the control's own spread, the noise of that run", () => {
    expect(
      againstControl([run(1, 0)], [run(1, 40), run(2, 583), run(3, 121)]).controlTbtSpreadMs,
    ).toBe(543);
    expect(againstControl([run(1, 0)], []).controlTbtSpreadMs).toBeNaN();
  });
});

describe('median', () => {
  it('takes the middle value, or the mean of the two middle ones, of those that are numbers', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([Number.NaN, 5])).toBe(5);
    expect(median([])).toBeNaN();
  });
});
