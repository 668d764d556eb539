import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import {
  freePort,
  makeCertificate,
  startSilentServer,
  startSmtpPeer,
  testSiteUrl,
  type SmtpPeer,
} from '../testing/notification-peers.ts';
import { useTempDir } from '../testing/temp-dir.ts';
import {
  createEmailChannel,
  smtpTimeouts,
} from '../../supabase/functions/_shared/notifications/channels.ts';
import { describeSmtpFailure, describeSmtpSuccess } from './smtp-check.ts';

/** The start-up check of the e-mail account against real SMTP servers, and what it says. */

async function check(smtpUrl: string): Promise<string> {
  const channel = createEmailChannel(
    { smtpUrl, to: ['practice@example.com'], from: 'a@b.example' },
    testSiteUrl,
  );
  try {
    await channel.verify();
    return describeSmtpSuccess(smtpUrl);
  } catch (error) {
    return describeSmtpFailure(error, smtpUrl);
  } finally {
    channel.close();
  }
}

describe('the SMTP check', () => {
  let peer: SmtpPeer;
  let tlsPeer: SmtpPeer;
  const dir = useTempDir('smtp-check', { once: true });

  beforeAll(async () => {
    peer = await startSmtpPeer({ auth: { user: 'bookings@clinic.example', pass: 'p@ss' } });
    // Issued by an authority of its own, which the check is not given: one it cannot verify.
    const { key, cert } = await makeCertificate(dir());
    tlsPeer = await startSmtpPeer({ tls: { key, cert } });
  }, 60_000);

  afterAll(async () => {
    await peer?.close();
    await tlsPeer?.close();
  });

  it('says whose login was accepted', async () => {
    expect(await check(`smtp://bookings%40clinic.example:p%40ss@127.0.0.1:${peer.port}`)).toBe(
      `E-mail: the SMTP server 127.0.0.1:${peer.port} accepted the login of bookings@clinic.example.`,
    );
  });

  it('says that the login was refused, and to check the password and its %XX escapes', async () => {
    expect(await check(`smtp://bookings%40clinic.example:p@127.0.0.1:${peer.port}`)).toBe(
      `the SMTP server 127.0.0.1:${peer.port} refused the login of bookings@clinic.example (535 Invalid username or password). ` +
        'Check the user name and password in SMTP_URL, with special characters written as %XX (@ is %40). ' +
        'Gmail, Google Workspace and Microsoft 365 need an app password, not the account\u2019s own.',
    );
  });

  it('says that nothing listens at the address, and which ports go with which scheme', async () => {
    const port = await freePort();
    expect(await check(`smtp://u:p@127.0.0.1:${port}`)).toBe(
      `nothing accepted a connection at 127.0.0.1:${port} (connection refused). Check the host and the port in SMTP_URL: 465 with smtps://, 587 with smtp://.`,
    );
  });

  it('says that a server did not answer in time, and that ports may be blocked', async () => {
    const silent = await startSilentServer();
    onTestFinished(silent.close);
    // The transport's own greeting timeout, run on a fake clock once the
    // connection is open: the real socket, nodemailer's real timer, no wait.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    onTestFinished(() => void vi.useRealTimers());
    const said = check(`smtp://u:p@127.0.0.1:${silent.port}`);
    await silent.connected;
    await vi.advanceTimersByTimeAsync(smtpTimeouts.greetingTimeout);
    expect(await said).toMatch(
      new RegExp(
        `^127\\.0\\.0\\.1:${silent.port} did not answer in time\\. Check the host and the port .*block port 25`,
      ),
    );
  });

  it('says, when smtp:// on port 465 waits in vain, to write smtps://', () => {
    // What the transport above reports of a greeting that never comes.
    const timedOut = Object.assign(new Error('Greeting never received'), { code: 'ETIMEDOUT' });
    expect(describeSmtpFailure(timedOut, 'smtp://u:p@mail.clinic.example:465')).toBe(
      'mail.clinic.example:465 did not answer in time. Port 465 speaks TLS from the first byte, so smtp:// waits for a greeting it never sends: write smtps://…:465 in SMTP_URL.',
    );
  });

  it('says when smtps:// meets a server without TLS from the first byte', async () => {
    expect(await check(`smtps://u:p@127.0.0.1:${peer.port}`)).toBe(
      `TLS failed at 127.0.0.1:${peer.port}: the server does not speak TLS from the first byte on this port. ` +
        'smtps:// is for port 465; for port 587 write smtp:// (the connection is then upgraded with STARTTLS).',
    );
  });

  it('says when the certificate cannot be verified', async () => {
    expect(await check(`smtps://u:p@127.0.0.1:${tlsPeer.port}`)).toMatch(
      new RegExp(
        `^the certificate of 127\\.0\\.0\\.1:${tlsPeer.port} could not be verified \\(.+\\)\\. Check that the host in SMTP_URL`,
      ),
    );
  });
});
