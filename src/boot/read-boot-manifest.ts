import { bootManifestId, type BootManifest } from './protocol.ts';

/** The manifest the pre-render step wrote, or null where there is none (the development server). */
export function readBootManifest(document: Document): BootManifest | null {
  const element = document.getElementById(bootManifestId);
  if (!element?.textContent) return null;
  return JSON.parse(element.textContent) as BootManifest;
}
