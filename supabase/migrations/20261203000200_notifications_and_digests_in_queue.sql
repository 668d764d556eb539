-- The notifications of requests and the flood digests in the one queue of
-- messages.
--
-- A request's notification is a message of kind `notification` of
-- app_private.messages (20261203000000_one_message_queue.sql), added by the
-- same trigger in the booking's transaction; a request above the site's
-- hourly threshold has it marked `in_digest` and waits for a message of kind
-- `flood_digest`, which carries the ids of its requests (booking_ids). The
-- rows of app_private.booking_notifications and app_private.flood_digests move
-- into it as they stood, each channel's success kept, and those tables go:
-- after this the queue is the only one.

create function app_private.messages_from_booking_notifications(notifications jsonb)
returns void
language sql
set search_path = ''
as $$
  insert into app_private.messages
      (kind, booking_id, created_at, attempts, next_attempt_at, claimed_by, email_sent_at,
       webhook_sent_at, ntfy_sent_at, done_at, outcome, last_error, failure_reported_at, in_digest)
    select 'notification', n.booking_id, n.created_at, n.attempts, n.next_attempt_at,
           n.claimed_by, n.email_sent_at, n.webhook_sent_at, n.ntfy_sent_at, n.completed_at,
           case when n.completed_at is not null then 'sent' end, n.last_error,
           n.failure_reported_at, n.digest
      from jsonb_to_recordset(notifications) as n(
        booking_id uuid, created_at timestamptz, attempts integer, next_attempt_at timestamptz,
        claimed_by uuid, email_sent_at timestamptz, webhook_sent_at timestamptz,
        ntfy_sent_at timestamptz, completed_at timestamptz, last_error text,
        failure_reported_at timestamptz, digest boolean)
     order by n.created_at, n.booking_id
$$;

create function app_private.messages_from_flood_digests(digests jsonb)
returns void
language sql
set search_path = ''
as $$
  insert into app_private.messages
      (kind, booking_ids, created_at, attempts, next_attempt_at, claimed_by, email_sent_at,
       webhook_sent_at, ntfy_sent_at, done_at, outcome, last_error)
    select 'flood_digest', d.booking_ids, d.created_at, d.attempts, d.next_attempt_at,
           d.claimed_by, d.email_sent_at, d.webhook_sent_at, d.ntfy_sent_at, d.completed_at,
           case when d.completed_at is not null then 'sent' end, d.last_error
      from jsonb_to_recordset(digests) as d(
        id bigint, created_at timestamptz, booking_ids uuid[], attempts integer,
        next_attempt_at timestamptz, claimed_by uuid, email_sent_at timestamptz,
        webhook_sent_at timestamptz, completed_at timestamptz, last_error text,
        ntfy_sent_at timestamptz)
     order by d.id
$$;

revoke all on function app_private.messages_from_booking_notifications(jsonb)
  from public, anon, authenticated, service_role;
revoke all on function app_private.messages_from_flood_digests(jsonb)
  from public, anon, authenticated, service_role;

-- Moved without waking the Edge Function for each of them: what waits is
-- sent at its next call.
alter table app_private.messages disable trigger messages_wake_function;
select app_private.messages_from_booking_notifications(
  (select coalesce(jsonb_agg(n), '[]') from app_private.booking_notifications n));
select app_private.messages_from_flood_digests(
  (select coalesce(jsonb_agg(d), '[]') from app_private.flood_digests d));
alter table app_private.messages enable trigger messages_wake_function;

drop table app_private.booking_notifications;
drop table app_private.flood_digests;

-- The requests waiting for a digest.
create index messages_in_digest_idx
  on app_private.messages (created_at) where in_digest and done_at is null;

create or replace function app_private.enqueue_booking_notification()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into app_private.messages (kind, booking_id) values ('notification', new.id);
  return null;
end;
$$;

create or replace function app_private.note_flood(request uuid, threshold integer)
returns void
language plpgsql
set search_path = ''
as $$
begin
  update app_private.messages set in_digest = true
   where kind = 'notification' and booking_id = request;
  insert into app_private.messages (kind, details)
    select 'flood', jsonb_build_object('threshold', threshold)
     where not exists (
       select 1 from app_private.messages
        where kind = 'flood' and created_at > now() - interval '1 hour');
end;
$$;

create or replace function app_private.is_flood_request(request uuid)
returns boolean
language sql
stable
set search_path = ''
as $$
  select exists (
    select 1 from app_private.messages m
     where m.kind = 'notification' and m.booking_id = request and m.in_digest)
$$;

-- The wake-up of the Edge Function (20261201000300_hosted_wake.sql), at
-- commit, for a notification sent on its own: the limits' trigger marks one
-- for the digest after it is inserted, so the row is read again here.
create or replace function app_private.wake_notify_function()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if new.kind = 'notification' and exists (
    select 1 from app_private.messages where id = new.id and in_digest
  ) then
    return null;
  end if;
  perform app_private.request_notification_send();
  return null;
exception
  when others then
    raise warning 'Could not call the notify-bookings function: %', sqlerrm;
    return null;
end;
$$;

drop trigger messages_wake_function on app_private.messages;
create constraint trigger messages_wake_function
  after insert on app_private.messages
  deferrable initially deferred
  for each row
  when (new.kind in ('notification', 'flood', 'no_client_address'))
  execute function app_private.wake_notify_function();

-- As in 20261203000000_one_message_queue.sql, with the digests in the queue.
create or replace function app_private.forget_deleted_bookings()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  gone uuid[];
begin
  select coalesce(array_agg(erased.id), '{}') into gone from erased;
  update app_private.messages m
     set booking_ids = array(select id from unnest(m.booking_ids) as id where id <> all (gone))
   where m.kind = 'flood_digest' and m.booking_ids && gone;
  -- An alert about one of them alone goes; one about several keeps the others.
  delete from app_private.messages m
   where m.kind = 'acknowledgement_refused' and (m.details ->> 'booking_id')::uuid = any (gone);
  update app_private.messages m
     set details = jsonb_set(m.details, '{notifications}', coalesce(
           (select jsonb_agg(n) from jsonb_array_elements(m.details -> 'notifications') n
             where (n ->> 'booking_id')::uuid <> all (gone)), '[]'::jsonb))
   where m.kind = 'notification_failing'
     and exists (select 1 from jsonb_array_elements(m.details -> 'notifications') n
                  where (n ->> 'booking_id')::uuid = any (gone));
  delete from app_private.messages m
   where m.kind = 'notification_failing' and m.details -> 'notifications' = '[]'::jsonb;
  return null;
end;
$$;
