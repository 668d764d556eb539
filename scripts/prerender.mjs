// Finishes the built site:
// - puts the server-rendered home view and the head tags into index.html, and
//   the other views into it (the booking page) or into files of their own;
// - inlines the style sheet (one round trip less before the first paint);
// - fills in the map of views to their files for the inline script;
// - adds the Content-Security-Policy with the hashes of the inline script and style;
// - writes the files generated from the content (robots.txt, sitemap.xml, manifest).
// Runs after `vite build` and `vite build --ssr src/entry-server.tsx --outDir dist-ssr`.
// Usage: node scripts/prerender.mjs [site folder, default dist] [server-render folder, default dist-ssr]
import { createHash } from 'node:crypto';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const distDir = resolve(process.argv[2] ?? 'dist');
const ssrDir = resolve(process.argv[3] ?? 'dist-ssr');
const entry = await import(pathToFileURL(resolve(ssrDir, 'entry-server.js')).href);
const manifestPath = resolve(distDir, '.vite/manifest.json');
const manifest = JSON.parse(await readFile(manifestPath, 'utf8'));

const indexPath = resolve(distDir, 'index.html');
let html = await readFile(indexPath, 'utf8');

// The web fonts' style sheet (an entry of its own) and its font files, which
// the inline script fetches after the first paint.
const webFonts = manifest['src/styles/web-fonts.css'];
if (!webFonts) throw new Error(`${manifestPath}: no web fonts style sheet`);
const afterFirstPaint = {
  stylesheets: [`/${webFonts.file}`],
  fonts: (webFonts.assets ?? [])
    .filter((file) => file.endsWith('.woff2'))
    .map((file) => `/${file}`),
  manifest: entry.manifestPath,
};
html = replaceOnce(
  html,
  /<!--head:[^>]*-->\s*<title>[^<]*<\/title>/,
  entry.renderHead(afterFirstPaint),
);
html = replaceOnce(html, /<div id="root"><\/div>/, `<div id="root">${entry.renderHome()}</div>`);
html = replaceOnce(html, /\/\*after-first-paint\*\/ \{[^}]*\}/, JSON.stringify(afterFirstPaint));

// Every other page, pre-rendered: the booking page into this page, as a
// template for the inline script after #root to show at once when the address
// names it; the others as files of their own (named by their content, so
// cached for good) for the inline script in the head to fetch.
const otherViews = await entry.renderOtherViews();
const templates = [];
const fragments = {};
for (const [name, markup] of Object.entries(otherViews)) {
  if (entry.inPageViews.includes(name)) {
    templates.push(`<template id="view-${name}">${markup}</template>`);
  } else {
    const hash = createHash('sha256').update(markup).digest('base64url').slice(0, 10);
    const file = `assets/view-${name}-${hash}.html`;
    await writeFile(resolve(distDir, file), markup);
    fragments[name] = `/${file}`;
  }
}
html = replaceOnce(html, /<!--in-page-views:[^>]*-->/, templates.join(''));
html = replaceOnce(html, /\/\*in-page-views\*\/ \[\]/, JSON.stringify(entry.inPageViews));
html = replaceOnce(html, /\/\*view-fragments\*\/ \{\}/, JSON.stringify(fragments));

// The inline script of index.html starts the main script: after the first paint
// on a pre-rendered page, at once (with the view's chunks preloaded) on any other.
const mainScript =
  /\s*<script type="module" crossorigin src="(\/assets\/[^"]+\.js)"><\/script>/.exec(html);
if (!mainScript) throw new Error(`${indexPath}: no module script`);
html = html.replace(mainScript[0], '');
// Vite's preloads of the main script's own imports go too: on home they would
// be fetched before the first paint, which is what the deferred start avoids.
html = html.replace(/\s*<link rel="modulepreload" crossorigin href="[^"]+">/g, '');
html = replaceOnce(html, /\/\*main-script\*\/ ''/, JSON.stringify(mainScript[1]));
const viewFiles = {};
for (const [source, chunk] of Object.entries(manifest)) {
  const view = /^src\/views\/(.+)-view\.tsx$/.exec(source)?.[1];
  if (view && chunk.isDynamicEntry) viewFiles[view] = [...chunkFiles(source)];
}
html = replaceOnce(html, /\/\*view-files\*\/ \{\}/, JSON.stringify(viewFiles));

const stylesheet = /<link rel="stylesheet" crossorigin href="(\/assets\/[^"]+\.css)">/.exec(html);
if (!stylesheet) throw new Error(`${indexPath}: no style sheet link to inline`);
const css = await readFile(resolve(distDir, `.${stylesheet[1]}`), 'utf8');
html = html.replace(stylesheet[0], () => `<style>${css}</style>`);

// Classic inline scripts and style sheets run only if the policy names their hash;
// JSON-LD is data, not script.
const sha256 = (text) => createHash('sha256').update(text, 'utf8').digest('base64');
const inline = (tag) =>
  [...html.matchAll(new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`, 'g'))].map((m) => sha256(m[1]));
const policy = entry.renderContentSecurityPolicy({
  scripts: inline('script'),
  styles: inline('style'),
});
html = replaceOnce(
  html,
  /<meta charset="UTF-8" \/>/,
  `<meta charset="UTF-8" />\n    <meta http-equiv="Content-Security-Policy" content="${policy}" />`,
);

await writeFile(indexPath, html);
for (const [name, text] of Object.entries(entry.siteFiles))
  await writeFile(resolve(distDir, name), text);
await rm(resolve(distDir, '.vite'), { recursive: true, force: true });
await rm(ssrDir, { recursive: true, force: true });
console.log(`Pre-rendered ${indexPath} and wrote ${Object.keys(entry.siteFiles).join(', ')}`);

/** A chunk's file and those of the chunks it imports statically, but not the main entry's. */
function chunkFiles(key) {
  const keys = new Set();
  const visit = (k) => {
    const chunk = manifest[k];
    if (!chunk || chunk.isEntry || keys.has(k)) return;
    keys.add(k);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  visit(key);
  return [...keys].map((k) => `/${manifest[k].file}`);
}

function replaceOnce(text, pattern, replacement) {
  if (!pattern.test(text)) throw new Error(`${indexPath}: nothing matches ${pattern}`);
  return text.replace(pattern, () => replacement);
}
