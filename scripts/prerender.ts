/**
 * Writes the built site's page, dist/index.html, whole:
 * - the head tags and the home view, rendered on the server;
 * - the booking page as a template in the page, the other views as files of
 *   their own (named by their content, so cached for good);
 * - the style sheet inlined (one round trip less before the first paint);
 * - the boot manifest (src/boot/protocol.ts) and the boot scripts, which start
 *   the main script after the first paint;
 * - the Content-Security-Policy with the hashes of the inline scripts and style;
 * and the files generated from the content (robots.txt, sitemap.xml, manifest).
 * Last, it warns of what is still an example in the content (PLACEHOLDER facts,
 * SITE_URL, SAMPLE reviews), the list `npx hijama check` fails on.
 *
 * Runs after `vite build` and `vite build --ssr src/entry-server.tsx --outDir dist-ssr`,
 * taking the file names from Vite's manifest, never from its HTML.
 * Usage: tsx scripts/prerender.ts [site folder, default dist] [server-render folder, default dist-ssr]
 */
import { createHash } from 'node:crypto';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadEnv, type Manifest } from 'vite';
import {
  bootManifestElement,
  homePhotoScriptAttribute,
  inPageTemplateId,
  rootElementId,
  viewFilePath,
  type BootManifest,
} from '../src/boot/protocol.ts';
import { jsonForScript } from '../src/seo/html.ts';
import { launchPlaceholders } from '../src/content/launch-list.ts';
import { buildBootScripts } from './lib/boot-scripts.ts';
import { headersFileName, writeHeadersFile } from '../server/http/headers-file.ts';

type ServerEntry = typeof import('../src/entry-server.tsx');

const distDir = resolve(process.argv[2] ?? 'dist');
const ssrDir = resolve(process.argv[3] ?? 'dist-ssr');
const entry = (await import(pathToFileURL(resolve(ssrDir, 'entry-server.js')).href)) as ServerEntry;
const manifestPath = resolve(distDir, '.vite/manifest.json');
const viteManifest = JSON.parse(await readFile(manifestPath, 'utf8')) as Manifest;

function chunk(source: string) {
  const found = viteManifest[source];
  if (!found) throw new Error(`${manifestPath}: no entry for ${source}`);
  return found;
}

/** A chunk's file and those of the chunks it imports statically, but not the main entry's. */
function chunkFiles(source: string): string[] {
  const sources = new Set<string>();
  const visit = (key: string) => {
    const found = viteManifest[key];
    if (!found || found.isEntry || sources.has(key)) return;
    sources.add(key);
    for (const imported of found.imports ?? []) visit(imported);
  };
  visit(source);
  return [...sources].map((key) => `/${chunk(key).file}`);
}

const page = chunk('index.html');
const [stylesheet, ...otherStylesheets] = page.css ?? [];
if (!stylesheet || otherStylesheets.length > 0)
  throw new Error(`${manifestPath}: the page should have one style sheet, has ${page.css?.length}`);

// Every other page, pre-rendered: the in-page ones as templates, the rest as files.
const otherViews = await entry.renderOtherViews();
const templates: string[] = [];
const viewFiles: Record<string, string> = {};
// The empty script the server render puts after home's first-screen photo,
// which it holds in a <noscript> (src/components/photo.tsx).
const homePhotoScript = `<script ${homePhotoScriptAttribute}=""></script>`;
for (const [name, markup] of Object.entries(otherViews)) {
  // Only home's markup is in the HTML, where a script can run in place; a
  // view's file is put in place by the boot script, whose scripts never run.
  if (markup.includes(homePhotoScript))
    throw new Error(`The ${name} view has a first-screen photo: only home's can be one.`);
  if ((entry.inPageViews as readonly string[]).includes(name)) {
    templates.push(`<template id="${inPageTemplateId(name)}">${markup}</template>`);
  } else {
    const hash = createHash('sha256').update(markup).digest('base64url').slice(0, 10);
    const file = viewFilePath(name, hash);
    await writeFile(resolve(distDir, `.${file}`), markup);
    viewFiles[name] = file;
  }
}

const viewChunks: Record<string, string[]> = {};
for (const [source, found] of Object.entries(viteManifest)) {
  const view = /^src\/views\/(.+)-view\.tsx$/.exec(source)?.[1];
  if (view && found.isDynamicEntry) viewChunks[view] = chunkFiles(source);
}

const bootManifest: BootManifest = {
  mainScript: `/${page.file}`,
  afterFirstPaint: { manifest: entry.manifestPath },
  inPageViews: entry.inPageViews,
  viewFiles,
  viewChunks,
};

// The web fonts' faces are in the inlined style sheet (src/styles/web-fonts.css:
// both `block`); preloaded from the head, they are fetched beside
// the page and are at hand for its first layout, so that layout is the only
// one and is in the designed fonts. Fraunces first (the first screen's heading),
// and both at the head's top, where the browser's preload scanner meets them first.
const fontFiles = (page.assets ?? [])
  .filter((file) => file.endsWith('.woff2'))
  .sort((a, b) => Number(b.includes('fraunces')) - Number(a.includes('fraunces')));
if (fontFiles.length !== 2)
  throw new Error(`${manifestPath}: the page should use two font files, uses ${fontFiles.length}`);
const fontPreloads = fontFiles
  .map((file) => `<link rel="preload" href="/${file}" as="font" type="font/woff2" crossorigin />`)
  .join('\n    ');

const bootScripts = await buildBootScripts();
const css = await readFile(resolve(distDir, stylesheet), 'utf8');
// Home's first-screen photo is put in place by its script, where the page
// arrives at home; with no photo, home has neither.
const homeMarkup = entry.renderHome();
const homeHasPhoto = homeMarkup.includes(homePhotoScript);
const home = homeMarkup.replace(homePhotoScript, `<script>${bootScripts.homePhoto}</script>`);

// Classic inline scripts and style sheets run only if the policy names their
// hash; the boot manifest and JSON-LD are data, not script.
const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('base64');
const policy = entry.renderContentSecurityPolicy({
  scripts: [
    bootScripts.head,
    bootScripts.afterRoot,
    ...(homeHasPhoto ? [bootScripts.homePhoto] : []),
  ].map(sha256),
  styles: [css].map(sha256),
});

// Nothing but the boot script starts the main script: Vite's own script tag
// and its module preloads would fetch it before the first paint.
const html = `<!doctype html>
<html lang="${entry.locale}">
  <head>
    <meta charset="UTF-8" />
    <meta http-equiv="Content-Security-Policy" content="${policy}" />
    <meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover" />
    ${fontPreloads}
    ${entry.renderHead(bootManifest.afterFirstPaint)}
    ${bootManifestElement(jsonForScript(bootManifest))}
    <script>${bootScripts.head}</script>
    <style>${css}</style>
  </head>
  <body>
    <div id="${rootElementId}">${home}</div>
    ${templates.join('')}
    <script>${bootScripts.afterRoot}</script>
  </body>
</html>
`;

const indexPath = resolve(distDir, 'index.html');
await writeFile(indexPath, html);
for (const [name, text] of Object.entries(entry.siteFiles))
  await writeFile(resolve(distDir, name), text);
await rm(resolve(distDir, '.vite'), { recursive: true, force: true });
await rm(ssrDir, { recursive: true, force: true });
// Last, once every file of the site is in place: their headers for static hosts.
await writeHeadersFile(distDir);
console.log(
  `Pre-rendered ${indexPath} and wrote ${[...Object.keys(entry.siteFiles), headersFileName].join(', ')}`,
);

// SITE_URL as vite.config.ts reads it for the build.
const siteUrlSetting =
  process.env.SITE_URL ?? loadEnv('production', process.cwd(), 'SITE_URL').SITE_URL;
for (const line of launchPlaceholders(siteUrlSetting)) console.warn(`Warning: ${line}`);
