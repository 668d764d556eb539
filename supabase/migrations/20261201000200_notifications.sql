-- Notifications: the practice hears of every booking request, and of anything
-- that keeps it from hearing.
--
-- The outbox. Every insert into public.bookings, whoever makes it (this
-- project's server or hosted Supabase's API), adds a row to
-- app_private.booking_notifications in the same transaction, so a request that
-- was answered 201 always has its pending notification, even if the server
-- stops before sending it. The notifier (supabase/functions/_shared/notifications)
-- sends it by e-mail, webhook and/or ntfy push, records each channel's success
-- in a column of its own, so that a retry sends only what did not get through
-- (supabase/functions/_shared/notifications/channel-names.ts names them), and
-- retries with backoff. A push to the practice's phone through ntfy
-- (NOTIFY_NTFY_URL) does not depend on the e-mail account: when the SMTP login
-- breaks, the push still arrives, and the other way round.
--
-- The outbox and everything here live in app_private; the API roles have no
-- privilege on it. The trigger functions run as their owner (security definer)
-- with an empty search path, so an anonymous insert needs no privilege here.
--
-- Keeping the practice from missing a request without knowing it:
-- - A notification still failing after a while (NOTIFY_ALERT_AFTER_MINUTES,
--   an hour by default) is reported to the practice once, through every
--   channel, as an alert of kind 'notification_failing'. The notifier marks the
--   notification (failure_reported_at) in the same transaction as it adds the
--   alert, so that two notifiers never report it twice. The alert's details
--   name the bookings by id and say which channels failed and why; they hold
--   nothing the visitor typed.
-- - An alert that no channel could take waits (next_attempt_at) before it is
--   tried again, instead of at every poll.
-- - The daily run (the retention purge, then the summary e-mail, the
--   "heartbeat") is recorded here, one row per UK day, so that several servers
--   or calls of the Edge Function do each day's once: the first to insert the
--   day's row does it; one whose summary could not be sent gives it back for a
--   later attempt.
--
-- The practice is not flooded either. Requests that arrive above the site's
-- hourly threshold are marked booking_notifications.digest
-- (20261201000100_limits.sql). They are never e-mailed one by one: the notifier
-- (supabase/functions/_shared/notifications/flood-digests.ts) gathers every one
-- waiting into a flood digest, at most one every 15 minutes, and sends it
-- through every channel. Each digest is a row of app_private.flood_digests, so
-- that several notifiers (two servers on one database, overlapping calls of
-- the Edge Function) send it once: a notifier opens a digest under an advisory
-- lock, which makes the others wait and then find it, and sends it under a
-- lease, as it sends a single notification. Once every channel has taken it,
-- its requests' notifications are complete.

create table app_private.booking_notifications (
  booking_id uuid primary key references public.bookings (id) on delete cascade,
  created_at timestamptz not null default now(),
  -- Attempts started so far, including one in progress.
  attempts integer not null default 0
    constraint booking_notifications_attempts_check check (attempts >= 0),
  -- When the notification is due: its next retry, or the end of the lease of
  -- the notifier sending it now.
  next_attempt_at timestamptz not null default now(),
  -- The claim of the notifier sending it now; a notifier whose lease expired can
  -- no longer record anything.
  claimed_by uuid,
  email_sent_at timestamptz,
  webhook_sent_at timestamptz,
  -- Set once every configured channel has succeeded.
  completed_at timestamptz,
  last_error text
    constraint booking_notifications_last_error_check check (char_length(last_error) <= 1000),
  failure_reported_at timestamptz,
  digest boolean not null default false,
  ntfy_sent_at timestamptz
);

comment on table app_private.booking_notifications is
  'One pending or sent notification per booking request, written by a trigger in the same transaction as the booking.';
comment on column app_private.booking_notifications.failure_reported_at is
  'When the practice was told, by an alert, that this notification keeps failing.';
comment on column app_private.booking_notifications.digest is
  'The request arrived above the site''s hourly threshold: it is e-mailed in the flood digest (every 15 minutes), not on its own.';
comment on column app_private.booking_notifications.ntfy_sent_at is
  'When the ntfy server accepted the push of this request; null until then, or when ntfy is not configured.';

-- The notifications sent one by one: a flood waiting for its digest must not
-- slow down the claim of the next single notification.
create index booking_notifications_due_one_by_one_idx
  on app_private.booking_notifications (next_attempt_at)
  where completed_at is null and not digest;
-- The requests waiting for a digest.
create index booking_notifications_digest_waiting_idx
  on app_private.booking_notifications (created_at)
  where digest and completed_at is null;

alter table app_private.booking_notifications enable row level security;
revoke all on app_private.booking_notifications from public, anon, authenticated, service_role;

create function app_private.enqueue_booking_notification()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into app_private.booking_notifications (booking_id) values (new.id);
  return null;
end;
$$;

comment on function app_private.enqueue_booking_notification() is
  'Adds the pending notification of a new booking request; runs as its owner so that anon needs no privilege on the outbox.';

revoke all on function app_private.enqueue_booking_notification()
  from public, anon, authenticated, service_role;

create trigger bookings_enqueue_notification
  after insert on public.bookings
  for each row
  execute function app_private.enqueue_booking_notification();

-- Messages for the practice about the booking form itself, sent by the
-- notifier: a flood (left by app_private.limit_booking_requests), a
-- notification failing for too long, a visitor's address refusing the
-- acknowledgement (so that the practice phones instead).
create table app_private.booking_alerts (
  id bigint generated always as identity primary key,
  kind text not null
    constraint booking_alerts_kind_check
      check (kind in ('flood', 'notification_failing', 'acknowledgement_refused')),
  created_at timestamptz not null default now(),
  sent_at timestamptz,
  last_error text
    constraint booking_alerts_last_error_check check (char_length(last_error) <= 1000),
  details jsonb,
  next_attempt_at timestamptz not null default now()
);

comment on table app_private.booking_alerts is
  'Alerts for the practice (a flood of requests, once an hour while it lasts; a notification failing for too long), each sent once by the notifier.';

create index booking_alerts_unsent_idx
  on app_private.booking_alerts (created_at) where sent_at is null;
alter table app_private.booking_alerts enable row level security;
revoke all on app_private.booking_alerts from public, anon, authenticated, service_role;

create table app_private.daily_runs (
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

create table app_private.flood_digests (
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
    constraint flood_digests_last_error_check check (char_length(last_error) <= 1000),
  ntfy_sent_at timestamptz
);

comment on table app_private.flood_digests is
  'Flood digests: the requests above the site''s hourly threshold, e-mailed together at most every 15 minutes, each digest sent once whatever the number of notifiers. Holds booking ids, nothing the visitors typed.';
comment on column app_private.flood_digests.ntfy_sent_at is
  'When the ntfy server accepted the push of this digest; null until then, or when ntfy is not configured.';

alter table app_private.flood_digests enable row level security;
revoke all on app_private.flood_digests from public, anon, authenticated, service_role;

-- A request is waiting until it is answered.
--
-- app_private.booking_answers records when the practice answered a request,
-- and by which channel if it says. The practice marks it from the link in the
-- notification e-mail ("Mark as answered"), which opens a page of the site
-- holding a signed, expiring token for that one request; the page's button
-- calls public.mark_booking_answered(token), which anon may call. The token is
-- the booking's id, its expiry and an HMAC-SHA-256 of both with a key no API
-- role can read: in Supabase's Vault where it exists (hosted Supabase), else
-- in a private table (PGlite, PostgreSQL). Opening the page changes nothing
-- (mail scanners open links); only the button does, and twice is harmless.
-- `npx hijama answer REF` marks one as the table's owner.

create table app_private.booking_answers (
  booking_id uuid primary key references public.bookings (id) on delete cascade,
  answered_at timestamptz not null default now(),
  -- How the practice answered, when it says: e-mail, Instagram, phone, ...
  channel text
    constraint booking_answers_channel_check
      check (channel in ('email', 'instagram', 'phone', 'whatsapp', 'sms', 'other')),
  -- Who marked it: the link in the e-mail, or the command.
  marked_by text not null default 'link'
    constraint booking_answers_marked_by_check
      check (marked_by in ('link', 'command'))
);

comment on table app_private.booking_answers is
  'When the practice answered each booking request (a request without a row here is waiting), and how, if it said.';

alter table app_private.booking_answers enable row level security;
revoke all on app_private.booking_answers from public, anon, authenticated, service_role;

-- The key of the answer links, where there is no Vault.
create table app_private.answer_link_key (
  singleton boolean primary key default true
    constraint answer_link_key_singleton_check check (singleton),
  hmac_key bytea not null default extensions.gen_random_bytes(32)
);
comment on table app_private.answer_link_key is
  'The secret that signs the links that mark a request answered, where Supabase''s Vault is not installed.';
alter table app_private.answer_link_key enable row level security;
revoke all on app_private.answer_link_key from public, anon, authenticated, service_role;

-- The private table's key always exists; where Vault is installed (hosted
-- Supabase), the key is made in Vault too, and Vault's is the one used.
insert into app_private.answer_link_key (singleton) values (true);

do $$
declare
  secrets integer;
begin
  -- Dynamic SQL: where Vault is missing, its tables cannot even be named.
  if to_regclass('vault.secrets') is not null then
    execute 'select count(*) from vault.secrets where name = $1'
      into secrets using 'hijama_answer_link_key';
    if secrets = 0 then
      execute 'select vault.create_secret($1, $2, $3)' using
        encode(extensions.gen_random_bytes(32), 'hex'),
        'hijama_answer_link_key',
        'Signs the links in booking e-mails that mark a request answered.';
    end if;
  end if;
end;
$$;

-- The key: Vault's secret where there is one, else the private table's.
create function app_private.answer_link_key()
returns bytea
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  key bytea;
begin
  if to_regclass('vault.decrypted_secrets') is not null then
    execute 'select decode(decrypted_secret, ''hex'') from vault.decrypted_secrets where name = $1'
      into key using 'hijama_answer_link_key';
  end if;
  if key is null then
    select hmac_key into key from app_private.answer_link_key where singleton;
  end if;
  if key is null then
    raise exception 'The key of the answer links is missing: apply the migrations again.';
  end if;
  return key;
end;
$$;
revoke all on function app_private.answer_link_key() from public, anon, authenticated, service_role;

-- The token of a request's answer link, valid for `valid_for`: for the
-- notifier, which runs as the tables' owner.
create function app_private.answer_token(
  booking_id uuid,
  valid_for interval default interval '30 days'
)
returns text
language sql
stable
security definer
set search_path = ''
as $$
  select payload || '.' || encode(
    extensions.hmac(convert_to(payload, 'UTF8'), app_private.answer_link_key(), 'sha256'), 'hex')
  from (
    select booking_id::text || '.' || floor(extract(epoch from now() + valid_for))::bigint as payload
  ) as token
$$;

comment on function app_private.answer_token(uuid, interval) is
  'The signed, expiring token of the link that marks one booking request answered: "<id>.<expiry, Unix seconds>.<HMAC-SHA-256 hex>".';
revoke all on function app_private.answer_token(uuid, interval) from public, anon, authenticated, service_role;

-- Marks the request of `token` answered, once: a second call answers as the
-- first did. Refuses a token that is not one this database signed (PT403), one
-- past its expiry (PT410), or one whose request is gone (PT404).
create function public.mark_booking_answered(token text)
returns json
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  parts text[] := string_to_array(coalesce(token, ''), '.');
  booking uuid;
  expires bigint;
  answer app_private.booking_answers;
begin
  if array_length(parts, 1) is distinct from 3
    or parts[1] !~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
    or parts[2] !~ '^[0-9]{1,12}$'
    or encode(extensions.hmac(convert_to(parts[1] || '.' || parts[2], 'UTF8'),
        app_private.answer_link_key(), 'sha256'), 'hex') is distinct from lower(parts[3])
  then
    raise exception using
      errcode = 'PT403',
      message = 'This link is not a valid answer link',
      hint = 'Open the link from the booking e-mail again, whole, or mark the request with npx hijama answer and its reference.';
  end if;
  booking := parts[1]::uuid;
  expires := parts[2]::bigint;
  if to_timestamp(expires) <= now() then
    raise exception using
      errcode = 'PT410',
      message = 'This answer link has expired',
      hint = 'Mark the request with npx hijama answer and its reference.';
  end if;
  if not exists (select 1 from public.bookings b where b.id = booking) then
    raise exception using
      errcode = 'PT404',
      message = 'This request is no longer stored',
      hint = 'It was deleted, by its retention period or by hand.';
  end if;
  insert into app_private.booking_answers (booking_id) values (booking)
    on conflict (booking_id) do nothing;
  select * into answer from app_private.booking_answers a where a.booking_id = booking;
  return json_build_object(
    'reference', upper(left(replace(booking::text, '-', ''), 8)),
    'answered_at', answer.answered_at
  );
end;
$$;

comment on function public.mark_booking_answered(text) is
  'Marks the booking request of a signed answer link answered (idempotent); the link comes in the notification e-mail.';
revoke all on function public.mark_booking_answered(text) from public;
grant execute on function public.mark_booking_answered(text) to anon, authenticated, service_role;

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

create table app_private.booking_reminders (
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
create function app_private.claim_due_reminders(
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

create table app_private.booking_acknowledgements (
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

create index booking_acknowledgements_address_idx
  on app_private.booking_acknowledgements (address_key, sent_at);
alter table app_private.booking_acknowledgements enable row level security;
revoke all on app_private.booking_acknowledgements from public, anon, authenticated, service_role;

-- Claims the acknowledgement of one request: the oldest request younger than
-- `max_age` with an e-mail address and no acknowledgement decided yet. Where
-- its address had one sent, or being sent, in the `per_address_within` before
-- `at`, the request is recorded `limited` and the next is looked at; else it
-- is claimed for `lease` and returned. The address is locked for the rest of
-- the transaction, so two notifiers never both claim one address.
create function app_private.claim_acknowledgement(
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
      -- 20261201000100_limits.sql): a flooder typing a new address each
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
