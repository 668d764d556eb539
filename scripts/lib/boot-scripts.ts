/**
 * Builds the boot scripts (src/boot/entries/) with Vite, each as one small
 * classic script for the pre-render step to inline: they run before the first
 * paint, so they cannot wait for a module or a file.
 */
import { build, type Rolldown } from 'vite';

const entries = {
  head: 'src/boot/entries/head.ts',
  afterRoot: 'src/boot/entries/after-root.ts',
  homePhoto: 'src/boot/entries/home-photo.ts',
} as const;

type BootScripts = Record<keyof typeof entries, string>;

export async function buildBootScripts(): Promise<BootScripts> {
  const built = await Promise.all(
    Object.entries(entries).map(async ([name, entry]) => [name, await buildClassicScript(entry)]),
  );
  return Object.fromEntries(built) as BootScripts;
}

async function buildClassicScript(entry: string): Promise<string> {
  const result = await build({
    configFile: false,
    logLevel: 'warn',
    publicDir: false,
    build: {
      write: false,
      minify: true,
      // What every browser that runs the page's script understands.
      target: 'es2020',
      lib: { entry, formats: ['iife'], name: 'boot' },
    },
  });
  const outputs = (Array.isArray(result) ? result : [result]) as Rolldown.RolldownOutput[];
  const chunks = outputs.flatMap((output) => output.output).filter((file) => file.type === 'chunk');
  if (chunks.length !== 1) throw new Error(`${entry}: expected one script, got ${chunks.length}`);
  return chunks[0]!.code.trim();
}
