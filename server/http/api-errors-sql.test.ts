import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, it } from 'vitest';
import { findMigrationsDir } from '../db/migrate.ts';
import { statusesRaisedInSql, statusForSqlState } from './api-errors.ts';

/** Every `errcode = 'PTnnn'` a migration raises, by code, with the files raising it. */
async function raisedInMigrations(): Promise<Map<string, Set<string>>> {
  const dir = findMigrationsDir();
  const raised = new Map<string, Set<string>>();
  for (const file of (await readdir(dir)).filter((name) => name.endsWith('.sql'))) {
    const sql = await readFile(path.join(dir, file), 'utf8');
    for (const [, code] of sql.matchAll(/errcode\s*=\s*'(PT\d{3})'/g)) {
      raised.set(code!, (raised.get(code!) ?? new Set()).add(file));
    }
  }
  return raised;
}

it('catalogues every status the migrations raise, and only those', async () => {
  const raised = await raisedInMigrations();
  expect(Object.keys(statusesRaisedInSql).sort()).toEqual([...raised.keys()].sort());
  for (const [code, meaning] of Object.entries(statusesRaisedInSql)) {
    // The file it names raises it (a later migration may raise it again).
    const named = /\((\d{14}_[a-z_]+\.sql)\)$/.exec(meaning)?.[1];
    expect(raised.get(code)).toContain(named);
    expect(statusForSqlState(code)).toBe(Number(code.slice(2)));
  }
});
