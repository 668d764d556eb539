/**
 * Makes the practice's photographs ready for the page. Each file dropped into
 * photos/ and named after its slot (src/content/image-slot.ts) becomes AVIF and
 * WebP files at the widths its place on the page needs (src/lib/photo-layout.ts),
 * cropped to that place, turned upright, stripped of their metadata (a phone's
 * photo carries where it was taken). The files are named by the source's hash
 * and kept in generated-photos/ (git-ignored): a rebuild encodes nothing that
 * it has made before, and with photos/ empty the build does no work at all.
 *
 * The Vite plugin below runs it when Vite starts, gives the page what it made
 * (`__PHOTOS__`), copies the files into the built site under /assets/photos/
 * (cached for good, as every file there) and serves them in development.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, readdir, rename } from 'node:fs/promises';
import { extname, join, resolve } from 'node:path';
import type { Plugin } from 'vite';
import { photoNames, type PhotoName } from '../../src/content/image-slot.ts';
import {
  photoHeight,
  photoLayouts,
  photoWidths,
  srcset,
  type BuiltPhotos,
} from '../../src/lib/photo-layout.ts';

/** The folder the practice drops its photographs into, unless PHOTOS_DIR names another. */
const defaultPhotosDir = 'photos';
const generatedPhotosDir = 'generated-photos';
const urlPath = '/assets/photos/';

/** What sharp can read; a phone's HEIC needs saving as JPEG first. */
const readableExtensions = new Set(['.jpg', '.jpeg', '.png', '.webp', '.avif', '.tif', '.tiff']);
/** The encoders' settings; part of each file's name, so a change here makes the files again. */
const encodings = {
  avif: { quality: 55, effort: 4 },
  webp: { quality: 78, effort: 4 },
} as const;
const formats = ['avif', 'webp'] as const;

interface PreparedPhotos {
  photos: BuiltPhotos;
  /** The files the page uses, in the output folder. */
  files: string[];
  /** How many files were encoded this time (0 when all were made before). */
  encoded: number;
}

/** The photographs in `photosDir`, by slot; any other image there is a mistake worth stopping for. */
async function findSources(photosDir: string): Promise<Map<PhotoName, string>> {
  const entries = await readdir(photosDir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    throw error;
  });
  const sources = new Map<PhotoName, string>();
  for (const entry of entries) {
    const extension = extname(entry).toLowerCase();
    if (entry.startsWith('.') || extension === '.md') continue;
    const name = entry.slice(0, -extension.length || undefined).toLowerCase();
    if (!(photoNames as readonly string[]).includes(name) || !readableExtensions.has(extension)) {
      throw new Error(
        `${join(photosDir, entry)}: name a photo ${photoNames.join(', ')}, as .jpg, .png, .webp or .avif (docs/content.md, Pictures).`,
      );
    }
    const slot = name as PhotoName;
    if (sources.has(slot)) {
      throw new Error(`${photosDir}: two photos for “${slot}”; keep one.`);
    }
    sources.set(slot, join(photosDir, entry));
  }
  return sources;
}

export async function preparePhotos(photosDir: string, outputDir: string): Promise<PreparedPhotos> {
  const sources = await findSources(photosDir);
  const prepared: PreparedPhotos = { photos: {}, files: [], encoded: 0 };
  if (sources.size === 0) return prepared;

  const { default: sharp } = await import('sharp');
  await mkdir(outputDir, { recursive: true });
  for (const [name, path] of sources) {
    const layout = photoLayouts[name];
    const source = await readFile(path);
    const hash = createHash('sha256')
      .update(source)
      .update(JSON.stringify([layout, encodings]))
      .digest('base64url')
      .slice(0, 10);
    const { autoOrient } = await sharp(source).metadata();
    const widths = photoWidths(layout, autoOrient.width, autoOrient.height);
    const made: Record<(typeof formats)[number], { url: string; width: number }[]> = {
      avif: [],
      webp: [],
    };
    for (const width of widths) {
      for (const format of formats) {
        const file = `${name}-${hash}-${width}.${format}`;
        const target = join(outputDir, file);
        if (!existsSync(target)) {
          await sharp(source)
            .autoOrient()
            .resize(width, photoHeight(layout, width), {
              fit: 'cover',
              position: sharp.strategy.attention,
            })
            .toFormat(format, encodings[format])
            .toFile(`${target}.partial`);
          await rename(`${target}.partial`, target);
          prepared.encoded += 1;
        }
        made[format].push({ url: `${urlPath}${file}`, width });
        prepared.files.push(file);
      }
    }
    const [oneX] = made.webp;
    if (!oneX) continue;
    prepared.photos[name] = {
      width: oneX.width,
      height: photoHeight(layout, oneX.width),
      avif: srcset(layout, made.avif),
      webp: srcset(layout, made.webp.slice(1)),
      src: oneX.url,
    };
  }
  return prepared;
}

/** The photographs for Vite: made when it starts, in the page as `__PHOTOS__`, copied into the build. */
export function photosPlugin(
  photosDir = process.env.PHOTOS_DIR ?? defaultPhotosDir,
  outputDir = generatedPhotosDir,
): Plugin {
  let prepared: PreparedPhotos = { photos: {}, files: [], encoded: 0 };
  return {
    name: 'practice-photos',
    async config() {
      prepared = await preparePhotos(resolve(photosDir), resolve(outputDir));
      if (prepared.encoded > 0) {
        console.log(`Made ${prepared.encoded} photo files from ${photosDir} into ${outputDir}.`);
      }
      return { define: { __PHOTOS__: JSON.stringify(prepared.photos) } };
    },
    configureServer(server) {
      server.middlewares.use(urlPath, (request, response, next) => {
        const file = request.url?.slice(1).split('?')[0] ?? '';
        if (!prepared.files.includes(file)) return next();
        response.setHeader('Content-Type', `image/${extname(file).slice(1)}`);
        readFile(join(outputDir, file)).then((body) => response.end(body), next);
      });
    },
    async generateBundle() {
      // The server render links the same addresses; only the site needs the files.
      if (this.environment.config.consumer === 'server') return;
      for (const file of prepared.files) {
        this.emitFile({
          type: 'asset',
          fileName: `${urlPath.slice(1)}${file}`,
          source: await readFile(join(outputDir, file)),
        });
      }
    },
  };
}
