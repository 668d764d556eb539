import type { Database } from './database.ts';

/** The API roles a function of the `public` schema is called as. */
export type ApiFunctionRole = 'anon' | 'service_role';

/**
 * Calls `call` (one SQL function of the `public` schema, returning json) as
 * `role`, the way PostgREST runs a function, so that its grants decide.
 * `readOnly` is a GET's read-only transaction, in which a function that
 * changes data is refused (25006). The JSON comes back as text, so that both
 * drivers hand back the same string to parse.
 */
export function callApiFunction<Result>(
  db: Database,
  role: ApiFunctionRole,
  call: string,
  params: readonly unknown[] = [],
  { readOnly = false }: { readOnly?: boolean } = {},
): Promise<Result> {
  return db.transaction(async (tx) => {
    if (readOnly) await tx.query('set transaction read only');
    // The role is one of two fixed names, never the caller's text.
    await tx.query(`set local role ${role === 'service_role' ? 'service_role' : 'anon'}`);
    const { rows } = await tx.query<{ result: string }>(`select (${call})::text as result`, params);
    const text = rows[0]?.result;
    if (text === undefined) throw new Error(`${call} returned no row.`);
    return JSON.parse(text) as Result;
  });
}
