import type { Database } from './database.ts';

/** The API roles a function of the `public` schema is called as. */
export type ApiFunctionRole = 'anon' | 'service_role';

/**
 * Calls `call` (one SQL function of the `public` schema, returning json) as
 * `role`, the way PostgREST runs a function, so that its grants decide.
 * `readOnly` is a GET's read-only transaction, in which a function that
 * changes data is refused (25006). `requestHeaders` are given to the function
 * in `request.headers`, as PostgREST passes a request's headers. The JSON comes
 * back as text, so that both drivers hand back the same string to parse.
 */
export function callApiFunction<Result>(
  db: Database,
  role: ApiFunctionRole,
  call: string,
  params: readonly unknown[] = [],
  {
    readOnly = false,
    requestHeaders,
  }: { readOnly?: boolean; requestHeaders?: Record<string, string> } = {},
): Promise<Result> {
  return db.transaction(async (tx) => {
    if (readOnly) await tx.query('set transaction read only');
    // The role is one of two fixed names, never the caller's text.
    await tx.query(`set local role ${role === 'service_role' ? 'service_role' : 'anon'}`);
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
