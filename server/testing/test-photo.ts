import sharp from 'sharp';

/**
 * Writes a photograph made here from raw pixels (soft bands of the site's
 * colours with a bright disc, so the crop has somewhere to look), for the
 * tests: none is shipped. The format follows the file's extension.
 */
export async function writeTestPhoto(path: string, width: number, height: number): Promise<void> {
  const pixels = Buffer.alloc(width * height * 3);
  const [cx, cy, radius] = [width * 0.6, height * 0.4, Math.min(width, height) * 0.2];
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const offset = (y * width + x) * 3;
      const inDisc = (x - cx) ** 2 + (y - cy) ** 2 < radius ** 2;
      pixels[offset] = inDisc ? 240 : 18 + Math.round((200 * x) / width);
      pixels[offset + 1] = inDisc ? 200 : 60 + Math.round((120 * y) / height);
      pixels[offset + 2] = inDisc ? 150 : 58 + ((x + y) % 40);
    }
  }
  await sharp(pixels, { raw: { width, height, channels: 3 } }).toFile(path);
}
