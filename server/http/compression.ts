import { promisify } from 'node:util';
import { brotliCompress, constants as zlibConstants, gzip } from 'node:zlib';

/** Which built files are sent compressed, in which encoding, and the compressing itself. */

export type Encoding = 'br' | 'gzip';

/** Text and the binary formats that are not compressed already. */
const compressible = new Set([
  '.html',
  '.htm',
  '.js',
  '.mjs',
  '.css',
  '.json',
  '.map',
  '.webmanifest',
  '.txt',
  '.xml',
  '.svg',
  '.ico',
  '.ttf',
  '.otf',
  '.wasm',
]);

/** Below this size compression saves less than the headers it adds. */
const minCompressBytes = 1024;

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** `extension` is lower case with its dot, as `path.extname` gives it. */
export function worthCompressing(extension: string, size: number): boolean {
  return compressible.has(extension) && size >= minCompressBytes;
}

/** Brotli when the client takes it, else gzip; `q=0` refuses an encoding. */
export function chooseEncoding(acceptEncoding: string | undefined): Encoding | undefined {
  if (!acceptEncoding) return undefined;
  const weights = new Map<string, number>();
  for (const part of acceptEncoding.split(',')) {
    const [name = '', ...parameters] = part.split(';').map((text) => text.trim().toLowerCase());
    const q = parameters.find((parameter) => parameter.startsWith('q='));
    const weight = q === undefined ? 1 : Number(q.slice(2));
    if (name) weights.set(name, Number.isNaN(weight) ? 0 : weight);
  }
  const weightOf = (encoding: Encoding) => weights.get(encoding) ?? weights.get('*') ?? 0;
  if (weightOf('br') > 0 && weightOf('br') >= weightOf('gzip')) return 'br';
  if (weightOf('gzip') > 0) return 'gzip';
  return undefined;
}

export function compress(content: Buffer, encoding: Encoding): Promise<Buffer> {
  return encoding === 'br'
    ? brotli(content, {
        params: {
          // Quality 11 is several times slower for about 10% less; 9 keeps a first visit quick.
          [zlibConstants.BROTLI_PARAM_QUALITY]: 9,
          [zlibConstants.BROTLI_PARAM_SIZE_HINT]: content.length,
        },
      })
    : gzipAsync(content, { level: 9 });
}
