// Finishes the built site: puts the server-rendered home view and the head tags
// into index.html, adds the Content-Security-Policy with the hashes of the
// inline scripts, and writes the files generated from the content.
// Runs after `vite build` and `vite build --ssr src/entry-server.tsx --outDir dist-ssr`.
import { createHash } from 'node:crypto';
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

// Usage: node scripts/prerender.mjs [site folder, default dist] [server-render folder, default dist-ssr]
const distDir = resolve(process.argv[2] ?? 'dist');
const ssrDir = resolve(process.argv[3] ?? 'dist-ssr');
const entry = await import(pathToFileURL(resolve(ssrDir, 'entry-server.js')).href);

// The headings' font is the one the first screen needs; preload it.
const assets = await readdir(resolve(distDir, 'assets'));
const headingFont = assets.find(
  (name) => name.startsWith('fraunces-latin-wght-normal') && name.endsWith('.woff2'),
);

const indexPath = resolve(distDir, 'index.html');
let html = await readFile(indexPath, 'utf8');

html = replaceOnce(
  html,
  /<!--head:[^>]*-->\s*<title>[^<]*<\/title>/,
  entry.renderHead({ preloadFont: headingFont && `/assets/${headingFont}` }),
);
html = replaceOnce(html, /<div id="root"><\/div>/, `<div id="root">${entry.renderHome()}</div>`);

// Classic inline scripts run only if the policy names their hash; JSON-LD is data, not script.
const inlineScripts = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((match) => match[1]);
const hashes = inlineScripts.map((code) =>
  createHash('sha256').update(code, 'utf8').digest('base64'),
);
const policy = entry.renderContentSecurityPolicy(hashes);
html = replaceOnce(
  html,
  /<meta charset="UTF-8" \/>/,
  `<meta charset="UTF-8" />\n    <meta http-equiv="Content-Security-Policy" content="${policy}" />`,
);

await writeFile(indexPath, html);
for (const [name, text] of Object.entries(entry.siteFiles))
  await writeFile(resolve(distDir, name), text);
await rm(ssrDir, { recursive: true, force: true });
console.log(`Pre-rendered ${indexPath} and wrote ${Object.keys(entry.siteFiles).join(', ')}`);

function replaceOnce(text, pattern, replacement) {
  if (!pattern.test(text)) throw new Error(`${indexPath}: nothing matches ${pattern}`);
  return text.replace(pattern, () => replacement);
}
