import { startSmtpPeer } from './notification-peers.ts';

/**
 * A local SMTP server that prints every e-mail it receives, to try the
 * notifications without a mail account (docs/notifications.md):
 *
 *   npx tsx server/testing/local-smtp-server.ts [port]     (default 2525)
 *
 * then start the server with SMTP_URL=smtp://127.0.0.1:2525. It accepts any
 * login and writes nothing to disk.
 */

const port = Number(process.argv[2] ?? 2525);
let printed = 0;
const peer = await startSmtpPeer({ port });
console.log(`SMTP server on smtp://127.0.0.1:${peer.port}; stop with Ctrl+C.`);

setInterval(() => {
  for (const mail of peer.mails.slice(printed)) {
    console.log(
      [
        '',
        `--- e-mail ${(printed += 1)} ---`,
        `From:     ${mail.from}`,
        `To:       ${mail.to.join(', ')}`,
        `Reply-To: ${mail.parsed.replyTo?.map((address) => address.address).join(', ') ?? ''}`,
        `Subject:  ${mail.parsed.subject ?? ''}`,
        '',
        mail.parsed.text ?? '',
      ].join('\n'),
    );
  }
}, 200);

const stop = () => void peer.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
