import {
  isPlainSmtpOnTlsPort,
  smtpPort,
} from '../../supabase/functions/_shared/notifications/channels.ts';
import {
  describeError,
  withoutAddresses,
} from '../../supabase/functions/_shared/notifications/notifier.ts';

/**
 * The start-up check of the e-mail account (nodemailer's `verify`: connect,
 * TLS, log in, send nothing), in the words a practitioner can act on: what
 * failed, and what to check in SMTP_URL.
 */

function addressOf(smtpUrl: string) {
  const url = new URL(smtpUrl);
  const secure = url.protocol === 'smtps:';
  let user: string;
  try {
    user = decodeURIComponent(url.username);
  } catch {
    user = url.username;
  }
  return { host: url.hostname, port: smtpPort(url), user, secure };
}

/** The line printed when the check passes. */
export function describeSmtpSuccess(smtpUrl: string): string {
  const { host, port, user } = addressOf(smtpUrl);
  return user
    ? `E-mail: the SMTP server ${host}:${port} accepted the login of ${user}.`
    : `E-mail: the SMTP server ${host}:${port} answers (SMTP_URL has no login, so none was tried).`;
}

/** What failed and what to check, in a few sentences. */
export function describeSmtpFailure(error: unknown, smtpUrl: string): string {
  const { host, port, user, secure } = addressOf(smtpUrl);
  const at = `${host}:${port}`;
  const fields = (typeof error === 'object' && error !== null ? error : {}) as {
    code?: unknown;
    response?: unknown;
    message?: unknown;
  };
  const code = typeof fields.code === 'string' ? fields.code : '';
  const message = typeof fields.message === 'string' ? fields.message.trim() : String(error);
  const said = withoutAddresses(typeof fields.response === 'string' ? fields.response : message);
  let what: string;
  let check: string;
  if (code === 'EAUTH') {
    what = `the SMTP server ${at} refused the login${user ? ` of ${user}` : ''} (${said})`;
    check =
      'Check the user name and password in SMTP_URL, with special characters written as %XX (@ is %40). Gmail, Google Workspace and Microsoft 365 need an app password, not the account\u2019s own.';
  } else if (code === 'ENOAUTH') {
    what = `the SMTP server ${at} asks for a login and SMTP_URL has none`;
    check = 'Write the user name and password into SMTP_URL: smtp://user:password@host:587.';
  } else if (code === 'EDNS' || /ENOTFOUND|EAI_AGAIN/.test(message)) {
    what = `the SMTP server\u2019s name ${host} could not be found (${message})`;
    check =
      'Check the host name in SMTP_URL (e.g. smtp.gmail.com), and this machine\u2019s network.';
  } else if (/ECONNREFUSED/.test(message)) {
    what = `nothing accepted a connection at ${at} (connection refused)`;
    check = `Check the host and the port in SMTP_URL: 465 with smtps://, 587 with smtp://.`;
  } else if (code === 'ETIMEDOUT' || /timed? ?out/i.test(message)) {
    what = `${at} did not answer in time`;
    check = isPlainSmtpOnTlsPort(new URL(smtpUrl))
      ? 'Port 465 speaks TLS from the first byte, so smtp:// waits for a greeting it never sends: write smtps://…:465 in SMTP_URL.'
      : 'Check the host and the port in SMTP_URL, and that this machine may connect out to that port (many hosts and networks block port 25, some 587).';
  } else if (/wrong version number|packet length too long|ssl3_get_record/i.test(message)) {
    what = `TLS failed at ${at}: ${secure ? 'the server does not speak TLS from the first byte on this port' : 'the server expected TLS from the first byte'}`;
    check = secure
      ? 'smtps:// is for port 465; for port 587 write smtp:// (the connection is then upgraded with STARTTLS).'
      : 'For port 465 write smtps://; smtp:// is for port 587 (STARTTLS).';
  } else if (/certificate|self[- ]signed|CERT_|UNABLE_TO_VERIFY/i.test(`${message} ${code}`)) {
    what = `the certificate of ${at} could not be verified (${message})`;
    check =
      'Check that the host in SMTP_URL is the name the provider gives (the certificate is issued for it), not an IP address or an alias.';
  } else if (code === 'ETLS') {
    what = `STARTTLS failed at ${at} (${message})`;
    check = 'Try smtps:// on port 465, or ask the provider which port and encryption to use.';
  } else {
    what = `the SMTP server ${at} could not be used (${describeError(error)})`;
    check = 'Check SMTP_URL: smtp://user:password@host:587, or smtps://user:password@host:465.';
  }
  return `${what}. ${check}`;
}
