import type { UkClockTime } from '../../supabase/functions/_shared/uk-time.ts';
import { nextDailyRun } from '../../supabase/functions/_shared/notifications/daily-schedule.ts';

/**
 * The server's clock for the daily run: calls `run` at start, at the UK time
 * `at` every day (07:00 is 07:00 in GMT and in BST: the next instant is
 * computed in UK time each time, so a day with a clock change lasts 23 or 25
 * hours), and at least every hour in between, so that a summary that could not
 * be sent is tried again and a machine that slept or had its clock set catches
 * up. `run` decides, with the database, whether there is anything to do.
 */

/** The longest the timer sleeps before looking again. */
const maxSleepMs = 60 * 60 * 1000;

export function startDailyTimer(options: { at: UkClockTime; run: () => Promise<void> }) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running: Promise<void> | undefined;
  let stopped = false;

  const arm = () => {
    if (stopped) return;
    const current = new Date();
    const delay = Math.min(
      nextDailyRun(current, options.at).getTime() - current.getTime(),
      maxSleepMs,
    );
    timer = setTimeout(tick, Math.max(delay, 0));
    timer.unref();
  };
  const tick = () => {
    running = options.run().finally(() => {
      running = undefined;
      arm();
    });
  };

  tick();
  return {
    /** Stops the timer; resolves once a run in progress has finished. */
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
