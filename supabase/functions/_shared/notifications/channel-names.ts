/**
 * The notification channels, by the name the database knows them by: each has
 * a `<name>_sent_at` column in app_private.messages, recording its success on
 * its own. Every list of
 * channels in the code and the queries is derived from this one.
 */
export const channelNames = ['email', 'webhook', 'ntfy'] as const;

export type ChannelName = (typeof channelNames)[number];

/** How a channel reaches the practice, in a sentence: "not reached you by e-mail". */
export const channelWords: Record<ChannelName, string> = {
  email: 'by e-mail',
  webhook: 'through the webhook',
  ntfy: 'by ntfy push',
};

/**
 * Whether some channel has taken the request: the practice was told, even
 * when another channel keeps failing (`partly`, not the alarm of `FAILING`).
 */
export function reachedThePractice(reachedBy: readonly ChannelName[]): boolean {
  return reachedBy.length > 0;
}

/** "by e-mail and by ntfy push". */
export function reachedWords(channels: readonly ChannelName[]): string {
  return channels.map((channel) => channelWords[channel]).join(' and ');
}

/**
 * ", reached you by e-mail" after a failing notification that a channel took
 * (the practice was told; another channel fails), or nothing.
 */
export function reachedYou(channels: readonly ChannelName[]): string {
  return reachedThePractice(channels) ? `, reached you ${reachedWords(channels)}` : '';
}

/** The column that records the channel's success: `email_sent_at`. */
export function sentAtColumn(channel: ChannelName): string {
  return `${channel}_sent_at`;
}

/**
 * Select-list entries saying whether each channel has taken the row:
 * `n.email_sent_at is not null as email_sent, …`, read back by `sentChannels`.
 */
export function sentFlagsSql(alias?: string): string {
  const prefix = alias === undefined ? '' : `${alias}.`;
  return channelNames
    .map((channel) => `${prefix}${sentAtColumn(channel)} is not null as ${channel}_sent`)
    .join(', ');
}

/** The channels that have taken a row selected with `sentFlagsSql`. */
export function sentChannels(row: object): Set<ChannelName> {
  const flags = row as Record<string, unknown>;
  return new Set(channelNames.filter((channel) => flags[`${channel}_sent`] === true));
}
