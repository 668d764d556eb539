-- Reminders that cannot become a flood of their own.
--
-- A flood's requests (booking_notifications.digest, 20261201000100_limits.sql)
-- reach the practice in the flood digest, every 15 minutes, each with its
-- "Mark as answered" link, and the daily summary counts them among those
-- waiting. They are never reminded: a reminder per request, or per poll, of
-- thousands of robots' requests would be the flood again by another door.
--
-- The other requests are reminded at most once every 15 minutes, the flood
-- digest's interval (floodDigestIntervalMs, flood-digest.ts): while a reminder
-- was sent less than 15 minutes before `as_of`, or is being sent, the claim
-- returns nothing, and the requests that fall due meanwhile come together in
-- the next one. The rule is here, not in the notifier, so that every server
-- and every call of the Edge Function obeys it at once; the advisory lock
-- makes two notifiers that claim at the same moment take turns, so that the
-- second sees the first one's reminder in flight.
--
-- Same signature as before: the notifiers call it unchanged.

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
    select 1 from app_private.booking_reminders r
    where r.reminded_at > as_of - interval '15 minutes'
       or (r.reminded_at is null and r.claimed_by is not null and r.next_attempt_at > as_of)
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
        select 1 from app_private.booking_reminders r
        where r.booking_id = b.id and (r.reminded_at is not null or r.next_attempt_at > as_of)
      )
      and not exists (
        select 1 from app_private.booking_notifications n
        where n.booking_id = b.id and n.digest
      )
    order by b.created_at, b.id
    limit max_requests
  ),
  claimed as (
    insert into app_private.booking_reminders as r (booking_id, claimed_by, next_attempt_at, attempts)
      select id, claim, as_of + lease, 1 from due
    on conflict on constraint booking_reminders_pkey do update
      set claimed_by = excluded.claimed_by,
          next_attempt_at = excluded.next_attempt_at,
          attempts = r.attempts + 1
      -- Seen again after the other notifier's insert or update committed.
      where r.reminded_at is null and r.next_attempt_at <= as_of
    returning r.booking_id, r.attempts
  )
  select c.booking_id, b.created_at, c.attempts
  from claimed c join public.bookings b on b.id = c.booking_id
  order by b.created_at, b.id;
end;
$$;

comment on function app_private.claim_due_reminders(uuid, interval, interval, integer, timestamptz) is
  'Claims, for one notifier, the reminders of the waiting requests at least remind_after old that were never reminded, except a flood''s, and none while a reminder was sent less than 15 minutes ago or is being sent.';
