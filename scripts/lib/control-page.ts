import {
  bootManifestIn,
  inPageTemplateId,
  rootElementId,
  type BootManifest,
} from '../../src/boot/protocol.ts';

/**
 * The control of `npm run bench`: a view as it is painted on arrival, with no
 * script at all. Every function takes the built page's text (dist/index.html)
 * and returns the control's; nothing here reads or writes files.
 *
 * What the page's boot scripts do before the first paint is done here instead
 * (the view's pre-rendered markup put in #root), so that the control shows the
 * same view as the page does, and what is left is the cost of the markup and
 * the style sheet alone. `<noscript>` is kept as written: Chromium runs with
 * scripts on, so the control, like the page's first paint, has no web fonts.
 */

/** Where the markup a view paints comes from, as the boot manifest says. */
type ViewSource =
  { kind: 'home' } | { kind: 'in-page'; templateId: string } | { kind: 'file'; path: string };

/** How the page shows a view before its script runs; undefined: only the script renders it. */
export function viewSource(manifest: BootManifest, view: string): ViewSource | undefined {
  if (view === 'home') return { kind: 'home' };
  if (manifest.inPageViews.includes(view))
    return { kind: 'in-page', templateId: inPageTemplateId(view) };
  const path = manifest.viewFiles[view];
  return path ? { kind: 'file', path } : undefined;
}

/** The page without its script elements (data blocks too) and module preloads. */
export function withoutScripts(html: string): string {
  return html
    .replace(/[ \t]*<script\b[^>]*>[\s\S]*?<\/script>[ \t]*\n?/gi, '')
    .replace(/[ \t]*<link\b[^>]*\brel="?modulepreload"?[^>]*>[ \t]*\n?/gi, '');
}

/**
 * The Content-Security-Policy <meta> with scripts refused outright: the hashes
 * it named are of scripts that are gone, and should anything be left that
 * runs, the browser blocks it (and says so) rather than measure it.
 */
export function withScriptsRefused(html: string): string {
  return html.replace(
    /(<meta http-equiv="Content-Security-Policy" content=")([^"]*)(")/i,
    (_whole, start: string, policy: string, end: string) => {
      const directives = policy
        .split(';')
        .map((directive) => directive.trim())
        .filter((directive) => directive !== '' && !/^script-src(-elem|-attr)?\s/.test(directive));
      return `${start}${[...directives, "script-src 'none'"].join('; ')}${end}`;
    },
  );
}

/** Start and end of an element's content, found by counting the nesting of its tag. */
function contentRange(html: string, openTag: RegExp, tagName: string): [number, number] {
  const open = openTag.exec(html);
  if (!open) throw new Error(`The page has nothing that matches ${openTag}`);
  const start = open.index + open[0].length;
  const tags = new RegExp(`<(/?)${tagName}\\b[^>]*>`, 'gi');
  tags.lastIndex = start;
  let depth = 1;
  for (let tag = tags.exec(html); tag; tag = tags.exec(html)) {
    depth += tag[1] ? -1 : 1;
    if (depth === 0) return [start, tag.index];
  }
  throw new Error(`<${tagName}> opened by ${openTag} is never closed`);
}

/** The page with #root's content replaced by `markup`, as the boot scripts do before the first paint. */
function withRootContent(html: string, markup: string): string {
  const [start, end] = contentRange(html, new RegExp(`<div id="${rootElementId}"[^>]*>`), 'div');
  return html.slice(0, start) + markup + html.slice(end);
}

/** The content of an in-page view's <template>. */
function templateContent(html: string, templateId: string): string {
  const [start, end] = contentRange(
    html,
    new RegExp(`<template id="${templateId}"[^>]*>`),
    'template',
  );
  return html.slice(start, end);
}

/**
 * The page with home's first-screen photo put in place, as its boot script
 * does where the page arrives at home (src/boot/home-photo.ts): the <picture>
 * held in the <noscript> just before that script.
 */
function withHomePhotoShown(html: string): string {
  return html.replace(/<noscript>(<picture\b[\s\S]*?<\/picture>)<\/noscript>(?=<script>)/, '$1');
}

/**
 * The control of one view: the built page with the view's markup in #root
 * (`viewFileMarkup` is the fetched file's text, for a view that has one), no
 * script, and a policy that runs none.
 */
export function controlPage(html: string, view: string, viewFileMarkup?: string): string {
  const source = viewSource(bootManifestIn(html), view);
  if (!source) throw new Error(`The view "${view}" is not pre-rendered: it has no control`);
  let page = html;
  if (source.kind === 'home') page = withHomePhotoShown(html);
  if (source.kind === 'in-page')
    page = withRootContent(html, templateContent(html, source.templateId));
  if (source.kind === 'file') {
    if (viewFileMarkup === undefined)
      throw new Error(`The control of "${view}" needs ${source.path}`);
    page = withRootContent(html, viewFileMarkup);
  }
  return withScriptsRefused(withoutScripts(page));
}
