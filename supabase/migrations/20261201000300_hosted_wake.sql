-- Wakes the notify-bookings Edge Function (supabase/functions/notify-bookings)
-- as soon as a booking request adds its notification to the outbox, so that on
-- hosted Supabase, where nothing of this project runs, the practice hears of a
-- request within seconds.
--
-- The call is pg_net's net.http_post, as Supabase's database webhooks make it:
-- queued in the booking's transaction and sent once that commits, so the
-- function finds the notification. The function's address and secret are read
-- from Supabase Vault (supabase/setup-notify.sql explains how to store them):
-- no secret is in this file. The same function is what the every-minute pg_cron
-- job of supabase/setup-notify.sql calls, for retries and for the flood
-- digests; it is not called for a request bound for the digest (a flood must
-- not call the function once per request), and a 'flood' alert wakes it at
-- once, so the practice hears of the flood within seconds.
--
-- Where pg_net or the Vault secrets are missing (PGlite, plain PostgreSQL, a
-- Supabase project not set up for the function) nothing is called; there the
-- project's server or `npm run notify` sends the notifications. A failed call
-- never fails a booking: its notification waits in the outbox for the next call.

create function app_private.request_notification_send(body jsonb default '{}'::jsonb)
returns bigint
language plpgsql
security definer
set search_path = ''
as $$
declare
  function_url text;
  function_secret text;
begin
  if to_regprocedure('net.http_post(text, jsonb, jsonb, jsonb, integer)') is null
    or to_regclass('vault.decrypted_secrets') is null then
    return null;
  end if;
  select
    max(decrypted_secret) filter (where name = 'notify_bookings_url'),
    max(decrypted_secret) filter (where name = 'notify_bookings_secret')
  into function_url, function_secret
  from vault.decrypted_secrets
  where name in ('notify_bookings_url', 'notify_bookings_secret');
  if function_url is null or function_secret is null then
    return null;
  end if;
  return net.http_post(
    url := function_url,
    body := body,
    headers := jsonb_build_object(
      'Content-Type', 'application/json',
      'Authorization', 'Bearer ' || function_secret
    ),
    -- Long enough for a run that sends several notifications; pg_net waits
    -- without holding the database.
    timeout_milliseconds := 120000
  );
end;
$$;

comment on function app_private.request_notification_send(jsonb) is
  'Calls the notify-bookings Edge Function with `body` (pg_net, address and secret from Vault); {} sends what is due. Returns the pg_net request id, or null where it cannot call.';

revoke all on function app_private.request_notification_send(jsonb)
  from public, anon, authenticated, service_role;

-- The wake-up of the Edge Function, at commit, when the notification is sent
-- on its own. The limits' trigger marks a notification for the digest after it
-- is inserted, in the same transaction, so the row is read again here rather
-- than taken from NEW, which is the row as inserted.
create function app_private.wake_notify_function()
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

create constraint trigger booking_notifications_wake_function
  after insert on app_private.booking_notifications
  deferrable initially deferred
  for each row
  execute function app_private.wake_notify_function();

create constraint trigger booking_alerts_wake_function
  after insert on app_private.booking_alerts
  deferrable initially deferred
  for each row
  when (new.kind = 'flood')
  execute function app_private.wake_notify_function();

-- Hosted Supabase: the call that pg_cron makes for the daily summary
-- (supabase/setup-notify.sql): app_private.request_notification_send() with
-- the body {"task":"heartbeat"}; where pg_net or the secrets are missing it
-- calls nothing.
create function app_private.request_daily_summary()
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
