import { readFile } from 'node:fs/promises';
import { compress, type Encoding } from './compression.ts';
import type { SiteFile } from './site-file.ts';

/** Most bytes of compressed files kept in memory. */
const maxCacheBytes = 64 * 1024 * 1024;

/**
 * Built files compressed once per version and encoding, kept in memory, oldest
 * dropped first; concurrent requests share one compression.
 */
export class CompressedFileCache {
  private readonly entries = new Map<string, Promise<Buffer>>();
  private readonly sizes = new Map<string, number>();
  private total = 0;

  async get(file: SiteFile, encoding: Encoding): Promise<Buffer> {
    const key = `${file.path}\0${file.size}\0${file.mtimeMs}\0${encoding}`;
    const cached = this.entries.get(key);
    if (cached) return cached;
    const pending = readFile(file.path).then((content) => compress(content, encoding));
    this.entries.set(key, pending);
    try {
      const value = await pending;
      this.sizes.set(key, value.length);
      this.total += value.length;
      this.evict();
      return value;
    } catch (error) {
      this.entries.delete(key);
      throw error;
    }
  }

  private evict() {
    for (const key of this.entries.keys()) {
      if (this.total <= maxCacheBytes) return;
      // Still being compressed: not counted yet, so not dropped either (its size,
      // counted when it comes, would otherwise never be taken off).
      const size = this.sizes.get(key);
      if (size === undefined) continue;
      this.total -= size;
      this.sizes.delete(key);
      this.entries.delete(key);
    }
  }
}
