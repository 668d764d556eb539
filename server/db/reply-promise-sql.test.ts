import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { practice } from '../../supabase/functions/_shared/content/practice.ts';

/**
 * The promise of a reply within `replyWithinHours` (_shared/content/practice.ts) is
 * repeated in SQL where the database speaks to a visitor or counts a reply-by
 * time: every "N hours" there must be that number.
 */

const migrations = new URL('../../supabase/migrations/', import.meta.url);

describe('the reply promise in SQL', () => {
  it("is the number of hours of the practice's facts wherever a migration states it", () => {
    const stated: string[] = [];
    for (const file of readdirSync(migrations).filter((name) => name.endsWith('.sql'))) {
      const sql = readFileSync(new URL(file, migrations), 'utf8');
      for (const match of sql.matchAll(/(\d+) hours/g)) stated.push(`${file}: ${match[0]}`);
    }
    expect(stated.length).toBeGreaterThan(0);
    for (const statement of stated) {
      expect(statement).toMatch(new RegExp(`: ${practice.replyWithinHours} hours$`));
    }
  });
});
