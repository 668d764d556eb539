import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer as createTcpServer, type AddressInfo, type Socket } from 'node:net';
import path from 'node:path';
import { buffer, text } from 'node:stream/consumers';
import { promisify } from 'node:util';
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import PostalMime, { type Email } from 'postal-mime';
import { SMTPServer } from 'smtp-server';
import {
  createEmailChannel,
  type NotificationChannel,
} from '../../supabase/functions/_shared/notifications/channels.ts';
import { serve } from './helpers.ts';
import { testSiteUrl } from './notice-samples.ts';

/** The other ends of the notifications in tests: a real SMTP server and a webhook receiver. */

export interface ReceivedMail {
  /** When the message was accepted (Date.now()). */
  receivedAt: number;
  from: string;
  to: string[];
  /** The SMTP user that logged in, if any. */
  user: string | undefined;
  raw: string;
  parsed: Email;
}

export interface SmtpPeer {
  port: number;
  mails: ReceivedMail[];
  close(): Promise<void>;
}

/**
 * An SMTP server on 127.0.0.1; with `auth`, only that user may send, else
 * anyone, logged in or not. Without `tls` it speaks plain SMTP; with it, TLS
 * from the first byte (implicit TLS, `smtps://`, as on port 465). The
 * addresses of `rejectRecipients` are refused at RCPT TO with 550, as a mail
 * server refuses a mailbox that does not exist, or with `refusal` when given.
 */
export async function startSmtpPeer(
  options: {
    port?: number;
    auth?: { user: string; pass: string };
    tls?: { key: string; cert: string };
    rejectRecipients?: readonly string[];
    refusal?: { code: number; text: string };
  } = {},
): Promise<SmtpPeer> {
  const mails: ReceivedMail[] = [];
  const rejected = new Set(options.rejectRecipients?.map((address) => address.toLowerCase()));
  const server = new SMTPServer({
    ...(options.tls
      ? { secure: true, key: options.tls.key, cert: options.tls.cert }
      : { secure: false }),
    disabledCommands: ['STARTTLS'],
    authOptional: options.auth === undefined,
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, callback) {
      if (
        !options.auth ||
        (auth.username === options.auth.user && auth.password === options.auth.pass)
      ) {
        callback(null, { user: auth.username });
      } else {
        callback(new Error('Invalid username or password'));
      }
    },
    onRcptTo(address, _session, callback) {
      if (!rejected.has(address.address.toLowerCase())) return callback();
      const { code, text } = options.refusal ?? {
        code: 550,
        text: `5.1.1 <${address.address}>: Recipient address rejected: User unknown`,
      };
      const refusal = new Error(text) as Error & { responseCode: number };
      refusal.responseCode = code;
      callback(refusal);
    },
    onData(stream, session, callback) {
      buffer(stream)
        .then(async (raw) => {
          const receivedAt = Date.now();
          const parsed = await PostalMime.parse(raw);
          const from = session.envelope.mailFrom;
          mails.push({
            receivedAt,
            from: from === false ? '' : from.address,
            to: session.envelope.rcptTo.map((recipient) => recipient.address),
            user: typeof session.user === 'string' ? session.user : undefined,
            raw: raw.toString('utf8'),
            parsed,
          });
        })
        .then(() => callback(), callback);
    },
  });
  // A client that refuses the certificate, or drops the connection, is the
  // client's failure to report, not the test process's.
  server.on('error', () => {});
  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.server.address() as AddressInfo;
  return {
    port,
    mails,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * A certificate for 127.0.0.1, made in `dir`, issued by a new self-signed
 * authority, as a mail provider's is by a public one: a client trusts it only
 * when given that authority (`caFile`; Deno's DENO_CERT). (Deno, like
 * browsers, does not take a self-signed server certificate as its own authority.)
 */
export async function makeCertificate(dir: string) {
  const file = (name: string) => path.join(dir, name);
  const openssl = (args: string, ...more: string[]) =>
    promisify(execFile)('openssl', [...args.split(' '), ...more], { cwd: dir });
  const authority = 'req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=Hijama-test-authority';
  await openssl(authority, '-keyout', file('ca-key.pem'), '-out', file('ca.pem'));
  const request = 'req -newkey rsa:2048 -nodes -subj /CN=127.0.0.1';
  await openssl(request, '-keyout', file('key.pem'), '-out', file('server.csr'));
  writeFileSync(file('server.ext'), 'basicConstraints=CA:FALSE\nsubjectAltName=IP:127.0.0.1\n');
  await openssl(
    'x509 -req -set_serial 1 -days 1',
    ...['-in', file('server.csr'), '-CA', file('ca.pem'), '-CAkey', file('ca-key.pem')],
    ...['-extfile', file('server.ext'), '-out', file('cert.pem')],
  );
  return {
    key: readFileSync(file('key.pem'), 'utf8'),
    cert: readFileSync(file('cert.pem'), 'utf8'),
    caFile: file('ca.pem'),
  };
}

/** SITE_URL of the notification tests (notice-samples.ts). */
export { testSiteUrl };

/** NOTIFY_TO of the notification tests. */
export const practiceInbox = 'practice@example.com';

/**
 * The practice's e-mail channel through the SMTP server on 127.0.0.1:`port`,
 * logged in with `credentials` ("user:password@") when given.
 */
export function emailChannelTo(port: number, credentials = ''): NotificationChannel {
  return createEmailChannel(
    {
      smtpUrl: `smtp://${credentials}127.0.0.1:${port}`,
      to: [practiceInbox],
      from: 'Rochester Hijama <bookings@rochester-hijama.example>',
    },
    testSiteUrl,
  );
}

/** A port of 127.0.0.1 that nothing listens on (yet): an SMTP server that is down. */
export { freePort } from '../../scripts/lib/built-server.ts';

/** A TCP server that accepts connections and never says anything: a hung SMTP server. */
export async function startSilentServer(): Promise<{
  port: number;
  /** Settles once the first connection is open. */
  connected: Promise<void>;
  close(): Promise<void>;
}> {
  const sockets = new Set<Socket>();
  let firstConnection!: () => void;
  const connected = new Promise<void>((resolve) => (firstConnection = resolve));
  const server = createTcpServer((socket) => {
    sockets.add(socket);
    firstConnection();
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    connected,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Records every request; answers with the next status of `statuses`, then 204. */
export async function startWebhookReceiver(statuses: number[] = []) {
  const requests: { method: string; url: string; headers: IncomingHttpHeaders; body: string }[] =
    [];
  const pending = [...statuses];
  const server = await serve(async (req, res) => {
    const body = await text(req);
    requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
    res.writeHead(pending.shift() ?? 204);
    res.end();
  });
  return { url: `${server.baseUrl}/hooks/booking?token=secret`, requests, close: server.close };
}

/** Polls `condition` until it holds. */
export async function waitFor(
  condition: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 15_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}.`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** A message as an ntfy server stores it. */
export interface NtfyPublished {
  /** When it was accepted (Date.now()). */
  receivedAt: number;
  topic: string;
  title: string | undefined;
  message: string;
  /** 1 (min) to 5 (max); 3 when not given. */
  priority: number;
  tags: string[];
  click: string | undefined;
  actions: { action: string; label: string; url?: string; clear?: boolean }[];
  /** The Authorization header as sent. */
  authorization: string | undefined;
}

export interface NtfyPeer {
  /** The address of a topic on it: `http://127.0.0.1:<port>/<topic>`. */
  topicUrl(topic: string): string;
  messages: NtfyPublished[];
  close(): Promise<void>;
}

/**
 * An HTTP server that speaks ntfy's publish API as documented
 * (docs.ntfy.sh/publish) in the form the ntfy channel uses: a POST or PUT of a
 * JSON object to the root. (ntfy also takes the message at `/<topic>` with its
 * fields in headers; nothing here publishes that way, so this peer refuses it.)
 * It answers as ntfy does: 200 with the stored message as JSON; 400 to a
 * message it cannot take (no topic, a bad priority, more than three actions, an
 * action without a label); with `token`, 403 without an Authorization header and
 * 401 with a wrong one. `statuses` are answered first, one a request, with
 * ntfy's error body, and nothing is stored.
 */
export async function startNtfyPeer(
  options: { token?: string; statuses?: number[] } = {},
): Promise<NtfyPeer> {
  const messages: NtfyPublished[] = [];
  const pending = [...(options.statuses ?? [])];
  const answer = (res: ServerResponse, status: number, body: Record<string, unknown>) => {
    res.writeHead(status, { 'Content-Type': 'application/json' });
    res.end(`${JSON.stringify(body)}\n`);
  };
  const refuse = (res: ServerResponse, status: number, error: string) =>
    answer(res, status, { code: status * 100 + 1, http: status, error });

  const server = await serve(async (req, res) => {
    const body = await text(req);
    const scripted = pending.shift();
    if (scripted !== undefined) {
      refuse(
        res,
        scripted,
        scripted === 429 ? 'limit reached: too many requests' : 'scripted failure',
      );
      return;
    }
    if (req.method !== 'POST' && req.method !== 'PUT') {
      refuse(res, 405, 'method not allowed');
      return;
    }
    const authorization = req.headers.authorization;
    if (options.token !== undefined) {
      if (authorization === undefined) return refuse(res, 403, 'forbidden');
      if (authorization !== `Bearer ${options.token}`) return refuse(res, 401, 'unauthorized');
    }
    if ((req.url ?? '/').split('?')[0] !== '/') {
      return refuse(res, 400, 'this peer takes only the JSON form, at the root');
    }
    let json: Record<string, unknown>;
    try {
      json = JSON.parse(body) as Record<string, unknown>;
    } catch {
      return refuse(res, 400, 'invalid request: request body must be message JSON');
    }
    const actions = (json.actions ?? []) as NtfyPublished['actions'];
    const published: Omit<NtfyPublished, 'receivedAt' | 'authorization'> = {
      topic: typeof json.topic === 'string' ? json.topic : '',
      title: typeof json.title === 'string' ? json.title : undefined,
      message: typeof json.message === 'string' && json.message !== '' ? json.message : 'triggered',
      priority: json.priority === undefined ? 3 : Number(json.priority),
      tags: Array.isArray(json.tags) ? json.tags.map(String) : [],
      click: typeof json.click === 'string' ? json.click : undefined,
      actions: Array.isArray(actions) ? actions : [],
    };
    if (!/^[-_A-Za-z0-9]{1,64}$/.test(published.topic)) {
      return refuse(res, 400, 'invalid topic');
    }
    if (!Number.isInteger(published.priority) || published.priority < 1 || published.priority > 5) {
      return refuse(res, 400, 'invalid priority');
    }
    if (published.actions.length > 3) {
      return refuse(res, 400, 'invalid request: too many actions');
    }
    for (const action of published.actions) {
      const known = ['view', 'http', 'broadcast', 'copy'].includes(action.action);
      if (!known || !action.label || (action.action === 'view' && !action.url)) {
        return refuse(res, 400, 'invalid request: action invalid');
      }
    }
    const receivedAt = Date.now();
    messages.push({ ...published, receivedAt, authorization });
    answer(res, 200, {
      id: `m${messages.length}`,
      time: Math.floor(receivedAt / 1000),
      event: 'message',
      topic: published.topic,
      ...(published.title === undefined ? {} : { title: published.title }),
      message: published.message,
      priority: published.priority,
    });
  });
  return {
    topicUrl: (topic) => `${server.baseUrl}/${topic}`,
    messages,
    close: server.close,
  };
}
