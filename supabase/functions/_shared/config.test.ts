import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { developmentAnonKey } from './core/api-defaults.ts';
import { ConfigError, loadConfig } from './config.ts';

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    expect(loadConfig({}, '/srv/site')).toEqual({
      port: 3000,
      host: '127.0.0.1',
      dataDir: '/srv/site/data',
      databaseUrl: undefined,
      anonKey: developmentAnonKey,
      distDir: '/srv/site/dist',
    });
  });

  it('reads every variable and resolves directories against the working directory', () => {
    const config = loadConfig(
      {
        PORT: '8080',
        HOST: '0.0.0.0',
        DATA_DIR: 'var/db',
        DATABASE_URL: 'postgres://app@db.internal:5432/hijama',
        ANON_KEY: 'public-key',
        DIST_DIR: '/var/www/site',
      },
      '/srv/site',
    );
    expect(config).toEqual({
      port: 8080,
      host: '0.0.0.0',
      dataDir: path.resolve('/srv/site/var/db'),
      databaseUrl: 'postgres://app@db.internal:5432/hijama',
      anonKey: 'public-key',
      distDir: '/var/www/site',
    });
  });

  it('treats empty variables as unset, as a copied .env.example leaves them', () => {
    const config = loadConfig({ DATABASE_URL: '', ANON_KEY: ' ', PORT: '' }, '/srv');
    expect(config.databaseUrl).toBeUndefined();
    expect(config.anonKey).toBe(developmentAnonKey);
    expect(config.port).toBe(3000);
  });

  it.each([
    [{ PORT: 'eighty' }, /PORT must be a whole number from 0 to 65535/],
    [{ PORT: '70000' }, /PORT must be a whole number/],
    [{ PORT: '-1' }, /PORT must be a whole number/],
    [{ HOST: 'http://example.com' }, /HOST must be a host name or an IP address/],
    [{ DATABASE_URL: 'mysql://localhost/db' }, /DATABASE_URL must be a postgres:\/\//],
    [{ DATABASE_URL: 'not a url' }, /DATABASE_URL must be a postgres:\/\//],
    [{ ANON_KEY: 'two words' }, /ANON_KEY must not contain spaces/],
  ])('refuses %o with a clear message', (env, message) => {
    expect(() => loadConfig(env, '/srv')).toThrow(message);
  });

  it('lists every problem at once', () => {
    const load = () => loadConfig({ PORT: 'x', ANON_KEY: 'two words' }, '/srv');
    expect(load).toThrow(ConfigError);
    expect(load).toThrow(
      expect.objectContaining({ problems: [expect.any(String), expect.any(String)] }),
    );
  });
});
