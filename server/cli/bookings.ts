import { runBookings } from './bookings-command.ts';

/** The `npm run bookings` process: see bookings-command.ts. */

const code = await runBookings(process.argv.slice(2), {
  env: process.env,
  cwd: process.cwd(),
  out: (text) =>
    new Promise((resolve, reject) =>
      process.stdout.write(text, (error) => (error ? reject(error) : resolve())),
    ),
  err: (text) => process.stderr.write(text),
  untilStopped: () =>
    new Promise((resolve) => {
      process.once('SIGINT', resolve);
      process.once('SIGTERM', resolve);
    }),
});
process.exit(code);
