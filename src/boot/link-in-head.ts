/**
 * Adds a `<link>` to the page's head: a preload, a stylesheet, the web
 * manifest. Here in src/boot/ so that the boot script, which may import only
 * its own folder, and the rest of the page share it.
 */
export function linkInHead(
  document: Document,
  rel: string,
  href: string,
  { fetchPriority }: { fetchPriority?: 'high' } = {},
): void {
  const element = document.createElement('link');
  element.rel = rel;
  element.href = href;
  if (fetchPriority) element.fetchPriority = fetchPriority;
  document.head.append(element);
}
