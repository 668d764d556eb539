import type { Database } from './database.ts';

/**
 * Calls `call` (one SQL function of the `public` schema, returning json) as
 * `anon`, the way PostgREST runs a function for the page, so that its grants decide.
 * `readOnly` is a GET's read-only transaction, in which a function that
 * changes data is refused (25006). `requestHeaders` are given to the function
 * in `request.headers`, as PostgREST passes a request's headers. The JSON comes
 * back as text, so that both drivers hand back the same string to parse.
 */
export function callApiFunction<Result>(
  db: Database,
  call: string,
  params: readonly unknown[] = [],
  {
    readOnly = false,
    requestHeaders,
  }: { readOnly?: boolean; requestHeaders?: Record<string, string> } = {},
): Promise<Result> {
  return db.transaction(async (tx) => {
    if (readOnly) await tx.query('set transaction read only');
    await tx.query('set local role anon');
    if (requestHeaders) {
      await tx.query(`select set_config('request.headers', $1, true)`, [
        JSON.stringify(requestHeaders),
      ]);
    }
    const { rows } = await tx.query<{ result: string }>(`select (${call})::text as result`, params);
    const text = rows[0]?.result;
    if (text === undefined) throw new Error(`${call} returned no row.`);
    return JSON.parse(text) as Result;
  });
}
