import { cp, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { bootManifestIn } from '../../src/boot/protocol.ts';
import type { RunningServer } from './built-server.ts';
import { controlPage, viewSource } from './control-page.ts';

/** Where a view's control is in the bench's copy of the site. */
export const controlPath = (view: string) => `/control/${view}.html`;

/**
 * A copy of the built site (dist/) for one bench run, so that a build started
 * meanwhile changes nothing under it, with each view's control beside the
 * page (`controlPath`). The project's server serves both alike. Returns the
 * views that have a control (those pre-rendered), in the order asked.
 */
export async function prepareBenchSite(
  distDir: string,
  dir: string,
  views: readonly string[],
): Promise<string[]> {
  await rm(dir, { recursive: true, force: true });
  await cp(distDir, dir, { recursive: true });
  const html = await readFile(join(dir, 'index.html'), 'utf8');
  const manifest = bootManifestIn(html);
  await mkdir(join(dir, 'control'), { recursive: true });
  const controlled: string[] = [];
  for (const view of views) {
    const source = viewSource(manifest, view);
    if (!source) continue;
    const markup =
      source.kind === 'file' ? await readFile(join(dir, source.path), 'utf8') : undefined;
    await writeFile(join(dir, controlPath(view)), controlPage(html, view, markup));
    controlled.push(view);
  }
  return controlled;
}

/**
 * Every file of the site fetched once in each encoding, so that no measured
 * load waits for the server to compress a file the first time.
 */
export async function warmSite(server: RunningServer, dir: string): Promise<void> {
  const files = (await readdir(dir, { recursive: true, withFileTypes: true }))
    .filter((entry) => entry.isFile())
    .map((entry) => `/${relative(dir, join(entry.parentPath, entry.name))}`);
  for (const file of ['/', ...files])
    for (const encoding of ['gzip, deflate', 'gzip, deflate, br, zstd'])
      await fetch(`${server.url}${file}`, { headers: { 'accept-encoding': encoding } })
        .then((response) => response.arrayBuffer())
        .catch(() => undefined);
}
