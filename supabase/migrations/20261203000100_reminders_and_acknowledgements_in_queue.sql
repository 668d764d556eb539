-- Reminders and acknowledgements in the one queue of messages.
--
-- The reminder of a waiting request and the acknowledgement to its visitor are
-- messages of app_private.messages (20261203000000_one_message_queue.sql), of
-- kinds `reminder` and `acknowledgement`, claimed by the same two functions as
-- before, with the same signatures and rules: one reminder every 15 minutes at
-- most and none for a flood's request (20261202000200_flood_reminders.sql);
-- one acknowledgement per address in 24 hours, 20 an hour in all, none for a
-- flood's request or an address that is not plain (20261202000100_plain_email.sql).
-- An acknowledgement's state is its outcome: `sending` while it has none.
--
-- The rows of app_private.booking_reminders and
-- app_private.booking_acknowledgements move into it as they stood, and those
-- tables go.

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
    select 1 from app_private.booking_notifications n where n.booking_id = request and n.digest)
$$;

revoke all on function app_private.is_flood_request(uuid) from public, anon, authenticated, service_role;

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

revoke all on function app_private.messages_from_booking_reminders(jsonb)
  from public, anon, authenticated, service_role;
revoke all on function app_private.messages_from_booking_acknowledgements(jsonb)
  from public, anon, authenticated, service_role;

select app_private.messages_from_booking_reminders(
  (select coalesce(jsonb_agg(r), '[]') from app_private.booking_reminders r));
select app_private.messages_from_booking_acknowledgements(
  (select coalesce(jsonb_agg(k), '[]') from app_private.booking_acknowledgements k));

drop table app_private.booking_reminders;
drop table app_private.booking_acknowledgements;

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
