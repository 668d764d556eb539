import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { useTempDir } from '../../server/testing/temp-dir.ts';
import { builds, recordBuild, staleBuilds } from './build-freshness.mjs';

/** What `npm start` decides to build, on a folder laid out like the project. */

describe('the builds npm start makes before serving', () => {
  const rootDir = useTempDir('freshness');
  let root: string;
  const write = (file: string, content: string = file) => {
    const target = path.join(root, file);
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, content);
  };
  const buildBoth = () => {
    for (const build of builds) {
      write(build.stamp);
      recordBuild(root, build.name);
    }
  };
  const staleNames = () => staleBuilds(root).map((build) => build.name);

  beforeEach(() => {
    root = rootDir();
    write('src/app/app.tsx');
    write('src/content/site.ts');
    write('server/index.ts');
    write('supabase/functions/_shared/core/booking-rules.ts');
    write('package-lock.json', '{}');
  });

  it('builds both when nothing is built', () => {
    expect(staleBuilds(root).map(({ name, exists }) => ({ name, exists }))).toEqual([
      { name: 'site', exists: false },
      { name: 'server', exists: false },
    ]);
  });

  it('builds nothing when both were made from the sources present', () => {
    buildBoth();
    expect(staleNames()).toEqual([]);
  });

  it('rebuilds a build made before builds recorded their sources', () => {
    for (const build of builds) write(build.stamp);
    expect(staleNames()).toEqual(['site', 'server']);
  });

  it('rebuilds only the part whose sources changed, and both for a shared source', () => {
    buildBoth();
    write('src/app/nav-bar.tsx');
    expect(staleNames()).toEqual(['site']);
    expect(staleBuilds(root, ['server'])).toEqual([]);
    write('server/app.ts');
    expect(staleNames()).toEqual(['site', 'server']);
    buildBoth();
    write('supabase/functions/_shared/core/booking-rules.ts', 'changed');
    expect(staleNames()).toEqual(['site', 'server']);
  });

  it('builds nothing when a source is touched but not changed, as npm prune touches the lock file', () => {
    buildBoth();
    const later = Date.now() / 1000 + 3600;
    utimesSync(path.join(root, 'package-lock.json'), later, later);
    utimesSync(path.join(root, 'server/index.ts'), later, later);
    expect(staleNames()).toEqual([]);
  });

  it('ignores tests and their helpers, which are not built', () => {
    buildBoth();
    write('server/app.test.ts');
    write('src/app/page-name.test.ts');
    write('server/testing/helpers.ts');
    expect(staleNames()).toEqual([]);
  });
});
