-- Keeps the practice from missing a request without knowing it.
--
-- - A notification still failing after a while (NOTIFY_ALERT_AFTER_MINUTES,
--   an hour by default) is reported to the practice once, through every
--   channel, as an alert of the new kind 'notification_failing'. The notifier
--   marks the notification (failure_reported_at) in the same transaction as it
--   adds the alert, so that two notifiers never report it twice. The alert's
--   details name the bookings by id and say which channels failed and why; they
--   hold nothing the visitor typed.
-- - An alert that no channel could take waits (next_attempt_at) before it is
--   tried again, instead of at every poll.
-- - The daily run (the retention purge, then the summary e-mail, the
--   "heartbeat") is recorded here, one row per UK day, so that several servers
--   or calls of the Edge Function do each day's once: the first to insert the
--   day's row does it; one whose summary could not be sent gives it back for a
--   later attempt.

alter table app_private.booking_alerts
  drop constraint if exists booking_alerts_kind_check;
alter table app_private.booking_alerts
  add constraint booking_alerts_kind_check
    check (kind in ('site_limit_reached', 'notification_failing'));

alter table app_private.booking_alerts
  add column if not exists details jsonb,
  add column if not exists next_attempt_at timestamptz not null default now();

comment on table app_private.booking_alerts is
  'Alerts for the practice (the site-wide limit reached, a notification failing for too long), each sent once by the notifier.';

alter table app_private.booking_notifications
  add column if not exists failure_reported_at timestamptz;

comment on column app_private.booking_notifications.failure_reported_at is
  'When the practice was told, by an alert, that this notification keeps failing.';

create table if not exists app_private.daily_runs (
  -- The UK calendar day of the run.
  day date primary key,
  -- When it may be attempted: the end of the lease of the process running it,
  -- or the time of the next attempt after the summary could not be sent.
  next_attempt_at timestamptz not null default now(),
  attempts integer not null default 0
    constraint daily_runs_attempts_check check (attempts >= 0),
  -- Set once the purge has run and the summary (if any) has been sent.
  done_at timestamptz,
  last_error text
    constraint daily_runs_last_error_check check (char_length(last_error) <= 1000)
);

comment on table app_private.daily_runs is
  'The daily run of each UK day (the retention purge and the summary e-mail): done once, whichever server or function call does it.';

alter table app_private.daily_runs enable row level security;
revoke all on app_private.daily_runs from public, anon, authenticated, service_role;

-- Hosted Supabase: the call that pg_cron makes for the daily summary
-- (supabase/setup-notify.sql): app_private.request_notification_send() with
-- the body {"task":"heartbeat"}; where pg_net or the secrets are missing it
-- calls nothing.
create or replace function app_private.request_daily_summary()
returns bigint
language sql
security definer
set search_path = ''
as $$
  select app_private.request_notification_send('{"task": "heartbeat"}'::jsonb)
$$;

comment on function app_private.request_daily_summary() is
  'Asks the notify-bookings Edge Function to send the daily summary if it is due, and to delete requests past their retention.';

revoke all on function app_private.request_daily_summary()
  from public, anon, authenticated, service_role;
