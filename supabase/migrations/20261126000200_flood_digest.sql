-- The practice is not flooded either.
--
-- Requests that arrive above the site's hourly threshold are marked
-- booking_notifications.digest (20261126000000_booking_flood.sql). They are
-- never e-mailed one by one: the notifier (supabase/functions/_shared/notifications/flood-digests.ts)
-- gathers every one waiting into a flood digest, at most one every 15 minutes,
-- and sends it through every channel. Each digest is a row here, so that
-- several notifiers (two servers on one database, overlapping calls of the
-- Edge Function) send it once: a notifier opens a digest under an advisory
-- lock, which makes the others wait and then find it, and sends it under a
-- lease, as it sends a single notification. Once every channel has taken it,
-- its requests' notifications are complete.
--
-- On hosted Supabase the function is woken after each insert into the outbox
-- (20261124000000_notify_function_wake.sql). That call is now made when the
-- booking's transaction commits, and not for a request bound for the digest:
-- a flood must not call the function once per request. pg_cron's call every
-- minute (supabase/setup-notify.sql) sends the digests; a 'flood' alert wakes
-- the function at once, so the practice hears of the flood within seconds.

create table if not exists app_private.flood_digests (
  id bigint generated always as identity primary key,
  -- When it was opened: the next one may be opened 15 minutes later.
  created_at timestamptz not null default now(),
  -- The requests it carries. Ids rather than a column of the outbox, so that
  -- a backup restored without this table simply sends its waiting requests
  -- in a new digest.
  booking_ids uuid[] not null default '{}',
  -- Attempts started so far, including one in progress.
  attempts integer not null default 0
    constraint flood_digests_attempts_check check (attempts >= 0),
  -- When it is due: its next retry, or the end of the lease of the notifier sending it.
  next_attempt_at timestamptz not null default now(),
  claimed_by uuid,
  email_sent_at timestamptz,
  webhook_sent_at timestamptz,
  -- Set once every configured channel has taken it.
  completed_at timestamptz,
  last_error text
    constraint flood_digests_last_error_check check (char_length(last_error) <= 1000)
);

comment on table app_private.flood_digests is
  'Flood digests: the requests above the site''s hourly threshold, e-mailed together at most every 15 minutes, each digest sent once whatever the number of notifiers. Holds booking ids, nothing the visitors typed.';

alter table app_private.flood_digests enable row level security;
revoke all on app_private.flood_digests from public, anon, authenticated, service_role;

-- The requests waiting for a digest.
create index if not exists booking_notifications_digest_waiting_idx
  on app_private.booking_notifications (created_at)
  where digest and completed_at is null;

-- The notifications sent one by one: a flood waiting for its digest must not
-- slow down the claim of the next single notification.
drop index if exists app_private.booking_notifications_due_idx;
create index if not exists booking_notifications_due_one_by_one_idx
  on app_private.booking_notifications (next_attempt_at)
  where completed_at is null and not digest;

-- The wake-up of the Edge Function, at commit, when the notification is sent
-- on its own. The limits' trigger marks a notification for the digest after it
-- is inserted, in the same transaction, so the row is read again here rather
-- than taken from NEW, which is the row as inserted.
create or replace function app_private.wake_notify_function()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  -- Nested, so that NEW.booking_id is read only for an outbox row.
  if tg_table_name = 'booking_notifications' then
    if exists (
      select 1 from app_private.booking_notifications
      where booking_id = new.booking_id and digest
    ) then
      return null;
    end if;
  end if;
  perform app_private.request_notification_send();
  return null;
exception
  when others then
    raise warning 'Could not call the notify-bookings function: %', sqlerrm;
    return null;
end;
$$;

comment on function app_private.wake_notify_function() is
  'Calls the notify-bookings Edge Function when a notification to send on its own, or a flood alert, is committed; never fails the booking.';

revoke all on function app_private.wake_notify_function()
  from public, anon, authenticated, service_role;

drop trigger if exists booking_notifications_wake_function on app_private.booking_notifications;
create constraint trigger booking_notifications_wake_function
  after insert on app_private.booking_notifications
  deferrable initially deferred
  for each row
  execute function app_private.wake_notify_function();

drop trigger if exists booking_alerts_wake_function on app_private.booking_alerts;
create constraint trigger booking_alerts_wake_function
  after insert on app_private.booking_alerts
  deferrable initially deferred
  for each row
  when (new.kind = 'flood')
  execute function app_private.wake_notify_function();
