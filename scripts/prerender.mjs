// Puts the server-rendered home view into dist/index.html.
// Runs after `vite build` and `vite build --ssr src/entry-server.tsx --outDir dist-ssr`.
import { readFile, rm, writeFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';

const distDir = resolve(process.argv[2] ?? 'dist');
const ssrDir = resolve('dist-ssr');
const { renderHome } = await import(pathToFileURL(resolve(ssrDir, 'entry-server.js')).href);

const indexPath = resolve(distDir, 'index.html');
const template = await readFile(indexPath, 'utf8');
const placeholder = '<div id="root"></div>';
if (!template.includes(placeholder))
  throw new Error(`${indexPath} has no empty ${placeholder} to fill.`);
await writeFile(indexPath, template.replace(placeholder, `<div id="root">${renderHome()}</div>`));
await rm(ssrDir, { recursive: true, force: true });
console.log(`Pre-rendered the home view into ${indexPath}`);
