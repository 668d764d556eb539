import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { testEngines } from '../testing/helpers.ts';
import { useTestDatabase } from '../testing/test-database.ts';
import { bookingLimitSettings, serverLimitSettings } from './limit-settings.ts';

/**
 * The defaults of limit-settings.ts are the ones the database, `.env.example`
 * and docs/configuration.md give: each is written there too, for its readers,
 * and must not drift.
 */

const everyLimit = [...Object.values(bookingLimitSettings), ...Object.values(serverLimitSettings)];

describe('the limits table', () => {
  it('gives .env.example each default', () => {
    const example = readFileSync(new URL('../../.env.example', import.meta.url), 'utf8');
    for (const { setting, default: value } of everyLimit) {
      expect(example).toContain(`# ${setting}=${value}\n`);
    }
  });

  it('gives docs/configuration.md each default', () => {
    const docs = readFileSync(new URL('../../docs/configuration.md', import.meta.url), 'utf8');
    for (const { setting, default: value } of everyLimit) {
      expect(docs).toMatch(new RegExp(`^\\| \`${setting}\` +\\| \`?${value}\`? +\\|`, 'm'));
    }
  });
});

describe.each(testEngines('limit-defaults', {}))('the limits table on $name', (engine) => {
  const database = useTestDatabase(engine);

  it("is the database's: each column's default, and the row as the migrations leave it", async () => {
    const { rows } = await database.db.query<{ column_name: string; column_default: string }>(
      `select column_name, column_default from information_schema.columns
        where table_schema = 'app_private' and table_name = 'booking_limits'`,
    );
    const defaults = Object.fromEntries(rows.map((row) => [row.column_name, row.column_default]));
    const { rows: limits } = await database.db.query<Record<string, number>>(
      'select * from app_private.booking_limits where singleton',
    );
    for (const { column, default: value } of Object.values(bookingLimitSettings)) {
      expect(defaults[column]).toBe(String(value));
      expect(limits[0]?.[column]).toBe(value);
    }
  });
});
