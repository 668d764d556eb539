// Cuts the two web fonts down to what the site uses: printable ASCII, common
// typographic punctuation and every other character of the content files, and
// the weights the style sheets ask for (Fraunces at one weight). That takes
// them from about 85 KB to 34 KB, and the first screen needs both: the smaller
// they are, the sooner its text swaps to them. A character added to the
// content later is picked up by the next build; one missing from a font (say,
// in a review pasted in unchanged) is drawn by the fallback font.
// Writes generated-fonts/ (git-ignored), which src/styles/web-fonts.css imports.
// Runs before every build and before the dev server.
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import subsetFont from 'subset-font';

const printableAscii = Array.from({ length: 95 }, (_, i) => String.fromCharCode(0x20 + i)).join('');
const typography = '\u00a0‘’“”–—…•·×£€©®™';
// The page's words and the practice's facts (name, address, phone) it shows:
// every content file, so that a name or a review the practice types in (Zoë,
// Aïsha) is drawn in the site's fonts.
const contentFiles = [
  ...(await readdir('src/content'))
    .filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'))
    .map((name) => `src/content/${name}`),
  'supabase/functions/_shared/content/practice.ts',
];
const content = (await Promise.all(contentFiles.map((file) => readFile(file, 'utf8')))).join('');
const text = [...new Set([...printableAscii, ...typography, ...content])]
  .filter((character) => character >= ' ')
  .sort()
  .join('');

const fonts = [
  // Headings ask for 520 to 600: one instance (560) serves them all, at half
  // the size of the variable range; web-fonts.css declares it for 500 to 600, so
  // the browser uses it as it is rather than faking a bolder one.
  {
    from: '@fontsource-variable/fraunces/files/fraunces-latin-wght-normal.woff2',
    to: 'fraunces-latin-subset.woff2',
    wght: 560,
  },
  // Body text uses 400 to 600.
  {
    from: '@fontsource-variable/inter/files/inter-latin-wght-normal.woff2',
    to: 'inter-latin-subset.woff2',
    wght: { min: 400, max: 600 },
  },
];

await mkdir('generated-fonts', { recursive: true });
for (const font of fonts) {
  const source = new URL(import.meta.resolve(font.from));
  const target = `generated-fonts/${font.to}`;
  // Skip the work when nothing it depends on has changed (a second build in a row).
  const inputs = createHash('sha256')
    .update(JSON.stringify([text, font.wght, (await stat(source)).mtimeMs]))
    .digest('hex');
  const stampPath = `${target}.inputs`;
  const [stamp, targetStat] = await Promise.all([
    readFile(stampPath, 'utf8').catch(() => ''),
    stat(target).catch(() => undefined),
  ]);
  if (stamp === inputs && targetStat && targetStat.size > 0) continue;
  const subset = await subsetFont(await readFile(source), text, {
    targetFormat: 'woff2',
    variationAxes: { wght: font.wght },
  });
  await writeFile(target, subset);
  await writeFile(stampPath, inputs);
  console.log(`${target}: ${subset.length} bytes`);
}
