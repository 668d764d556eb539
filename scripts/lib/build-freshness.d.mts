/** Types of build-freshness.mjs, which stays JavaScript so that it runs before any build. */

export interface Build {
  name: 'site' | 'server';
  /** The npm script that makes it. */
  script: string;
  /** The file the build writes last, relative to the project's root. */
  stamp: string;
  /** The files and folders it is made from, relative to the project's root. */
  sources: string[];
  /** Folders inside the sources that the build leaves out. */
  excluded?: string[];
}

export interface StaleBuild extends Build {
  /** Whether an older build exists to fall back on. */
  exists: boolean;
  reason: string;
}

export const builds: readonly Build[];

export function staleBuilds(root: string, names?: readonly Build['name'][]): StaleBuild[];

export function sourcesHash(root: string, build: Build): string;

export function recordBuild(root: string, name: Build['name']): void;
