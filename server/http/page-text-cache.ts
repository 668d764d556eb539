import { readFile } from 'node:fs/promises';
import type { SiteFile } from './site-file.ts';

/** Past this many pages the cache starts again empty (the site has a handful). */
const maxEntries = 32;

/** Pages read once per version, for their security policy. */
export class PageTextCache {
  private readonly entries = new Map<string, Promise<string>>();

  read(file: SiteFile): Promise<string> {
    const key = `${file.path}\0${file.mtimeMs}`;
    let entry = this.entries.get(key);
    if (!entry) {
      if (this.entries.size > maxEntries) this.entries.clear();
      entry = readFile(file.path, 'utf8');
      entry.catch(() => this.entries.delete(key));
      this.entries.set(key, entry);
    }
    return entry;
  }
}
