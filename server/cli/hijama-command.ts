import {
  channelSettingsHint,
  type NotifyConfig,
} from '../../supabase/functions/_shared/notifications/notify-config.ts';
import { shortReference } from '../../supabase/functions/_shared/core/booking-reference.ts';
import { BackupFileError, RestoreRefusedError } from '../db/backup.ts';
import {
  answerChannels,
  createBookingAnswers,
  isAnswerChannel,
  type AnswerChannel,
  type AnswerMarkedBy,
  type BookingAnswer,
} from '../../supabase/functions/_shared/db/booking-answers.ts';
import { createOwnerBookingsRepository } from '../../supabase/functions/_shared/db/bookings-repository.ts';
import type { Database } from '../../supabase/functions/_shared/db/database.ts';
import { plainMessage } from '../setup-errors.ts';
import { plainText } from '../../supabase/functions/_shared/notifications/email-html.ts';
import { createConfiguredNotifier } from '../../supabase/functions/_shared/notifications/setup.ts';
import {
  ambiguousUnit,
  describePeriod,
  parsePeriod,
  parseSince,
  periodBefore,
  periodUnitsHint,
} from '../../supabase/functions/_shared/retention/period.ts';
import { ignoredSettings, loadSettings } from '../settings.ts';
import { formatUkTimeLong } from '../../supabase/functions/_shared/uk-time.ts';
import { backup, restore } from './backup-command.ts';
import { check } from './check-command.ts';
import { checkDataDirOwner, DataDirNotPrivateError, openMode } from '../db/private-data-dir.ts';
import { withDotEnv, type CliIo } from './cli-io.ts';
import {
  formatCsv,
  formatFailingWarning,
  formatUnsentWarning,
  formatJson,
  formatTable,
  type BookingRecord,
} from './bookings-output.ts';
import {
  CliError,
  failingNotifications,
  listRequests,
  requireTable,
  withDatabase,
  type CommandDatabase,
  type ListQuery,
} from './bookings-source.ts';
import { isLate } from '../../supabase/functions/_shared/notifications/booking-notice.ts';
import { plural } from '../../supabase/functions/_shared/notifications/message-lists.ts';
import { parseRequestReference, type RequestReference } from './request-reference.ts';
import { parseCommandLine, UsageError, type CommandLine, type Values } from './command-line.ts';
import { helpText } from './help-text.ts';
import { flagsKeptByNpm } from './npm-flags.ts';

/**
 * `npx hijama`: lists, exports and purges booking requests, marks them
 * answered, runs the notifier
 * on its own (for a database no server of this project runs on), and backs up
 * and restores the database. Reads the same environment and .env as the
 * server. The process itself (arguments, streams, signals, terminal, exit code)
 * is hijama.ts; this module only sees `CliIo`.
 */

const defaultLimit = 100;

/** How many of the requests a purge would delete it shows before asking. */
const purgePreviewRows = 20;

/** Runs one command; resolves with its exit code: 0 done, 1 failed or refused (explained on `err`), 2 misused. */
export async function runHijama(args: string[], io: CliIo): Promise<number> {
  const kept = flagsKeptByNpm(args, io.env);
  if (kept) {
    io.err(kept);
    return 2;
  }
  try {
    const commandLine = parseCommandLine(args);
    if (commandLine.kind === 'run') return await run(commandLine, io);
    await io.out(helpText(commandLine.command));
    return 0;
  } catch (error) {
    const message = plainMessage(error, commandErrors);
    if (message === undefined) throw error;
    io.err(`${message}\n`);
    return error instanceof UsageError ? 2 : 1;
  }
}

/** The command's own errors, explained by their message as the set-up's are. */
const commandErrors = [UsageError, CliError, BackupFileError, RestoreRefusedError];

async function run(
  { command, values, argument }: Extract<CommandLine, { kind: 'run' }>,
  io: CliIo,
): Promise<number> {
  const now = new Date();
  // The arguments are checked before the settings are read, so a mistake in them is reported first.
  const since = readSince(values, now);
  const limit = command === 'list' ? readLimit(values) : undefined;
  const purgeRequest = command === 'purge' ? readPurge(values, now) : undefined;
  const answerRequest = command === 'answer' ? readAnswer(argument!, values) : undefined;
  const deleteReference = command === 'delete' ? readReference(command, argument!) : undefined;
  if (values.csv && values.json) throw new UsageError('Choose one of --csv and --json.');
  if (command === 'check') return check(io);
  const env = withDotEnv(io);
  const settings = loadSettings(env, io.cwd);
  // As the server says them at its start: a restore into ./data because DATABSE_URL was misspelt is no slip to keep quiet.
  for (const warning of ignoredSettings(env)) io.err(`${warning}\n`);
  if (!settings.server.databaseUrl) warnOfDataDir(io, settings.server.dataDir);
  const using = (use: (opened: CommandDatabase) => Promise<number>) =>
    withDatabase(settings.server, use);
  switch (command) {
    case 'list':
    case 'export': {
      const waiting = values.waiting === true;
      const oldestFirst = waiting || command === 'export';
      const format = values.json ? 'json' : values.csv || command === 'export' ? 'csv' : 'table';
      return using((opened) =>
        list(io, opened, { since, limit, oldestFirst, waiting }, format, now),
      );
    }
    case 'answer':
      return using((opened) => answer(io, opened, answerRequest!));
    case 'purge':
      return using((opened) => purge(io, opened, purgeRequest!));
    case 'delete':
      return using((opened) => deleteRequest(io, opened, deleteReference!, values.yes === true));
    case 'notify': {
      const config = settings.notify;
      if (!config) {
        throw new CliError(`No notification channel is configured: set ${channelSettingsHint}.`);
      }
      return using(async ({ db, throughServer }) => {
        if (throughServer) {
          throw new CliError(
            `A server is running on ${settings.server.dataDir}: it sends the notifications itself.`,
          );
        }
        return notify(io, db, config, values.once === true);
      });
    }
    case 'backup':
      return backup(io, settings, argument!);
    case 'restore':
      return restore(io, settings, argument!);
  }
}

function readSince(values: Values, now: Date): Date | undefined {
  if (values.since === undefined) return undefined;
  const ambiguous = ambiguousUnit(values.since, true);
  if (ambiguous) throw new UsageError(`--since ${ambiguous}`);
  const since = parseSinceArgument(values.since, now);
  if (!since) {
    throw new UsageError(
      `--since takes a number of minutes, hours, days, weeks, months or years (15min, 12h, 7d, 2w, 6mo, 1y), a day (23/11/2026 or 2026-11-23), or a date and time with its offset (2026-11-23T09:00:00Z), not "${values.since}".`,
    );
  }
  return since;
}

/**
 * `--since` also takes minutes, as `min` (`--since 15min`, the last minutes of
 * a flood); a bare `m` is refused as ambiguous (readSince); the rest is
 * parseSince's.
 */
function parseSinceArgument(text: string, now: Date): Date | undefined {
  const match = /^(\d{1,5})\s*min$/i.exec(text.trim());
  if (!match) return parseSince(text, now);
  const count = Number(match[1]);
  return count === 0 ? undefined : new Date(now.getTime() - count * 60_000);
}

function readLimit(values: Values): number | undefined {
  if (values.limit === undefined) return defaultLimit;
  if (values.limit === 'all') return undefined;
  if (/^\d{1,9}$/.test(values.limit) && Number(values.limit) > 0) return Number(values.limit);
  throw new UsageError(`--limit takes a whole number above 0, or all, not "${values.limit}".`);
}

/**
 * Another user's data directory is refused, as the server refuses it; one
 * open to others is only warned of, since the command may be how the
 * practice gets its data out of it.
 */
function warnOfDataDir(io: CliIo, dataDir: string) {
  checkDataDirOwner(dataDir);
  const mode = openMode(dataDir);
  if (mode !== undefined) {
    io.err(`Warning: ${new DataDirNotPrivateError(dataDir, mode).message}\n`);
  }
}

async function list(
  io: CliIo,
  { db, description }: CommandDatabase,
  /** `waiting`: only the requests not yet answered. */
  query: ListQuery & { waiting: boolean },
  format: 'table' | 'csv' | 'json',
  now: Date,
): Promise<number> {
  // Whether a request was answered is known only beside it: every request of
  // the period is read, and the waiting ones kept.
  if (query.waiting) await requireTable(db, 'app_private.booking_answers');
  // One more than the limit, to tell a list cut short from one that is whole.
  const read = query.limit === undefined ? undefined : query.limit + 1;
  const found = query.waiting
    ? (await listRequests(db, { since: query.since, oldestFirst: true }))
        .filter((record) => record.answer === null)
        .slice(0, read)
    : await listRequests(db, { ...query, limit: read });
  const records = found.slice(0, query.limit);
  const failing = await failingNotifications(db);
  if (format === 'csv') await io.out(formatCsv(records));
  else if (format === 'json') await io.out(formatJson(records));
  else {
    await io.out(formatTable(records, failing, now));
    const scope = query.since ? ` since ${formatUkTimeLong(query.since)}` : '';
    const more =
      found.length > records.length
        ? ` (the ${query.limit} ${query.oldestFirst ? 'oldest' : 'most recent'}; --limit all shows every one)`
        : '';
    const late = records.filter((record) => isLate(new Date(record.created_at), now)).length;
    const what = query.waiting
      ? `${plural(records.length, 'request')} waiting for a reply${late > 0 ? ` (${late} late)` : ''}`
      : plural(records.length, 'request');
    io.err(`${what}${scope}${more}, from ${description}.\n`);
  }
  for (const warning of [formatFailingWarning(failing), formatUnsentWarning(records, now)]) {
    if (warning) io.err(`${warning}\n`);
  }
  return 0;
}

function readReference(command: 'answer' | 'delete', typed: string): RequestReference {
  const reference = parseRequestReference(typed);
  if (!reference) {
    throw new UsageError(
      `${command} takes a request's reference, the 8 characters the e-mail and npx hijama list show (e.g. 1A2B3C4D), or its full id, not "${typed}".`,
    );
  }
  return reference;
}

function readAnswer(typed: string, values: Values) {
  const reference = readReference('answer', typed);
  if (values.undo && values.by !== undefined) {
    throw new UsageError('Choose one of --by and --undo.');
  }
  const channel = values.by?.trim().toLowerCase();
  if (channel !== undefined && !isAnswerChannel(channel)) {
    throw new UsageError(`--by takes one of ${answerChannels.join(', ')}, not "${values.by}".`);
  }
  return { reference, channel: channel ?? null, undo: values.undo === true };
}

/** "by Instagram message" and the like, for the sentence that says how a request was answered. */
const channelWords: Record<AnswerChannel, string> = {
  email: 'by e-mail',
  instagram: 'by Instagram message',
  phone: 'by phone',
  whatsapp: 'by WhatsApp',
  sms: 'by text message',
  other: 'another way',
};

const markedWords: Record<AnswerMarkedBy, string> = {
  link: 'marked from the link in its e-mail',
  command: 'marked with npx hijama answer',
  restore: 'taken as answered: restored from a backup of release 1.0.0, which kept no answers',
};

/** "Tuesday 24 November 2026, 13:05 GMT (by e-mail, marked with npx hijama answer)": when, how if said, and who marked it. */
function describeAnswer(answer: BookingAnswer): string {
  const how = answer.channel ? `${channelWords[answer.channel]}, ` : '';
  return `${formatUkTimeLong(answer.answeredAt)} (${how}${markedWords[answer.markedBy]})`;
}

/** The one request of a reference; a CliError when there is none, or several to choose from. */
async function findOneRequest(
  { db, description }: CommandDatabase,
  reference: RequestReference,
  command: 'answer' | 'delete',
): Promise<BookingRecord> {
  const found = await listRequests(db, { ids: reference, oldestFirst: true });
  if (found.length === 0) {
    throw new CliError(
      `No booking request has the ${reference.kind} ${reference.shown} in ${description}. ` +
        'Check it against the e-mail; npx hijama list shows the references of the requests stored.',
    );
  }
  if (found.length > 1) {
    throw new CliError(
      [
        `${found.length} booking requests have the reference ${reference.shown}:`,
        ...found.map(
          (record) =>
            `  ${record.id}  received ${formatUkTimeLong(new Date(record.created_at))}, from ${plainText(record.full_name)}`,
        ),
        // No id filled in: the one to act on is the practitioner's to choose, by name and time.
        `Give the full id of the one ${command === 'answer' ? 'you answered' : 'to delete'}: npx hijama ${command} <full id>`,
      ].join('\n'),
    );
  }
  return found[0]!;
}

/** "5F0C2A8E from Amina Khan". */
function describeRequest(request: BookingRecord): string {
  return `${shortReference(request.id)} from ${plainText(request.full_name)}`;
}

async function answer(
  io: CliIo,
  opened: CommandDatabase,
  { reference, channel, undo }: ReturnType<typeof readAnswer>,
): Promise<number> {
  const request = await findOneRequest(opened, reference, 'answer');
  await requireTable(opened.db, 'app_private.booking_answers');
  const answers = createBookingAnswers(opened.db);
  const name = describeRequest(request);
  const result = undo
    ? await answers.unmarkById(request.id)
    : await answers.markById(request.id, channel);
  if (result.outcome === 'not found') {
    throw new CliError(
      `Booking request ${name} was deleted meanwhile: nothing to ${undo ? 'undo' : 'mark'}.`,
    );
  }
  if (result.outcome === 'not answered') {
    await io.out(`Booking request ${name} was not marked answered: nothing changed.\n`);
    return 0;
  }
  const answered = describeAnswer(result.answer);
  await io.out(
    {
      unmarked: `Booking request ${name} is waiting for a reply again: its mark of ${answered} is taken back.\n`,
      marked: `Booking request ${name}, received ${formatUkTimeLong(new Date(request.created_at))}, marked answered on ${answered}.\n`,
      'already answered': `Booking request ${name} was already answered on ${answered}: nothing changed.\n`,
    }[result.outcome],
  );
  return 0;
}

/** What goes with a request when it is deleted, for the command to say before and after. */
const deletedWithIt =
  'its notification, answer, reminder and acknowledgement records, and its id in flood digests and alerts';

async function deleteRequest(
  io: CliIo,
  opened: CommandDatabase,
  reference: RequestReference,
  confirmed: boolean,
): Promise<number> {
  const request = await findOneRequest(opened, reference, 'delete');
  if (!confirmed) {
    await io.out(
      `This booking request, from ${opened.description}:\n\n${formatTable([request])}\n` +
        `Deleting it also deletes ${deletedWithIt}.\n` +
        `Nothing deleted. To delete it: npx hijama delete ${request.id} --yes\n`,
    );
    return 0;
  }
  const ids = { from: request.id, to: request.id };
  const name = describeRequest(request);
  if ((await createOwnerBookingsRepository(opened.db).delete({ ids })) === 0) {
    throw new CliError(`Booking request ${name} was deleted meanwhile: nothing to delete.`);
  }
  await io.out(`Deleted booking request ${name}, with ${deletedWithIt}.\n`);
  return 0;
}

/** `olderThan` as typed, for the command line to repeat; `when`: "older than 12 months (received before …)". */
function readPurge(values: Values, now: Date) {
  const olderThan = values['older-than'];
  if (olderThan === undefined) {
    throw new UsageError('purge needs --older-than, e.g. npx hijama purge --older-than 12mo.');
  }
  const ambiguous = ambiguousUnit(olderThan);
  if (ambiguous) throw new UsageError(`--older-than ${ambiguous}`);
  const period = parsePeriod(olderThan);
  if (!period) {
    throw new UsageError(
      `--older-than takes a number followed by ${periodUnitsHint}, not "${olderThan}".`,
    );
  }
  if (values.yes && values['dry-run']) throw new UsageError('Choose one of --yes and --dry-run.');
  const cutoff = periodBefore(now, period);
  return {
    olderThan,
    cutoff,
    when: `older than ${describePeriod(period)} (received before ${formatUkTimeLong(cutoff)})`,
    confirmed: values.yes === true,
    dryRun: values['dry-run'] === true,
  };
}

async function purge(
  io: CliIo,
  { db, description }: CommandDatabase,
  { olderThan, cutoff, when, confirmed, dryRun }: ReturnType<typeof readPurge>,
): Promise<number> {
  const bookings = createOwnerBookingsRepository(db);
  const count = await bookings.count({ before: cutoff });
  if (count === 0) {
    await io.out(`No booking requests ${when}: nothing to delete.\n`);
    return 0;
  }
  const requests = plural(count, 'booking request');
  // Shown only to someone deciding: from cron (--yes, or no terminal to ask on) the
  // output goes to a mail or a log, which would keep the erased requests' names.
  if (dryRun || (!confirmed && io.ask)) {
    const shown = await listRequests(db, {
      before: cutoff,
      limit: purgePreviewRows,
      oldestFirst: false,
    });
    await io.out(
      `${requests} ${when}, from ${description}:\n\n${formatTable(shown)}` +
        (count > shown.length ? `…and ${count - shown.length} older.\n` : ''),
    );
  } else {
    await io.out(`${requests} ${when}, from ${description}.\n`);
  }
  if (dryRun) {
    await io.out('\nNothing deleted (--dry-run).\n');
    return 0;
  }
  if (!confirmed) {
    if (!io.ask) {
      io.err(
        `\nNothing deleted: there is no terminal to confirm on, and purge deletes only when confirmed. ` +
          `Add --yes to delete them: npx hijama purge --older-than ${olderThan} --yes\n`,
      );
      return 1;
    }
    const these = count === 1 ? 'it' : `these ${requests}`;
    const answer = await io.ask(`\nType "delete" to delete ${these}: `);
    if (answer.trim().toLowerCase() !== 'delete') {
      io.err('Nothing deleted.\n');
      return 1;
    }
  }
  const deleted = await bookings.delete({ before: cutoff });
  await io.out(`\nDeleted ${plural(deleted, 'booking request')} ${when}.\n`);
  return 0;
}

async function notify(
  io: CliIo,
  db: Database,
  config: NotifyConfig,
  once: boolean,
): Promise<number> {
  await requireTable(db, 'app_private.messages');
  const log = {
    info: (message: string) => void io.out(`${message}\n`),
    error: (message: string) => io.err(`${message}\n`),
  };
  const { notifier, channels } = createConfiguredNotifier(db, config, log);
  const by = channels.map((channel) => channel.description).join(' and ');
  if (once) {
    const report = await notifier.runOnce();
    await notifier.stop();
    await io.out(
      `Sent ${plural(report.sent, 'notification')} by ${by}` +
        (report.failed > 0 ? `; ${report.failed} failed and will be retried.\n` : '.\n'),
    );
    return report.failed > 0 ? 1 : 0;
  }
  await io.out(`Sending the notifications of ${db.description} by ${by}; stop with Ctrl+C.\n`);
  notifier.start();
  const signal = await io.untilStopped();
  await io.out(`Stopping after ${signal}.\n`);
  await notifier.stop();
  return 0;
}
