import type { Plugin } from 'vite';

/**
 * The page's style sheet is inlined in the HTML (scripts/prerender.ts), so a
 * chunk fetched later must not fetch it again: a second copy to download,
 * which the view that chunk brings would wait for (on a slow phone
 * connection, seconds after the visitor's tap on Send or a menu entry), and
 * then a restyle of the whole page.
 *
 * Vite lists, for each dynamic import, the files it waits for, style sheets
 * included (`__vite__mapDeps([…])`), and `build.modulePreload.resolveDependencies`
 * is never shown the style sheets. So they are taken out of those lists here,
 * once Vite has written them (a `generateBundle` ordered `post` runs after Vite's).
 */
export function inlinedStyleSheetPlugin(): Plugin {
  return {
    name: 'inlined-style-sheet',
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        const inlined = new Set(
          Object.values(bundle).flatMap((file) =>
            file.type === 'chunk' && file.isEntry
              ? [...(file.viteMetadata?.importedCss ?? [])]
              : [],
          ),
        );
        for (const file of Object.values(bundle)) {
          if (file.type !== 'chunk' || !file.code.includes('__vite__mapDeps(')) continue;
          // The table of file names, written once at the chunk's top.
          const table = /\bm\.f=(\[[^\]]*\])/.exec(file.code)?.[1];
          if (!table) {
            throw new Error(`${file.fileName}: Vite's table of preloaded files has changed form`);
          }
          const names = JSON.parse(table) as string[];
          const dropped = new Set(
            names.flatMap((name, index) => (inlined.has(name) ? [index] : [])),
          );
          file.code = file.code.replace(
            /__vite__mapDeps\(\[([\d,]*)\]\)/g,
            (_call, indexes: string) =>
              `__vite__mapDeps([${indexes
                .split(',')
                .filter((index) => index !== '' && !dropped.has(Number(index)))
                .join(',')}])`,
          );
        }
      },
    },
  };
}
