import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { developmentAnonKey } from './core/api-defaults.ts';
import { ConfigError, loadConfig } from './config.ts';

const serviceKey = 'a'.repeat(64);

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    expect(loadConfig({}, '/srv/site')).toEqual({
      port: 3000,
      host: '127.0.0.1',
      dataDir: '/srv/site/data',
      databaseUrl: undefined,
      anonKey: developmentAnonKey,
      serviceRoleKey: undefined,
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
        SERVICE_ROLE_KEY: serviceKey,
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
      serviceRoleKey: serviceKey,
      distDir: '/var/www/site',
    });
  });

  it('treats empty variables as unset, as a copied .env.example leaves them', () => {
    const config = loadConfig({ DATABASE_URL: '', SERVICE_ROLE_KEY: ' ', PORT: '' }, '/srv');
    expect(config.databaseUrl).toBeUndefined();
    expect(config.serviceRoleKey).toBeUndefined();
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
    [{ SERVICE_ROLE_KEY: 'short' }, /SERVICE_ROLE_KEY must be at least 32 characters/],
    [
      { SERVICE_ROLE_KEY: serviceKey, ANON_KEY: serviceKey },
      /SERVICE_ROLE_KEY must differ from ANON_KEY/,
    ],
  ])('refuses %o with a clear message', (env, message) => {
    expect(() => loadConfig(env, '/srv')).toThrow(message);
  });

  it('lists every problem at once', () => {
    try {
      loadConfig({ PORT: 'x', SERVICE_ROLE_KEY: 'short' }, '/srv');
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).problems).toHaveLength(2);
    }
  });
});
