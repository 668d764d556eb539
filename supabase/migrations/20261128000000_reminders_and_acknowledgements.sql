-- The 24-hour promise, kept by the product: a waiting request is chased once
-- before its reply-by time, and the visitor is told the request arrived.
--
-- Reminders. A request is waiting while it has no row in
-- app_private.booking_answers. Once it has waited long enough (the notifier
-- passes NOTIFY_REMINDER_HOURS before the reply-by time, as `remind_after`:
-- the age at which it is due), it is reminded once, through every channel,
-- together with the other requests due at the same time. The claim below is
-- what makes it once: a request's reminder row is inserted or taken over in
-- one statement, and the primary key makes a second notifier find it taken.
--
-- Acknowledgements. When e-mail is configured and NOTIFY_ACKNOWLEDGE is not
-- off, the visitor who gave an e-mail address is sent "we have your request",
-- at most one to an address in `per_address_within` (24 hours), however many
-- requests it sends: the form cannot be used to mail-bomb a stranger. Nor can
-- a flood of requests with a new address each: the requests above the site's
-- hourly threshold (flagged `digest`) get none. The
-- address is kept only as a keyed hash, and only with its request. A request
-- older than `max_age` gets none: a late "we have your request" helps no one.
--
-- Both functions take the clock as a parameter (now() by default), so that
-- the tests can run them at any date, clock changes included. The number of
-- hours of the promise is not written here: the notifier passes it
-- (src/content/site.ts, replyWithinHours).

create table if not exists app_private.booking_reminders (
  booking_id uuid primary key references public.bookings (id) on delete cascade,
  -- The notifier sending it now; its lease ends at next_attempt_at.
  claimed_by uuid,
  next_attempt_at timestamptz not null default now(),
  attempts integer not null default 0
    constraint booking_reminders_attempts_check check (attempts >= 0),
  -- Set once a channel took the reminder: it is never sent again.
  reminded_at timestamptz,
  last_error text
    constraint booking_reminders_last_error_check check (char_length(last_error) <= 1000)
);

comment on table app_private.booking_reminders is
  'The reminder of each waiting booking request, sent once before its reply-by time (NOTIFY_REMINDER_HOURS).';

alter table app_private.booking_reminders enable row level security;
revoke all on app_private.booking_reminders from public, anon, authenticated, service_role;

-- Claims the reminders due at `at`, oldest request first, at most
-- `max_requests`: the waiting requests at least `remind_after` old whose
-- reminder has not been sent and is not being sent by another notifier.
create or replace function app_private.claim_due_reminders(
  claim uuid,
  lease interval,
  remind_after interval,
  max_requests integer default 200,
  as_of timestamptz default now()
)
returns table (booking_id uuid, created_at timestamptz, attempts integer)
language sql
volatile
set search_path = ''
as $$
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
  order by b.created_at, b.id
$$;

comment on function app_private.claim_due_reminders(uuid, interval, interval, integer, timestamptz) is
  'Claims, for one notifier, the reminders of the waiting requests at least remind_after old that were never reminded.';
revoke all on function app_private.claim_due_reminders(uuid, interval, interval, integer, timestamptz)
  from public, anon, authenticated, service_role;

create table if not exists app_private.booking_acknowledgements (
  booking_id uuid primary key references public.bookings (id) on delete cascade,
  -- HMAC-SHA-256 of the address in lower case, with the answer links' key:
  -- what the per-address limit compares, without a second copy of the address.
  address_key bytea not null,
  -- sending: claimed by claimed_by until next_attempt_at, or waiting for a retry;
  -- sent: the SMTP server took it; limited: the address had one in the last
  -- 24 hours; refused: the visitor's address was refused (the practice is told);
  -- expired: it could not be sent while the request was recent.
  state text not null default 'sending'
    constraint booking_acknowledgements_state_check
      check (state in ('sending', 'sent', 'limited', 'refused', 'expired')),
  claimed_by uuid,
  next_attempt_at timestamptz not null default now(),
  attempts integer not null default 0
    constraint booking_acknowledgements_attempts_check check (attempts >= 0),
  sent_at timestamptz,
  last_error text
    constraint booking_acknowledgements_last_error_check check (char_length(last_error) <= 1000),
  constraint booking_acknowledgements_sent_at_check check ((state = 'sent') = (sent_at is not null))
);

comment on table app_private.booking_acknowledgements is
  'The e-mail that tells a visitor their booking request arrived (NOTIFY_ACKNOWLEDGE): at most one per address in 24 hours.';

create index if not exists booking_acknowledgements_address_idx
  on app_private.booking_acknowledgements (address_key, sent_at);
alter table app_private.booking_acknowledgements enable row level security;
revoke all on app_private.booking_acknowledgements from public, anon, authenticated, service_role;

-- Claims the acknowledgement of one request: the oldest request younger than
-- `max_age` with an e-mail address and no acknowledgement decided yet. Where
-- its address had one sent, or being sent, in the `per_address_within` before
-- `at`, the request is recorded `limited` and the next is looked at; else it
-- is claimed for `lease` and returned. The address is locked for the rest of
-- the transaction, so two notifiers never both claim one address.
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
  candidate record;
  key bytea;
  acknowledgement app_private.booking_acknowledgements;
begin
  for candidate in
    select b.id, b.created_at, b.full_name, b.email from public.bookings b
    where b.email is not null
      -- None for the requests of a flood (above the site's hourly threshold,
      -- 20261126000000_booking_flood.sql): a flooder typing a new address each
      -- time would otherwise have the practice mail every one of them.
      and not exists (
        select 1 from app_private.booking_notifications n where n.booking_id = b.id and n.digest
      )
      and b.created_at > as_of - max_age
      and b.created_at <= as_of
      and not exists (
        select 1 from app_private.booking_acknowledgements k
        where k.booking_id = b.id and (k.state <> 'sending' or k.next_attempt_at > as_of)
      )
    order by b.created_at, b.id
    limit 20
  loop
    key := extensions.hmac(convert_to(lower(candidate.email), 'UTF8'),
      app_private.answer_link_key(), 'sha256');
    perform pg_advisory_xact_lock(hashtextextended('hijama-acknowledgement:' || encode(key, 'hex'), 0));
    if exists (
      select 1 from app_private.booking_acknowledgements k
      where k.address_key = key and k.booking_id <> candidate.id
        and ((k.state = 'sent' and k.sent_at > as_of - per_address_within)
          or (k.state = 'sending' and k.claimed_by is not null and k.next_attempt_at > as_of))
    ) then
      insert into app_private.booking_acknowledgements as k (booking_id, address_key, state)
        values (candidate.id, key, 'limited')
      on conflict on constraint booking_acknowledgements_pkey do update
        set state = 'limited', claimed_by = null
        where k.state = 'sending';
      continue;
    end if;
    insert into app_private.booking_acknowledgements as k
        (booking_id, address_key, claimed_by, next_attempt_at, attempts)
      values (candidate.id, key, claim, as_of + lease, 1)
    on conflict on constraint booking_acknowledgements_pkey do update
      set claimed_by = excluded.claimed_by,
          next_attempt_at = excluded.next_attempt_at,
          attempts = k.attempts + 1
      where k.state = 'sending' and k.next_attempt_at <= as_of
    returning * into acknowledgement;
    if acknowledgement.booking_id is null then
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
  update app_private.booking_acknowledgements k
     set state = 'expired', claimed_by = null
    from public.bookings b
   where b.id = k.booking_id and k.state = 'sending'
     and b.created_at <= as_of - max_age and k.next_attempt_at <= as_of;
end;
$$;

comment on function app_private.claim_acknowledgement(uuid, interval, interval, interval, timestamptz) is
  'Claims the acknowledgement e-mail of one recent request, recording as limited those whose address already had one.';
revoke all on function app_private.claim_acknowledgement(uuid, interval, interval, interval, timestamptz)
  from public, anon, authenticated, service_role;

-- The practice is told when a visitor's address refuses the acknowledgement,
-- so that it phones instead.
alter table app_private.booking_alerts drop constraint if exists booking_alerts_kind_check;
alter table app_private.booking_alerts
  add constraint booking_alerts_kind_check
    check (kind in ('flood', 'notification_failing', 'acknowledgement_refused'));
