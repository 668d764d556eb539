-- Hosted Supabase only: has the database call the notify-bookings Edge Function
-- after every booking request and every minute (for retries, and for the flood
-- digest, at most one every 15 minutes, of the requests above the site's hourly
-- threshold, which do not call the function one by one), and every five
-- minutes for the daily run (the retention purge and the daily summary, which
-- the function does once a day, once the UK clock reaches its time). Run it once,
-- after the migrations, the function's secrets and its deployment; the steps
-- are in docs/notifications.md. Running it again changes nothing.
--
-- It reads the function's address and secret from Supabase Vault, under these
-- names, which must be stored first (in the same psql command or the SQL
-- editor, never in a file of the repository):
--
--   select vault.create_secret('https://<project-ref>.supabase.co/functions/v1/notify-bookings', 'notify_bookings_url');
--   select vault.create_secret('<the function''s NOTIFY_FUNCTION_SECRET>', 'notify_bookings_secret');
--
-- The calls themselves are app_private.request_notification_send(), from the
-- migration 20261201000300_hosted_wake.sql, and
-- app_private.request_daily_summary(), from the same file.

create extension if not exists pg_net with schema extensions;
create extension if not exists pg_cron with schema pg_catalog;
grant usage on schema cron to postgres;
grant all privileges on all tables in schema cron to postgres;

do $$
begin
  if (
    select count(distinct name) from vault.decrypted_secrets
    where name in ('notify_bookings_url', 'notify_bookings_secret') and trim(decrypted_secret) <> ''
  ) < 2 then
    raise exception 'The Vault secrets notify_bookings_url and notify_bookings_secret are missing or empty'
      using hint = 'Store them with vault.create_secret first (see the top of supabase/setup-notify.sql). '
        'An empty one (a new shell, where $secret was unset) is mended with vault.update_secret, '
        'the secret the same as the function''s NOTIFY_FUNCTION_SECRET (docs/notifications.md, "A new secret").';
  end if;
end
$$;

-- Every minute, for notifications whose retry is due and for the flood digest
-- (20261201000200_notifications.sql), which the function sends once 15 minutes
-- have passed since the last. A job of that name is replaced.
select cron.schedule(
  'notify-bookings',
  '* * * * *',
  'select app_private.request_notification_send()'
);

-- Every five minutes, {"task": "heartbeat"}: pg_cron's times are UTC, so the
-- function itself decides, in UK time, when the day's run is due (07:00 by
-- default, NOTIFY_DAILY_SUMMARY_AT), and the database that it happens once.
select cron.schedule(
  'notify-bookings-daily',
  '*/5 * * * *',
  'select app_private.request_daily_summary()'
);

-- pg_cron keeps a row of every run in cron.job_run_details (about 1,700 a day
-- for the two jobs above) and never deletes them, so that a free project's
-- 500 MB would fill with them in a few years and stop taking bookings. Once a
-- day, the runs older than a week go, those that never ended (a crash) included.
select cron.schedule(
  'notify-bookings-history',
  '17 3 * * *',
  $$delete from cron.job_run_details
    where coalesce(end_time, start_time) < now() - interval '7 days'$$
);

-- One call now. Its answer, e.g. {"sent":0,"failed":0,"pending":0}, is in
-- net._http_response a few seconds later:
--   select status_code, content from net._http_response order by id desc limit 1;
select app_private.request_notification_send() as request_id;
