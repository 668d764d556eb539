-- One acknowledgement per mailbox in 24 hours, where it was one per spelling
-- of an address: victim+1@gmail.com, victim+2@gmail.com and v.ictim@gmail.com
-- all reach victim@gmail.com, so that the form could have the practice mail a
-- stranger's inbox some twenty times an hour (the site's hourly cap), crowding
-- out the real visitors' acknowledgements. The key of an address is now that of
-- its mailbox: lower case, the local part cut at its first +, and Gmail's dots
-- and googlemail.com dropped. A plain address keeps the key it had.

create function app_private.mailbox_key(email text)
returns bytea
language plpgsql
stable
set search_path = ''
as $$
declare
  address text := lower(email);
  local_part text := split_part(regexp_replace(address, '@[^@]*$', ''), '+', 1);
  domain text := regexp_replace(address, '^.*@', '');
begin
  if domain in ('gmail.com', 'googlemail.com') then
    local_part := replace(local_part, '.', '');
    domain := 'gmail.com';
  end if;
  return extensions.hmac(convert_to(local_part || '@' || domain, 'UTF8'),
    app_private.answer_link_key(), 'sha256');
end;
$$;

comment on function app_private.mailbox_key(text) is
  'The key of the mailbox an address reaches, which limits acknowledgements per mailbox without keeping the address.';
revoke all on function app_private.mailbox_key(text) from public, anon, authenticated, service_role;

-- As in 20261203000000_one_message_queue.sql, the key by mailbox.
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
    key := app_private.mailbox_key(candidate.email);
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

