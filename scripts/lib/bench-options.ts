/** The value given after `name` on the command line (`--runs 3`), if any. */
export function argument(name: string): string | undefined {
  const index = process.argv.indexOf(name);
  return index >= 0 ? process.argv[index + 1] : undefined;
}

/**
 * The PostgreSQL server a benchmark creates its databases on: BENCH_DATABASE_URL,
 * else TEST_DATABASE_URL, else the local server.
 */
export const benchPostgresUrl =
  process.env.BENCH_DATABASE_URL ??
  process.env.TEST_DATABASE_URL ??
  'postgres://postgres@127.0.0.1:5432/test';
