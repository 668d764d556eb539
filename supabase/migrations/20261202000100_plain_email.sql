-- No form becomes a mail relay.
--
-- The e-mail field takes a bare `local@domain` in ASCII and nothing else, as
-- the field table does (supabase/functions/_shared/core/booking-rules.ts,
-- plainEmailAddress): a display name, comment, quoted part, group or list is
-- read by mail libraries as an address of its own, so one inbox could be
-- spelled many ways past the per-address limit, and carry text to it. ASCII
-- alone, so that lower() folds an address the same under any locale, which is
-- all the per-address key needs: a domain of other letters is typed in its
-- xn-- form. Rows stored before this rule stay (`not valid`); the
-- acknowledgement passes them by.
--
-- And at most 20 acknowledgements leave in an hour, whatever the addresses:
-- a visitor typing a new address each time is otherwise held back only by the
-- flood threshold, which the practice may raise or turn off.

create function app_private.is_plain_email(value text)
returns boolean
language sql
immutable
strict
parallel safe
set search_path = ''
as $$
  select value ~ (
    '^[A-Za-z0-9!#$%&''*+/=?^_`{|}~-]+([.][A-Za-z0-9!#$%&''*+/=?^_`{|}~-]+)*'
    || '@[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?([.][A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?)+$'
  )
$$;

comment on function app_private.is_plain_email(text) is
  'Whether a text is a bare ASCII address, local@domain, with no name, comment, quote or list (supabase/functions/_shared/core/booking-rules.ts, plainEmailAddress).';
revoke all on function app_private.is_plain_email(text) from public;
grant execute on function app_private.is_plain_email(text) to anon, authenticated, service_role;

alter table public.bookings drop constraint bookings_email_check;
alter table public.bookings add constraint bookings_email_check check (
  char_length(email) <= 254 and app_private.is_plain_email(email)
) not valid;

-- As in 20261201000200_notifications.sql, and besides: an address stored
-- before the rule above is not acknowledged, and every claim counts the
-- acknowledgements of the last hour under one lock, recording `limited` the
-- requests past `most_per_hour`. A retry is not counted again.
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
  acknowledgement app_private.booking_acknowledgements;
begin
  perform pg_advisory_xact_lock(hashtextextended('hijama-acknowledgements-per-hour', 0));
  for candidate in
    select b.id, b.created_at, b.full_name, b.email from public.bookings b
    where b.email is not null
      and app_private.is_plain_email(b.email)
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
    ) or (
      select count(*) from app_private.booking_acknowledgements k
      join public.bookings r on r.id = k.booking_id
      where k.booking_id <> candidate.id
        and ((k.state = 'sent' and k.sent_at > as_of - interval '1 hour')
          or (k.state = 'sending' and r.created_at > as_of - max_age))
    ) >= most_per_hour then
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
  'Claims the acknowledgement e-mail of one recent request with a plain address, recording as limited those whose address already had one, and those past 20 in the last hour.';
comment on table app_private.booking_acknowledgements is
  'The e-mail that tells a visitor their booking request arrived (NOTIFY_ACKNOWLEDGE): at most one per address in 24 hours, and 20 in an hour in all.';
