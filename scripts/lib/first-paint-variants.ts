import { createHash } from 'node:crypto';

/**
 * The built page (dist/index.html) without one of its first-paint mechanisms
 * at a time, for `npm run bench:first-paint` to measure each one against the
 * page as built. Every function takes the page's text and returns the
 * variant's; nothing here reads or writes files.
 *
 * What the build gave the inline script in the head (the main script, what
 * follows the first paint, the views' files) is read and written by readBoot
 * and setViewFragments only, from either form the build may write it in: as
 * literals in the inline script (`var main = "…";`), or as a JSON manifest,
 * `<script type="application/json" id="boot">`.
 */

/** What the inline script in the head starts from. */
export interface Boot {
  /** The page's module script, which the inline script starts after the first paint. */
  main: string;
  /** The web fonts' style sheets and files, linked after the first paint. */
  afterFirstPaint: { stylesheets: string[]; fonts: string[]; manifest: string };
  /** The views pre-rendered into files of their own, fetched at once when the address names one. */
  viewFragments: Record<string, string>;
}

const bootManifest =
  /<script\b(?=[^>]*\btype="application\/json")(?=[^>]*\bid="boot")[^>]*>([\s\S]*?)<\/script>/;
const mainLiteral = /var main = ("[^"]*");/;
const laterLiteral = /var later = (\{.*\});/;
const fragmentsLiteral = /var fragment = (\{[^}]*\})\[view\];/;

function match(html: string, pattern: RegExp): RegExpExecArray {
  const found = pattern.exec(html);
  if (!found) throw new Error(`The page has nothing that matches ${pattern}`);
  return found;
}

export function readBoot(html: string): Boot {
  const manifest = bootManifest.exec(html);
  if (manifest) {
    const boot = JSON.parse(manifest[1] ?? '') as Boot;
    return {
      main: boot.main,
      afterFirstPaint: boot.afterFirstPaint,
      viewFragments: boot.viewFragments,
    };
  }
  return {
    main: JSON.parse(match(html, mainLiteral)[1] ?? '') as string,
    afterFirstPaint: JSON.parse(match(html, laterLiteral)[1] ?? '') as Boot['afterFirstPaint'],
    viewFragments: JSON.parse(match(html, fragmentsLiteral)[1] ?? '') as Record<string, string>,
  };
}

/** JSON that cannot end the <script> element it is in. */
const jsonInScript = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

function setViewFragments(html: string, fragments: Record<string, string>): string {
  const manifest = bootManifest.exec(html);
  if (manifest) {
    const boot = JSON.parse(manifest[1] ?? '') as Record<string, unknown>;
    const json = jsonInScript({ ...boot, viewFragments: fragments });
    return html.replace(manifest[0], () => manifest[0].replace(manifest[1] ?? '', () => json));
  }
  match(html, fragmentsLiteral);
  return html.replace(fragmentsLiteral, () => `var fragment = ${jsonInScript(fragments)}[view];`);
}

/** Tags put where Vite puts its own in the head: before the style sheet (inlined by the build). */
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
 * A. Without the deferred start: the main script in the head as Vite writes
 * it, fetched at once and run once the page is parsed. (The inline script
 * still adds it after the first paint too; a module runs only once per URL.)
 */
export function withoutDeferredStart(html: string): string {
  const { main } = readBoot(html);
  return beforeStyleSheet(html, [`<script type="module" crossorigin src="${main}"></script>`]);
}

/**
 * B. Without the fetched view files: the inline script knows no view file, so
 * a view other than home and the in-page ones is rendered by the main script,
 * started at once with the view's own chunks (module-preloaded), as the inline
 * script already does for a view that has no file.
 */
export function withoutFetchedViews(html: string): string {
  return setViewFragments(html, {});
}

/**
 * C. Without the stripped module preloads: Vite's `<link rel="modulepreload">`
 * of every chunk the main script imports statically (`preloads`, see
 * staticImports), which the build removes.
 */
export function withoutStrippedPreloads(html: string, preloads: readonly string[]): string {
  if (preloads.length === 0) return html;
  return beforeStyleSheet(
    html,
    preloads.map((href) => `<link rel="modulepreload" crossorigin href="${href}">`),
  );
}

/** @font-face rules that take a local font: the fallback faces of fallback-fonts.css. */
const localFace = /@font-face\s*\{[^}]*\bsrc\s*:\s*local\([^}]*\}/g;

/** The style sheet without the fallback faces (their names in the font stacks then match nothing). */
export function withoutLocalFaces(css: string): string {
  return css.replace(localFace, '');
}

/**
 * D. Without the fallback faces, the web fonts are loaded as usual: their
 * style sheet linked in the head (font-display: swap as written), the text
 * painted in the generic fonts of the stacks until they arrive.
 */
export function withoutFallbackFaces(html: string): string {
  const { afterFirstPaint } = readBoot(html);
  const links = afterFirstPaint.stylesheets.map(
    (href) => `<link rel="stylesheet" crossorigin href="${href}">`,
  );
  return beforeStyleSheet(editStyleSheet(html, withoutLocalFaces), links);
}

/**
 * D, second form: without the fallback faces, the web fonts' @font-face rules
 * (`webFontsCss`, the built web-fonts style sheet) inlined into the page's
 * style sheet: no style sheet to wait for, each font fetched once text needs it.
 */
export function withoutFallbackFacesInlined(html: string, webFontsCss: string): string {
  return editStyleSheet(html, (css) => withoutLocalFaces(css) + webFontsCss);
}

/**
 * The chunks a built module imports statically, directly (`import … from
 * "./x.js"`, `import "./x.js"`; not `import("./x.js")`), as absolute paths
 * resolved against the module's own path.
 */
export function staticImports(js: string, modulePath: string): string[] {
  const found = new Set<string>();
  const pattern =
    /\bimport\s*(?:[\w$]+\s*,?\s*)?(?:\{[^}]*\}|\*\s*as\s+[\w$]+)?\s*(?:from\s*)?["']([^"']+)["']/g;
  for (const [, specifier = ''] of js.matchAll(pattern)) {
    if (!/^\.{0,2}\//.test(specifier)) continue;
    found.add(new URL(specifier, `http://site${modulePath}`).pathname);
  }
  return [...found];
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
