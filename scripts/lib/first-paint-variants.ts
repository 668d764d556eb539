import { createHash } from 'node:crypto';
import { bootManifestElement, bootManifestIn, type BootManifest } from '../../src/boot/protocol.ts';
import { jsonForScript } from '../../src/seo/html.ts';

/**
 * The built page (dist/index.html) without one of its first-paint mechanisms
 * at a time, for `npm run bench:first-paint` to measure each one against the
 * page as built. Every function takes the page's text and returns the
 * variant's; nothing here reads or writes files. The boot manifest
 * (src/boot/protocol.ts) is read with `bootManifestIn` and written by `withBoot` only.
 */

function match(html: string, pattern: RegExp): RegExpExecArray {
  const found = pattern.exec(html);
  if (!found) throw new Error(`The page has nothing that matches ${pattern}`);
  return found;
}

function withBoot(html: string, edit: (boot: BootManifest) => BootManifest): string {
  const boot = bootManifestIn(html);
  return html.replace(bootManifestElement(jsonForScript(boot)), () =>
    bootManifestElement(jsonForScript(edit(boot))),
  );
}

/** Tags put in the head before the inlined style sheet. */
function beforeStyleSheet(html: string, tags: string[]): string {
  const style = match(html, /\n?(\s*)<style>/);
  const indent = style[1]?.replace(/\n/g, '') ?? '';
  const inserted = tags.map((tag) => `\n${indent}${tag}`).join('');
  return html.slice(0, style.index) + inserted + html.slice(style.index);
}

/** The text of the inline style sheet, edited. */
function editStyleSheet(html: string, edit: (css: string) => string): string {
  const style = match(html, /<style>([\s\S]*?)<\/style>/);
  return html.replace(style[0], () => `<style>${edit(style[1] ?? '')}</style>`);
}

/**
 * Without the deferred start: the main script in the head as Vite writes it,
 * fetched at once and run once the page is parsed. (The boot script still
 * adds it after the first paint too; a module runs only once per URL.)
 */
export function withoutDeferredStart(html: string): string {
  const { mainScript } = bootManifestIn(html);
  return beforeStyleSheet(html, [
    `<script type="module" crossorigin src="${mainScript}"></script>`,
  ]);
}

/**
 * Without the fetched view files: the boot script knows no view file, so a
 * view other than home and the in-page ones is rendered by the main script,
 * started at once with the view's own chunks, as it already is for a view
 * that has no file.
 */
export function withoutFetchedViews(html: string): string {
  return withBoot(html, (boot) => ({ ...boot, viewFiles: {} }));
}

/** @font-face rules that take a local font: the fallback faces of fallback-fonts.css. */
const localFace = /@font-face\s*\{[^}]*\bsrc\s*:\s*local\([^}]*\}/g;

/** The style sheet without the fallback faces (their names in the font stacks then match nothing). */
export function withoutLocalFaces(css: string): string {
  return css.replace(localFace, '');
}

/**
 * Without the fallback faces, the web fonts loaded as usual: their style
 * sheet linked in the head (font-display: swap as written), the text painted
 * in the generic fonts of the stacks until they arrive.
 */
export function withoutFallbackFaces(html: string): string {
  const { afterFirstPaint } = bootManifestIn(html);
  const links = afterFirstPaint.stylesheets.map(
    (href) => `<link rel="stylesheet" crossorigin href="${href}">`,
  );
  return beforeStyleSheet(editStyleSheet(html, withoutLocalFaces), links);
}

/**
 * Without the fallback faces, second form: the web fonts' @font-face rules
 * (`webFontsCss`, the built web-fonts style sheet) inlined into the page's
 * style sheet: no style sheet to wait for, each font fetched once text needs it.
 */
export function withoutFallbackFacesInlined(html: string, webFontsCss: string): string {
  return editStyleSheet(html, (css) => withoutLocalFaces(css) + webFontsCss);
}

/**
 * The page with its Content-Security-Policy <meta> naming the hashes of its
 * inline scripts and style sheets as they are now (the variants change them),
 * computed as the build does: classic inline scripts and style elements only.
 */
export function withPolicyHashes(html: string): string {
  const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('base64');
  const hashes = (tag: string) =>
    [...html.matchAll(new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`, 'g'))].map(
      (found) => `'sha256-${sha256(found[1] ?? '')}'`,
    );
  const meta = match(html, /(<meta http-equiv="Content-Security-Policy" content=")([^"]*)(")/);
  const replaced = { 'script-src': hashes('script'), 'style-src': hashes('style') };
  const policy = (meta[2] ?? '')
    .split(';')
    .map((directive) => {
      const [name = '', ...sources] = directive.trim().split(/\s+/);
      if (!(name in replaced)) return directive.trim();
      const kept = sources.filter((source) => !source.startsWith("'sha256-"));
      return [name, ...kept, ...replaced[name as keyof typeof replaced]].join(' ');
    })
    .join('; ');
  return html.replace(meta[0], () => `${meta[1]}${policy}${meta[3]}`);
}
