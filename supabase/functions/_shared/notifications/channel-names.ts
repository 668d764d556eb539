/**
 * The notification channels, by the name the database knows them by: each has
 * a `<name>_sent_at` column in app_private.messages, recording its success on
 * its own. Every list of
 * channels in the code and the queries is derived from this one.
 */
export const channelNames = ['email', 'webhook', 'ntfy'] as const;

export type ChannelName = (typeof channelNames)[number];

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
