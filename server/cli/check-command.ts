import { existsSync } from 'node:fs';
import path from 'node:path';
import { ConfigError } from '../../supabase/functions/_shared/config.ts';
import { builtForAnotherSite } from '../built-site.ts';
import { describeError } from '../../supabase/functions/_shared/notifications/notifier.ts';
import {
  channelSettingsHint,
  type NotifyConfig,
} from '../../supabase/functions/_shared/notifications/notify-config.ts';
import { createChannels } from '../../supabase/functions/_shared/notifications/setup.ts';
import { RecipientsRefusedError } from '../../supabase/functions/_shared/notifications/channels.ts';
import { composeTestMessage } from '../../supabase/functions/_shared/notifications/test-message.ts';
import {
  DatabaseError,
  DatabaseRefusedError,
  DatabaseUnavailableError,
  type Database,
} from '../../supabase/functions/_shared/db/database.ts';
import { openPostgres } from '../../supabase/functions/_shared/db/postgres.ts';
import {
  appliedMigrations,
  awaitingPushRefusal,
  ownershipRemedy,
  supabasePushState,
} from '../db/migrate.ts';
import { checkApiRoles, DatabaseRoleError } from '../db/open-database.ts';
import { checkDataDirIsPrivate, formatMode, openMode } from '../db/private-data-dir.ts';
import { describeSmtpFailure } from '../notifications/smtp-check.ts';
import { retentionWarning } from '../../supabase/functions/_shared/retention/retention.ts';
import { ignoredSettings, loadSettings, type Settings } from '../settings.ts';
import {
  launchPlaceholders,
  shippedContent,
  type LaunchContent,
} from '../../src/content/launch-list.ts';
import { withDotEnv, type CliIo } from './cli-io.ts';

/**
 * `npx hijama check`: what would hurt a launch, each with what to do. It
 * reads the settings as the server does, sends one test message through each
 * channel (no booking is made), tries DATABASE_URL, and lists the placeholders and SAMPLE
 * reviews still in the content, a RETENTION the privacy notice does not say, the settings file open to others and a data folder the server
 * could not use. Exits 1 while any of them is left.
 */

interface Finding {
  ok: boolean;
  line: string;
}

/**
 * `content`: the practice's content as shipped, unless a test gives a copy
 * filled in.
 */
export async function check(io: CliIo, content: LaunchContent = shippedContent): Promise<number> {
  const env = withDotEnv(io);
  const findings: Finding[] = [];
  const fail = (line: string) => findings.push({ ok: false, line });
  const pass = (line: string) => findings.push({ ok: true, line });

  let settings: Settings | undefined;
  try {
    settings = loadSettings(env, io.cwd);
    pass('The settings are valid.');
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    error.problems.forEach(fail);
  }
  for (const warning of ignoredSettings(env)) fail(warning.replace(/^Warning: /, ''));
  // Off, too short to delete by, or longer than the privacy notice under the form says.
  const retentionProblem = settings && retentionWarning(settings.retention);
  if (retentionProblem) fail(retentionProblem.replace(/^Warning: /, ''));

  const envFileProblem = envFileOpenness(path.join(io.cwd, '.env'));
  if (envFileProblem) fail(envFileProblem);

  if (settings?.server.databaseUrl) findings.push(await checkDatabase(settings.server.databaseUrl));
  if (settings && !settings.server.databaseUrl) {
    const { dataDir } = settings.server;
    try {
      checkDataDirIsPrivate(dataDir);
      // Said as it is, so that a mistyped DATA_DIR shows here rather than as an empty database.
      pass(
        existsSync(dataDir)
          ? `The data directory ${dataDir} is private to this user.`
          : `The data directory ${dataDir} does not exist yet: the server makes it, private to its user, at its first start.`,
      );
    } catch (error) {
      if (error instanceof ConfigError) error.problems.forEach(fail);
      else fail(describeError(error));
    }
  }

  const placeholders = launchPlaceholders(env.SITE_URL, content);
  placeholders.forEach(fail);
  const stale = settings && builtForAnotherSite(settings.server.distDir, env.SITE_URL);
  if (stale) fail(stale);
  if (placeholders.length === 0)
    pass('No placeholder or SAMPLE review is left in the content, and SITE_URL is set.');

  if (settings?.notify) findings.push(...(await sendTests(settings.notify)));
  else if (settings) {
    fail(
      `No notification channel is configured, so no one would be told of booking requests: set ${channelSettingsHint}.`,
    );
  }

  const failed = findings.filter((finding) => !finding.ok).length;
  await io.out(findings.map(({ ok, line }) => `${ok ? 'ok  ' : 'FIX '} ${line}\n`).join(''));
  io.err(
    failed === 0
      ? 'Ready to go live.\n'
      : `${failed} thing${failed === 1 ? '' : 's'} to fix before going live (FIX above).\n`,
  );
  return failed === 0 ? 0 : 1;
}

/**
 * DATABASE_URL is tried, so that a mistyped one shows here rather than at the
 * server's start; and, once the server has made the tables, whether its user
 * may act as the visitors' role, which the server checks at start too; before,
 * whether it may make them, or must leave them to `supabase db push`.
 */
async function checkDatabase(url: string): Promise<Finding> {
  let db: Database | undefined;
  try {
    db = await openPostgres(url);
    // Made by the server's migrations, or by `supabase db push` (hosted Supabase).
    const recorded = await appliedMigrations(db);
    const push = await supabasePushState(db, recorded);
    const made = push === 'made' || (recorded ?? []).length > 0;
    if (made) await checkApiRoles(db);
    else if (push === 'awaited') {
      // The server would refuse to start on it, rather than make its tables there.
      return { ok: false, line: awaitingPushRefusal(db.description) };
    } else {
      const { rows } = await db.query<{ may: boolean; user: string; name: string }>(
        `select has_database_privilege(current_database(), 'CREATE')
                and has_schema_privilege('public', 'CREATE') as may,
                current_user as user, current_database() as name`,
      );
      const { may, user, name } = rows[0]!;
      if (!may) {
        return {
          ok: false,
          line: `DATABASE_URL's user ${user} may not make the server's tables in the database ${name}: make it the database's owner (${ownershipRemedy(user, name)}).`,
        };
      }
    }
    return {
      ok: true,
      line: `The database ${db.description} answers${made ? '' : ': the server makes its tables at its first start'}.`,
    };
  } catch (error) {
    if (error instanceof DatabaseRoleError || error instanceof DatabaseRefusedError) {
      return { ok: false, line: error.message };
    }
    // Out of reach, or refused: a wrong password, user or database name.
    if (!(error instanceof DatabaseUnavailableError || error instanceof DatabaseError)) {
      throw error;
    }
    return {
      ok: false,
      line: `${error instanceof DatabaseError ? 'DATABASE_URL: ' : ''}${describeError(error)}: check DATABASE_URL, and that the database is running.`,
    };
  } finally {
    await db?.close();
  }
}

/** The settings file holds the SMTP password and the keys: its user's alone. */
function envFileOpenness(file: string): string | undefined {
  const mode = openMode(file);
  if (mode === undefined) return undefined;
  return `${file} can be read by other users of this machine (permissions ${formatMode(mode)}), and it holds the SMTP password and the keys: run chmod 600 ${file}`;
}

/** One test message through each configured channel. */
async function sendTests(config: NotifyConfig): Promise<Finding[]> {
  const test = composeTestMessage(new Date());
  const channels = createChannels(config);
  try {
    return await Promise.all(
      channels.map(async (channel): Promise<Finding> => {
        const what =
          channel.name === 'email'
            ? `a test e-mail to NOTIFY_TO (${config.email!.to.join(', ')})`
            : `a test ${channel.name === 'ntfy' ? 'push' : 'webhook call'} (${channel.description})`;
        try {
          await channel.sendTest(test);
          return { ok: true, line: `Sent ${what}: check that it arrived.` };
        } catch (error) {
          const why =
            error instanceof RecipientsRefusedError
              ? `the mail server refused ${error.addresses.join(', ')}, which would never be told of a request: correct NOTIFY_TO.`
              : channel.name === 'email'
                ? describeSmtpFailure(error, config.email!.smtpUrl)
                : `${describeError(error)}.`;
          return { ok: false, line: `Could not send ${what}: ${why}` };
        }
      }),
    );
  } finally {
    for (const channel of channels) channel.close();
  }
}
