import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { builds, staleBuilds } from './build-freshness.mjs';

/** What `npm start` decides to build, on a folder laid out like the project. */

describe('the builds npm start makes before serving', () => {
  let root: string;
  const write = (file: string, at: number) => {
    const target = path.join(root, file);
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, file);
    utimesSync(target, at, at);
  };
  const staleNames = () => staleBuilds(root).map((build) => build.name);

  beforeEach(() => {
    root = mkdtempSync(path.join(tmpdir(), 'hijama-freshness-'));
    write('src/app/app.tsx', 1_000);
    write('src/content/site.ts', 1_000);
    write('server/index.ts', 1_000);
    write('supabase/functions/_shared/core/booking-rules.ts', 1_000);
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('builds both when nothing is built', () => {
    expect(staleBuilds(root).map(({ name, exists }) => ({ name, exists }))).toEqual([
      { name: 'site', exists: false },
      { name: 'server', exists: false },
    ]);
  });

  it('builds nothing when both are newer than every source', () => {
    for (const build of builds) write(build.stamp, 2_000);
    expect(staleNames()).toEqual([]);
  });

  it('rebuilds only the part whose sources changed, and both for a shared source', () => {
    for (const build of builds) write(build.stamp, 2_000);
    write('src/app/nav-bar.tsx', 3_000);
    expect(staleNames()).toEqual(['site']);
    write('server/app.ts', 3_000);
    expect(staleNames()).toEqual(['site', 'server']);
    for (const build of builds) write(build.stamp, 4_000);
    write('supabase/functions/_shared/core/booking-rules.ts', 5_000);
    expect(staleNames()).toEqual(['site', 'server']);
  });

  it('ignores tests, which are not built', () => {
    for (const build of builds) write(build.stamp, 2_000);
    write('server/app.test.ts', 3_000);
    write('src/app/page-name.test.ts', 3_000);
    expect(staleNames()).toEqual([]);
  });
});
