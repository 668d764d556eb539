import { createServer as createTcpServer, type AddressInfo, type Socket } from 'node:net';
import type { IncomingHttpHeaders } from 'node:http';
import PostalMime, { type Email } from 'postal-mime';
import { SMTPServer } from 'smtp-server';
import { serve } from './helpers.ts';

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
 * from the first byte (implicit TLS, `smtps://`, as on port 465).
 */
export async function startSmtpPeer(
  options: {
    port?: number;
    auth?: { user: string; pass: string };
    tls?: { key: string; cert: string };
  } = {},
): Promise<SmtpPeer> {
  const mails: ReceivedMail[] = [];
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
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const receivedAt = Date.now();
        const raw = Buffer.concat(chunks);
        PostalMime.parse(raw).then(
          (parsed) => {
            const from = session.envelope.mailFrom;
            mails.push({
              receivedAt,
              from: from === false ? '' : from.address,
              to: session.envelope.rcptTo.map((recipient) => recipient.address),
              user: typeof session.user === 'string' ? session.user : undefined,
              raw: raw.toString('utf8'),
              parsed,
            });
            callback();
          },
          (error: Error) => callback(error),
        );
      });
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

/** A port of 127.0.0.1 that nothing listens on (yet): an SMTP server that is down. */
export async function freePort(): Promise<number> {
  const server = createTcpServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A TCP server that accepts connections and never says anything: a hung SMTP server. */
export async function startSilentServer(): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server = createTcpServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

export interface WebhookRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** Records every request; answers with the next status of `statuses`, then 204. */
export async function startWebhookReceiver(statuses: number[] = []) {
  const requests: WebhookRequest[] = [];
  const pending = [...statuses];
  const server = await serve((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      res.writeHead(pending.shift() ?? 204);
      res.end();
    });
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

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
