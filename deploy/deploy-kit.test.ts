import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { createHttpServer } from '../server/http/http-server.ts';
import { text } from 'node:stream/consumers';
import { fileURLToPath } from 'node:url';
import { parseEnv } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadSettings } from '../server/settings.ts';
import { httpExchange, serve } from '../server/testing/helpers.ts';
import { freePort, waitFor } from '../server/testing/notification-peers.ts';
import { spawnChild } from '../server/testing/processes.ts';
import { useTempDir } from '../server/testing/temp-dir.ts';

/** The deployment kit (docs/deploy.md), checked with the tools that will read it. */

const kit = (name: string) => fileURLToPath(new URL(name, import.meta.url));
const unitFile = kit('hijama.service');
const caddyfile = kit('Caddyfile');
const envExample = kit('hijama.env.example');
const systemdAnalyze = '/usr/bin/systemd-analyze';
const caddyBinary = '/usr/bin/caddy';

/** Installed by `npm run test:unit` (scripts/ensure-debian-packages.mjs). */
function requireTool(file: string, debianPackage: string) {
  if (!existsSync(file)) {
    throw new Error(
      `${file} is missing: run \`npm run test:unit\` as root, or sudo apt-get install -y ${debianPackage}`,
    );
  }
}

/** Caddy keeps state under HOME and XDG_*: a throwaway one per run. */
const caddyHome = useTempDir('caddy', { once: true });
const caddyEnv = () => ({
  ...process.env,
  HOME: caddyHome(),
  XDG_CONFIG_HOME: path.join(caddyHome(), 'config'),
  XDG_DATA_HOME: path.join(caddyHome(), 'data'),
});

function caddy(args: string[]) {
  return spawnSync(caddyBinary, args, { env: caddyEnv(), encoding: 'utf8' });
}

/** The Caddyfile as Caddy's JSON config; warnings (log lines on stderr) included. */
function adaptCaddyfile() {
  const result = caddy(['adapt', '--config', caddyfile, '--adapter', 'caddyfile']);
  expect(result.status, result.stderr).toBe(0);
  const warnings = result.stderr.split('\n').filter((line) => /"level":"(warn|error)"/.test(line));
  return { config: JSON.parse(result.stdout) as CaddyConfig, warnings };
}

interface CaddyConfig {
  admin?: { disabled: boolean };
  apps: {
    http: { servers: Record<string, { listen: string[]; automatic_https?: { disable: boolean } }> };
  };
}

/** The `Key=value` lines of one section of a unit file, in order. */
function unitSettings(section: string): [string, string][] {
  const settings: [string, string][] = [];
  let current = '';
  for (const line of readFileSync(unitFile, 'utf8').split('\n')) {
    const header = /^\[(\w+)\]$/.exec(line);
    if (header) current = header[1]!;
    const setting = /^(\w+)=(.*)$/.exec(line);
    if (setting && current === section) settings.push([setting[1]!, setting[2]!]);
  }
  return settings;
}

describe('the systemd unit', () => {
  beforeAll(() => requireTool(systemdAnalyze, 'systemd'));

  it('passes systemd-analyze verify without a word', () => {
    // verify exits 0 on an unknown key or a bad value ("…, ignoring"), so any output fails.
    const result = spawnSync(systemdAnalyze, ['verify', '--man=no', unitFile], {
      encoding: 'utf8',
    });
    expect({ status: result.status, output: result.stdout + result.stderr }).toEqual({
      status: 0,
      output: '',
    });
  });

  it('keeps its sandbox (exposure at most 2 of 10) but lets node write the code it runs', () => {
    const args = ['security', '--offline=true', '--no-pager', unitFile];
    const result = spawnSync(systemdAnalyze, args, { encoding: 'utf8' });
    const level = /Overall exposure level for hijama\.service: ([\d.]+)/.exec(result.stdout);
    expect(level, result.stdout + result.stderr).not.toBeNull();
    expect(Number(level![1]), result.stdout).toBeLessThanOrEqual(2);
    // With it, node is killed at start (SIGTRAP): V8 runs code it has just written.
    expect(result.stdout).toMatch(/^✗ MemoryDenyWriteExecute= /m);
  });
});

describe('the Caddyfile', () => {
  beforeAll(() => requireTool(caddyBinary, 'caddy'));

  it('with the unit and its example settings, makes a server behind the proxy that keeps its database in the state directory', () => {
    const service = unitSettings('Service');
    const setting = (key: string) => service.find(([name]) => name === key)?.[1];
    // systemd's order: Environment= first, then the EnvironmentFile=, which wins.
    const environment = {
      ...parseEnv(
        service.flatMap(([name, value]) => (name === 'Environment' ? [value] : [])).join('\n'),
      ),
      ...parseEnv(readFileSync(envExample, 'utf8')),
    };

    const settings = loadSettings(environment, setting('WorkingDirectory'));
    expect(settings.server.dataDir).toBe(`/var/lib/${setting('StateDirectory')}/data`);
    expect(settings.server.distDir).toBe(`${setting('WorkingDirectory')}/dist`);
    expect(settings.server.databaseUrl).toBeUndefined();
    // Caddy connects from this machine: its X-Forwarded-For is believed, no one else's.
    expect(settings.limits.trustProxy).toEqual(['loopback']);
    expect(setting('EnvironmentFile')).toBe('/etc/hijama/hijama.env');
    // Caddy proxies to where the server listens.
    expect(JSON.stringify(adaptCaddyfile().config)).toContain(
      `"dial":"${settings.server.host}:${settings.server.port}"`,
    );
  });

  it('is formatted, warns of nothing and validates (offline: no certificate is requested)', () => {
    expect(adaptCaddyfile().warnings).toEqual([]);
    const result = caddy(['validate', '--config', caddyfile, '--adapter', 'caddyfile']);
    expect(result.status, result.stderr).toBe(0);
  });

  it('lets go of an idle connection to the server before the server does, so that no request meets one it closes', () => {
    const idle = /"keep_alive":\{[^}]*"idle_timeout":(\d+)/.exec(
      JSON.stringify(adaptCaddyfile().config),
    );
    const server = createHttpServer(() => {});
    // Caddy's durations are nanoseconds.
    expect(Number(idle?.[1]) / 1e6).toBeLessThan(server.keepAliveTimeout);
  });

  it("hands the server the client's own address as X-Forwarded-For, whatever the client sent, each body whole, and asks for HTTPS from then on", async () => {
    const seen: (string | undefined)[] = [];
    /** When the server saw each request begin, and its body. */
    const arrivals: { at: number; body: string }[] = [];
    const upstream = await serve(async (req, res) => {
      const at = Date.now();
      seen.push(req.headers['x-forwarded-for'] as string | undefined);
      arrivals.push({ at, body: await text(req) });
      res.end('ok');
    });
    const caddyPort = await freePort();

    // The site's own routes, served over plain HTTP on a free port to a stand-in upstream.
    const { config } = adaptCaddyfile();
    const servers = Object.values(config.apps.http.servers);
    expect(servers).toHaveLength(1);
    servers[0]!.listen = [`127.0.0.1:${caddyPort}`];
    servers[0]!.automatic_https = { disable: true };
    config.admin = { disabled: true };
    const upstreamPort = new URL(upstream.baseUrl).port;
    const configText = JSON.stringify(config);
    const dial = '"dial":"127.0.0.1:3000"';
    expect(configText).toContain(dial);
    const configFile = path.join(caddyHome(), 'caddy.json');
    writeFileSync(configFile, configText.replaceAll(dial, `"dial":"127.0.0.1:${upstreamPort}"`));

    const proxy = spawnChild(caddyBinary, ['run', '--config', configFile], {
      cwd: caddyHome(),
      env: caddyEnv(),
    });
    try {
      const send = (forwardedFor?: string) =>
        httpExchange({
          host: '127.0.0.1',
          port: caddyPort,
          path: '/',
          headers: {
            host: 'hijama.example',
            ...(forwardedFor ? { 'x-forwarded-for': forwardedFor } : {}),
          },
        });
      const answering = () =>
        send().then(
          () => true,
          () => {
            if (proxy.child.exitCode !== null) throw new Error(`Caddy stopped.\n${proxy.stderr()}`);
            return false;
          },
        );
      await waitFor(answering, 'Caddy to answer', 10_000);
      seen.length = 0;
      const answers = [
        await send('203.0.113.7'),
        await send('203.0.113.7, 198.51.100.1'),
        await send(),
      ];
      expect(
        answers.map(({ status, headers }) => [status, headers['strict-transport-security']]),
      ).toEqual(Array(3).fill([200, 'max-age=31536000']));
      expect(seen).toEqual(['127.0.0.1', '127.0.0.1', '127.0.0.1']);

      // A body sent slowly reaches the server only once it is whole.
      arrivals.length = 0;
      const lastPartSent = await postSlowly(caddyPort, ['{"full_name":', '"Amina"}'], 500);
      expect(arrivals).toHaveLength(1);
      expect(arrivals[0]!.body).toBe('{"full_name":"Amina"}');
      expect(arrivals[0]!.at).toBeGreaterThanOrEqual(lastPartSent);
    } finally {
      proxy.child.kill('SIGTERM');
      await proxy.exited;
      await upstream.close();
    }
  });
});

/**
 * POSTs `parts` to the site, `pauseMs` apart, and waits for the answer; the
 * time the last part was sent.
 */
function postSlowly(port: number, parts: string[], pauseMs: number): Promise<number> {
  const length = Buffer.byteLength(parts.join(''));
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: '127.0.0.1',
        port,
        path: '/rest/v1/bookings',
        method: 'POST',
        headers: { host: 'hijama.example', 'content-length': String(length) },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(lastSent));
      },
    );
    request.on('error', reject);
    let lastSent = 0;
    const sendFrom = (index: number) => {
      lastSent = Date.now();
      if (index === parts.length - 1) {
        request.end(parts[index]);
        return;
      }
      request.write(parts[index]);
      setTimeout(() => sendFrom(index + 1), pauseMs);
    };
    sendFrom(0);
  });
}
