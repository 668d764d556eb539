import path from 'node:path';
import { developmentAnonKey } from './core/api-defaults.ts';

/** Everything the server reads from its environment, checked and with defaults applied. */
export interface ServerConfig {
  port: number;
  host: string;
  /** Absolute directory of the embedded database; unused when `databaseUrl` is set. */
  dataDir: string;
  /** A PostgreSQL connection string; when set, PostgreSQL is used instead of PGlite. */
  databaseUrl: string | undefined;
  /** The public key browsers send; it may only insert booking requests. */
  anonKey: string;
  /** Absolute directory of the built site. */
  distDir: string;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n  ${problems.join('\n  ')}`);
    this.name = 'ConfigError';
  }
}

/**
 * Runs loaders one after another, keeping the problems of each that fails
 * (`attempt` then answers undefined), so that all are reported at once.
 */
export function collectConfigProblems() {
  const problems: string[] = [];
  const attempt = <T>(load: () => T): T | undefined => {
    try {
      return load();
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      problems.push(...error.problems);
      return undefined;
    }
  };
  return { problems, attempt };
}

/** The environment a loader reads: process.env, or Deno.env.toObject() in the Edge Function. */
export type Env = Record<string, string | undefined>;

/** Reads the configuration; an empty variable counts as unset, as in most `.env` files. */
export function loadConfig(env: Env = process.env, cwd: string = process.cwd()): ServerConfig {
  const problems: string[] = [];
  const read = (name: string): string | undefined => {
    const value = env[name]?.trim();
    return value === '' ? undefined : value;
  };

  const portText = read('PORT') ?? '3000';
  const port = /^\d{1,5}$/.test(portText) ? Number(portText) : Number.NaN;
  if (!(port >= 0 && port <= 65535)) {
    problems.push(`PORT must be a whole number from 0 to 65535 (got "${portText}").`);
  }

  const host = read('HOST') ?? '127.0.0.1';
  if (/\s|\//.test(host)) {
    problems.push(`HOST must be a host name or an IP address (got "${host}").`);
  }

  const databaseUrl = read('DATABASE_URL');
  if (databaseUrl !== undefined && !isPostgresUrl(databaseUrl)) {
    problems.push(
      'DATABASE_URL must be a postgres:// or postgresql:// connection string, or be left unset to use the embedded database.',
    );
  }

  const anonKey = read('ANON_KEY') ?? developmentAnonKey;
  if (/\s/.test(anonKey)) {
    problems.push('ANON_KEY must not contain spaces.');
  }

  if (problems.length > 0) throw new ConfigError(problems);

  return {
    port,
    host,
    dataDir: path.resolve(cwd, read('DATA_DIR') ?? 'data'),
    databaseUrl,
    anonKey,
    distDir: path.resolve(cwd, read('DIST_DIR') ?? 'dist'),
  };
}

function isPostgresUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'postgres:' || url.protocol === 'postgresql:';
  } catch {
    return false;
  }
}
