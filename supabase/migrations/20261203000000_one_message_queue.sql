-- One queue for every message the notifier sends.
--
-- Until now each kind of message had a table of its own with the same lease
-- and retry columns, and its own copy of the code that claims, retries and
-- gives up. app_private.messages is the one table: a row per message, its kind
-- saying what it is about (a booking, the bookings of a flood digest, a UK day,
-- or the details of an alert), claimed under a lease by one notifier at a time
-- (claimed_by, next_attempt_at), retried with the last error kept, each
-- channel's success recorded on its own, and settled once (done_at, outcome).
-- One module claims and settles every kind
-- (supabase/functions/_shared/notifications/message-queue.ts).
--
-- This migration moves the rows of the six tables before it (booking_alerts,
-- daily_runs, booking_reminders, booking_acknowledgements,
-- booking_notifications, flood_digests) into it as they stood: sent stays sent,
-- waiting stays waiting, and those tables go. The move of each is a function of its rows
-- as JSON, so that `npx hijama restore` moves the rows of a backup that holds
-- the old table in the same way, into a schema that no longer has it
-- (server/db/backup.ts, legacyQueueTables).

create table app_private.messages (
  id bigint generated always as identity primary key,
  -- The alerts for the practice (flood, no_client_address,
  -- notification_failing, acknowledgement_refused), the daily run of a UK day
  -- (the retention purge and the summary), and the messages about bookings.
  kind text not null
    constraint messages_kind_check check (kind in (
      'flood', 'no_client_address', 'notification_failing', 'acknowledgement_refused',
      'daily_run', 'notification', 'flood_digest', 'reminder', 'acknowledgement')),
  -- The one request it is about: a request's notification, reminder or acknowledgement.
  booking_id uuid references public.bookings (id) on delete cascade,
  -- The requests a flood digest carries; ids, not a foreign key, as a digest is
  -- sent once for many (app_private.forget_deleted_bookings keeps it current).
  booking_ids uuid[],
  -- The UK day of a daily run.
  day date,
  -- What an alert says: no personal data, only booking ids and counts.
  details jsonb,
  -- A request's notification bound for the flood digest, not sent on its own.
  in_digest boolean not null default false,
  -- When the practice was told, by an alert, that this notification keeps failing.
  failure_reported_at timestamptz,
  -- An acknowledgement's address as a keyed hash (HMAC-SHA-256, the answer
  -- links' key) of its lower case: what the per-address limit compares.
  address_key bytea,
  created_at timestamptz not null default now(),
  -- When it is due: its next attempt, or the end of the lease of the notifier
  -- sending it now.
  next_attempt_at timestamptz not null default now(),
  -- Attempts started so far, including one in progress.
  attempts integer not null default 0
    constraint messages_attempts_check check (attempts >= 0),
  -- The notifier sending it now; one whose lease expired can record nothing.
  claimed_by uuid,
  last_error text
    constraint messages_last_error_check check (char_length(last_error) <= 1000),
  -- Each channel's success (channel-names.ts): a retry sends only the others.
  email_sent_at timestamptz,
  webhook_sent_at timestamptz,
  ntfy_sent_at timestamptz,
  -- Settled: never claimed again.
  done_at timestamptz,
  -- sent; done (nothing to send: a daily run without a summary); withdrawn (an
  -- alert no longer true when it could go); and for an acknowledgement limited
  -- (its address, or the hour, had enough), refused (the visitor's server
  -- refused the address), expired (too old to send), restored (decided before
  -- a backup of release 1.0.0 was made).
  outcome text
    constraint messages_outcome_check check (outcome in (
      'sent', 'done', 'withdrawn', 'limited', 'refused', 'expired', 'restored')),
  constraint messages_done_check check ((done_at is null) = (outcome is null)),
  -- Each kind has what it is about, and nothing another kind needs.
  constraint messages_subject_check check (
    (booking_id is not null) = (kind in ('notification', 'reminder', 'acknowledgement'))
    and (booking_ids is not null) = (kind = 'flood_digest')
    and (day is not null) = (kind = 'daily_run')
    and (address_key is not null) = (kind = 'acknowledgement')
    and (not in_digest or kind = 'notification')
    and (failure_reported_at is null or kind = 'notification'))
);

comment on table app_private.messages is
  'Every message the notifier sends (alerts, daily runs, and the messages about booking requests), each claimed under a lease, retried and settled once, whatever the number of notifiers.';

-- One message of a kind per request, and one daily run per day.
create unique index messages_booking_key
  on app_private.messages (kind, booking_id) where booking_id is not null;
create unique index messages_daily_run_key
  on app_private.messages (day) where kind = 'daily_run';
-- What the notifiers claim.
create index messages_due_idx
  on app_private.messages (kind, next_attempt_at) where done_at is null;

alter table app_private.messages enable row level security;
revoke all on app_private.messages from public, anon, authenticated, service_role;

-- The moves of the old tables' rows, as JSON arrays of them.

create function app_private.messages_from_booking_alerts(alerts jsonb)
returns void
language sql
set search_path = ''
as $$
  insert into app_private.messages
      (kind, details, created_at, next_attempt_at, last_error, done_at, outcome)
    select a.kind, a.details, a.created_at, a.next_attempt_at, a.last_error, a.sent_at,
           case
             when a.sent_at is null then null
             -- Settled unsent by the notifier (practice-alerts.ts, allDeliveredNote).
             when a.last_error like 'Not sent:%' then 'withdrawn'
             else 'sent'
           end
      from jsonb_to_recordset(alerts) as a(
        id bigint, kind text, created_at timestamptz, sent_at timestamptz, last_error text,
        details jsonb, next_attempt_at timestamptz)
     order by a.id
$$;

create function app_private.messages_from_daily_runs(runs jsonb)
returns void
language sql
set search_path = ''
as $$
  insert into app_private.messages
      (kind, day, next_attempt_at, attempts, last_error, done_at, outcome)
    select 'daily_run', r.day, r.next_attempt_at, r.attempts, r.last_error, r.done_at,
           case when r.done_at is not null then 'done' end
      from jsonb_to_recordset(runs) as r(
        day date, next_attempt_at timestamptz, attempts integer, done_at timestamptz,
        last_error text)
     order by r.day
$$;

create function app_private.messages_from_booking_reminders(reminders jsonb)
returns void
language sql
set search_path = ''
as $$
  insert into app_private.messages
      (kind, booking_id, claimed_by, next_attempt_at, attempts, last_error, done_at, outcome)
    select 'reminder', r.booking_id, r.claimed_by, r.next_attempt_at, r.attempts, r.last_error,
           r.reminded_at, case when r.reminded_at is not null then 'sent' end
      from jsonb_to_recordset(reminders) as r(
        booking_id uuid, claimed_by uuid, next_attempt_at timestamptz, attempts integer,
        reminded_at timestamptz, last_error text)
     order by r.booking_id
$$;

create function app_private.messages_from_booking_acknowledgements(acknowledgements jsonb)
returns void
language sql
set search_path = ''
as $$
  insert into app_private.messages
      (kind, booking_id, address_key, claimed_by, next_attempt_at, attempts, last_error,
       done_at, outcome)
    select 'acknowledgement', k.booking_id, k.address_key, k.claimed_by, k.next_attempt_at,
           k.attempts, k.last_error,
           -- Only a sent one had its time recorded.
           case when k.state <> 'sending' then coalesce(k.sent_at, k.next_attempt_at) end,
           nullif(k.state, 'sending')
      from jsonb_to_recordset(acknowledgements) as k(
        booking_id uuid, address_key bytea, state text, claimed_by uuid,
        next_attempt_at timestamptz, attempts integer, sent_at timestamptz, last_error text)
     order by k.booking_id
$$;

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

revoke all on function
  app_private.messages_from_booking_alerts(jsonb),
  app_private.messages_from_daily_runs(jsonb),
  app_private.messages_from_booking_reminders(jsonb),
  app_private.messages_from_booking_acknowledgements(jsonb),
  app_private.messages_from_booking_notifications(jsonb),
  app_private.messages_from_flood_digests(jsonb)
  from public, anon, authenticated, service_role;

-- Before the wake-up trigger below exists: what waits is sent at the
-- notifier's next run, not one call of the Edge Function per row.
select app_private.messages_from_booking_alerts(
  (select coalesce(jsonb_agg(a), '[]') from app_private.booking_alerts a));
select app_private.messages_from_daily_runs(
  (select coalesce(jsonb_agg(r), '[]') from app_private.daily_runs r));
select app_private.messages_from_booking_reminders(
  (select coalesce(jsonb_agg(r), '[]') from app_private.booking_reminders r));
select app_private.messages_from_booking_acknowledgements(
  (select coalesce(jsonb_agg(k), '[]') from app_private.booking_acknowledgements k));
select app_private.messages_from_booking_notifications(
  (select coalesce(jsonb_agg(n), '[]') from app_private.booking_notifications n));
select app_private.messages_from_flood_digests(
  (select coalesce(jsonb_agg(d), '[]') from app_private.flood_digests d));

drop table app_private.booking_alerts;
drop table app_private.daily_runs;
drop table app_private.booking_reminders;
drop table app_private.booking_acknowledgements;
drop table app_private.booking_notifications;
drop table app_private.flood_digests;

-- What the limits' trigger leaves for the notifier, in functions of their own.

-- A request without a client address: the practice is told once an hour
-- while they keep coming (20261202000300_client_network_and_proof.sql).
create function app_private.note_unknown_client()
returns void
language sql
set search_path = ''
as $$
  insert into app_private.messages (kind)
    select 'no_client_address'
     where not exists (
       select 1 from app_private.messages
        where kind = 'no_client_address' and created_at > now() - interval '1 hour')
$$;

-- A request above the site's hourly threshold goes to the digest, and the
-- practice is told of the flood once an hour while it lasts.
create function app_private.note_flood(request uuid, threshold integer)
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

revoke all on function app_private.note_unknown_client() from public, anon, authenticated, service_role;
revoke all on function app_private.note_flood(uuid, integer)
  from public, anon, authenticated, service_role;

-- As in 20261202000300_client_network_and_proof.sql, with what it leaves for
-- the notifier in the two functions above.
create or replace function app_private.limit_booking_requests()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  -- The role of the caller: PostgREST and this project's server set it with
  -- `set role`, which a security definer function does not change.
  caller text := current_setting('role', true);
  limits app_private.booking_limits;
  request record;
  requests integer;
  client text;
  unknown_client boolean;
  client_limit integer;
  requester text;
  site_count integer;
  flooded boolean;
begin
  if caller is null or caller not in ('anon', 'authenticated') then
    return null;
  end if;
  select count(*) into requests from new_requests;
  if requests = 0 then
    return null;
  end if;
  if requests > 1 then
    raise exception using
      errcode = 'PT400',
      message = 'Send one booking request at a time',
      hint = 'Send each booking as a JSON object of its own.';
  end if;

  select * into limits from app_private.booking_limits where singleton;
  -- Every limit switched off switches off the proof for unknown clients too.
  if limits.per_client_per_hour = 0 and limits.per_email_per_hour = 0 and limits.site_per_hour = 0 then
    return null;
  end if;
  client := app_private.request_client_network();
  unknown_client := client = 'unknown';
  -- Requests arriving together take turns here, so each counts the others.
  perform pg_advisory_xact_lock(4737151020251123);

  select id, email into request from new_requests;
  requester := encode(extensions.digest(convert_to(lower(request.email), 'UTF8'), 'sha256'), 'hex');
  delete from app_private.booking_clients where created_at <= now() - interval '1 hour';
  -- The site count includes this request.
  select count(*) into site_count from public.bookings
    where created_at > now() - interval '1 hour';
  flooded := limits.site_per_hour > 0 and site_count > limits.site_per_hour;
  -- Every client without an address shares one bucket: as large as the
  -- site's own hour, so that no one person fills it; each of its requests
  -- pays a proof of work instead.
  client_limit := case
    when unknown_client then greatest(limits.site_per_hour, limits.per_client_per_hour)
    else limits.per_client_per_hour
  end;
  -- The client counts are taken before this request is recorded.
  if (client_limit > 0 and (
        select count(*) from app_private.booking_clients c where c.network = client
      ) >= client_limit)
    -- While flooded, an IPv6 /48 counts as one network too.
    or (flooded and limits.per_client_per_hour > 0 and client like '%::/56' and (
        select count(*) from app_private.booking_clients c
        where c.network like '%::/56'
          and set_masklen(c.network::cidr, 48) = set_masklen(client::cidr, 48)
      ) >= limits.per_client_per_hour)
    or (limits.per_email_per_hour > 0 and (
        select count(*) from app_private.booking_clients c
        where c.network = client and c.email_digest = requester
      ) >= limits.per_email_per_hour)
  then
    raise exception using
      errcode = 'PT429',
      message = 'Too many booking requests',
      hint = 'Please try again later, or call or e-mail the practice.';
  end if;

  if (flooded or unknown_client) and not app_private.accept_booking_proof(
    nullif(current_setting('request.headers', true), '')::json ->> 'x-booking-proof'
  ) then
    raise exception using
      errcode = 'PT428',
      message = 'This booking request needs a proof of work',
      hint = 'The booking form computes it by itself. Fetch a challenge from rpc/booking_challenge, solve it and send the solution in the X-Booking-Proof header.';
  end if;

  insert into app_private.booking_clients (network, email_digest) values (client, requester);
  -- Requests without an address mean the proxy or gateway setting is wrong.
  if unknown_client then
    perform app_private.note_unknown_client();
  end if;
  if flooded then
    perform app_private.note_flood(request.id, limits.site_per_hour);
  end if;
  return null;
end;
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

create constraint trigger messages_wake_function
  after insert on app_private.messages
  deferrable initially deferred
  for each row
  when (new.kind in ('notification', 'flood', 'no_client_address'))
  execute function app_private.wake_notify_function();

-- As in 20261202000400_undo_and_delete.sql, with the messages in the one queue.
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

-- Reminders and acknowledgements: claimed by the same two functions as
-- before, with the same signatures and rules (one reminder every 15 minutes at
-- most and none for a flood's request, 20261202000200_flood_reminders.sql; one
-- acknowledgement per address in 24 hours, 20 an hour in all, none for a
-- flood's request or an address that is not plain, 20261202000100_plain_email.sql).
-- An acknowledgement's state is its outcome: `sending` while it has none.

-- Whether a request came in a flood (above the site's hourly threshold,
-- 20261201000100_limits.sql): it reaches the practice in the flood digest and
-- gets neither a reminder nor an acknowledgement. Said once, here.
create function app_private.is_flood_request(request uuid)
returns boolean
language sql
stable
set search_path = ''
as $$
  select exists (
    select 1 from app_private.messages m
     where m.kind = 'notification' and m.booking_id = request and m.in_digest)
$$;

revoke all on function app_private.is_flood_request(uuid) from public, anon, authenticated, service_role;

-- What the per-address limit of the acknowledgements looks up.
create index messages_address_key_idx
  on app_private.messages (address_key, done_at) where address_key is not null;

-- As in 20261202000200_flood_reminders.sql, on the one queue.
create or replace function app_private.claim_due_reminders(
  claim uuid,
  lease interval,
  remind_after interval,
  max_requests integer default 200,
  as_of timestamptz default now()
)
returns table (booking_id uuid, created_at timestamptz, attempts integer)
language plpgsql
volatile
set search_path = ''
as $$
#variable_conflict use_column
begin
  perform pg_advisory_xact_lock(hashtextextended('hijama-reminders', 0));
  if exists (
    select 1 from app_private.messages r
    where r.kind = 'reminder'
      and (r.done_at > as_of - interval '15 minutes'
        or (r.done_at is null and r.claimed_by is not null and r.next_attempt_at > as_of))
  ) then
    return;
  end if;
  return query
  with due as (
    select b.id from public.bookings b
    where b.created_at <= as_of - remind_after
      and not exists (
        select 1 from app_private.booking_answers a
        where a.booking_id = b.id and a.answered_at <= as_of
      )
      and not exists (
        select 1 from app_private.messages r
        where r.kind = 'reminder' and r.booking_id = b.id
          and (r.done_at is not null or r.next_attempt_at > as_of)
      )
      and not app_private.is_flood_request(b.id)
    order by b.created_at, b.id
    limit max_requests
  ),
  claimed as (
    insert into app_private.messages as r (kind, booking_id, claimed_by, next_attempt_at, attempts)
      select 'reminder', id, claim, as_of + lease, 1 from due
    on conflict (kind, booking_id) where booking_id is not null do update
      set claimed_by = excluded.claimed_by,
          next_attempt_at = excluded.next_attempt_at,
          attempts = r.attempts + 1
      -- Seen again after the other notifier's insert or update committed.
      where r.done_at is null and r.next_attempt_at <= as_of
    returning r.booking_id, r.attempts
  )
  select c.booking_id, b.created_at, c.attempts
  from claimed c join public.bookings b on b.id = c.booking_id
  order by b.created_at, b.id;
end;
$$;

-- As in 20261202000100_plain_email.sql, on the one queue.
create or replace function app_private.claim_acknowledgement(
  claim uuid,
  lease interval,
  max_age interval,
  per_address_within interval,
  as_of timestamptz default now()
)
returns table (booking_id uuid, created_at timestamptz, full_name text, email text, attempts integer)
language plpgsql
volatile
set search_path = ''
as $$
#variable_conflict use_column
declare
  most_per_hour constant integer := 20;
  candidate record;
  key bytea;
  acknowledgement app_private.messages;
begin
  perform pg_advisory_xact_lock(hashtextextended('hijama-acknowledgements-per-hour', 0));
  for candidate in
    select b.id, b.created_at, b.full_name, b.email from public.bookings b
    where b.email is not null
      and app_private.is_plain_email(b.email)
      -- A flooder typing a new address each time would otherwise have the
      -- practice mail every one of them.
      and not app_private.is_flood_request(b.id)
      and b.created_at > as_of - max_age
      and b.created_at <= as_of
      and not exists (
        select 1 from app_private.messages k
        where k.kind = 'acknowledgement' and k.booking_id = b.id
          and (k.done_at is not null or k.next_attempt_at > as_of)
      )
    order by b.created_at, b.id
    limit 20
  loop
    key := extensions.hmac(convert_to(lower(candidate.email), 'UTF8'),
      app_private.answer_link_key(), 'sha256');
    perform pg_advisory_xact_lock(hashtextextended('hijama-acknowledgement:' || encode(key, 'hex'), 0));
    if exists (
      select 1 from app_private.messages k
      where k.address_key = key and k.booking_id <> candidate.id
        and ((k.outcome = 'sent' and k.done_at > as_of - per_address_within)
          or (k.done_at is null and k.claimed_by is not null and k.next_attempt_at > as_of))
    ) or (
      select count(*) from app_private.messages k
      join public.bookings r on r.id = k.booking_id
      where k.kind = 'acknowledgement' and k.booking_id <> candidate.id
        and ((k.outcome = 'sent' and k.done_at > as_of - interval '1 hour')
          or (k.done_at is null and r.created_at > as_of - max_age))
    ) >= most_per_hour then
      insert into app_private.messages as k (kind, booking_id, address_key, done_at, outcome)
        values ('acknowledgement', candidate.id, key, as_of, 'limited')
      on conflict (kind, booking_id) where booking_id is not null do update
        set done_at = as_of, outcome = 'limited', claimed_by = null
        where k.done_at is null;
      continue;
    end if;
    insert into app_private.messages as k
        (kind, booking_id, address_key, claimed_by, next_attempt_at, attempts)
      values ('acknowledgement', candidate.id, key, claim, as_of + lease, 1)
    on conflict (kind, booking_id) where booking_id is not null do update
      set claimed_by = excluded.claimed_by,
          next_attempt_at = excluded.next_attempt_at,
          attempts = k.attempts + 1
      where k.done_at is null and k.next_attempt_at <= as_of
    returning * into acknowledgement;
    if acknowledgement.id is null then
      continue;
    end if;
    booking_id := candidate.id;
    created_at := candidate.created_at;
    full_name := candidate.full_name;
    email := candidate.email;
    attempts := acknowledgement.attempts;
    return next;
    return;
  end loop;
  -- Requests too old to acknowledge that were still being tried: given up.
  update app_private.messages k
     set done_at = as_of, outcome = 'expired', claimed_by = null
    from public.bookings b
   where k.kind = 'acknowledgement' and b.id = k.booking_id and k.done_at is null
     and b.created_at <= as_of - max_age and k.next_attempt_at <= as_of;
end;
$$;

-- The notifications of requests and the flood digests. A request's
-- notification is added by the same trigger in the booking's transaction; one
-- above the site's hourly threshold is marked `in_digest` and waits for a
-- message of kind `flood_digest`, which carries the ids of its requests.

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
