import { mkdir, readdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { beforeEach, describe, expect, it } from 'vitest';
import { useTempDir } from '../../server/testing/temp-dir.ts';
import { preparePhotos } from './photos.ts';
import { writeTestPhoto } from '../../server/testing/test-photo.ts';

const workDir = useTempDir('photos');
let photosDir: string;
let outputDir: string;
beforeEach(() => {
  photosDir = join(workDir(), 'photos');
  outputDir = join(workDir(), 'generated');
});

describe('preparePhotos', () => {
  it('does nothing when there is no photos folder, and writes nothing', async () => {
    expect(await preparePhotos(photosDir, outputDir)).toEqual({
      photos: {},
      files: [],
      encoded: 0,
    });
    await expect(stat(outputDir)).rejects.toThrow();
  });

  it('makes AVIF and WebP at each width, cropped to the place, and reuses them on the next build', async () => {
    await mkdir(photosDir);
    await writeTestPhoto(join(photosDir, 'practitioner.jpg'), 600, 500);
    await writeFile(join(photosDir, 'README.md'), 'not a photo');

    const first = await preparePhotos(photosDir, outputDir);
    expect(first.encoded).toBe(4);
    expect(first.photos.practitioner).toMatchObject({ width: 224, height: 224 });
    expect(first.photos.practitioner?.avif).toMatch(
      /^\/assets\/photos\/practitioner-[\w-]{10}-224\.avif 1x, \S+-448\.avif 2x$/,
    );
    const largest = join(outputDir, first.files.find((file) => file.endsWith('-448.avif')) ?? '');
    expect(await sharp(largest).metadata()).toMatchObject({
      width: 448,
      height: 448,
      format: 'heif',
    });

    const again = await preparePhotos(photosDir, outputDir);
    expect(again.encoded).toBe(0);
    expect(again.photos).toEqual(first.photos);
    expect((await readdir(outputDir)).sort()).toEqual([...first.files].sort());
  });

  it('stops at a file it cannot place, naming the slots', async () => {
    await mkdir(photosDir);
    await writeFile(join(photosDir, 'IMG_1234.jpg'), '');
    await expect(preparePhotos(photosDir, outputDir)).rejects.toThrow(/room, practitioner, kit/);
  });
});
