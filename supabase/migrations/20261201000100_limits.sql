-- Limits on booking requests, kept by the database so that they hold for every
-- way in: this project's server and hosted Supabase's REST API alike. A flood
-- costs the flooder, never the practice's visitors.
--
-- For the public roles (anon, authenticated), after every other check has
-- passed (an AFTER STATEMENT trigger, which sees the statement's rows, so that
-- a refusal never tells a stranger whether an address has booked):
-- - one booking request per request: a statement of several rows is refused
--   (PT400); the service key may still insert several;
-- - at most `per_client_per_hour` requests in an hour from one client network,
--   and at most `per_email_per_hour` for one e-mail address from one network
--   (so that strangers cannot lock someone out by sending requests in their
--   name from elsewhere). Both answer PT429 (HTTP 429; PostgREST turns SQLSTATE
--   PTxyz into status xyz) with one neutral hint.
-- - Networks, not addresses: an IPv4 address counts alone, an IPv6 address
--   per /56 (what a UK home connection is given). The client address is read
--   from `cf-connecting-ip` alone: hosted Supabase's front (Cloudflare) sets and
--   overwrites it, and this project's server sets it from the address it
--   trusts. Other headers are the client's to write. A missing or unreadable
--   address counts in one shared bucket, 'unknown': limited, never unlimited.
-- - `site_per_hour` is not a refusal. Up to it, requests are taken as they
--   come. Above it, each new request must carry a proof of work (ALTCHA's
--   protocol, version 1): the browser fetches a challenge from
--   public.booking_challenge() (`POST /rest/v1/rpc/booking_challenge`), solves
--   it in a Web Worker and sends the solution, base64 JSON, in the request
--   header `X-Booking-Proof`, which PostgREST passes to SQL in
--   `request.headers`. A challenge is signed with a key anon cannot read,
--   expires after 10 minutes and is accepted once. Without a valid proof the
--   answer is PT428 (HTTP 428), and the form solves and resends by itself.
--   Requests above the threshold are e-mailed to the practice in a digest
--   (booking_notifications.digest, 20261201000200_notifications.sql) instead of
--   one by one, and a 'flood' alert is left once an hour while it lasts.
-- Counts are taken under a transaction-level lock, so that requests arriving
-- together cannot all pass the last slot.
--
-- The limits are one row of app_private.booking_limits; 0 switches a limit off.
-- On hosted Supabase, change them with e.g.
--   update app_private.booking_limits set per_client_per_hour = 10;

create table app_private.booking_limits (
  singleton boolean primary key default true
    constraint booking_limits_singleton_check check (singleton),
  per_email_per_hour integer not null default 3
    constraint booking_limits_per_email_check check (per_email_per_hour >= 0),
  per_client_per_hour integer not null default 5
    constraint booking_limits_per_client_check check (per_client_per_hour >= 0),
  site_per_hour integer not null default 20
    constraint booking_limits_site_check check (site_per_hour >= 0),
  proof_max_number integer not null default 20000
    constraint booking_limits_proof_max_number_check
      check (proof_max_number between 1000 and 10000000)
);

comment on table app_private.booking_limits is
  'Requests the public may send in an hour per client network and per e-mail address from one network (0 = no limit), and how many the whole site takes in an hour before each new one must carry a proof of work (0 = never), and how hard that proof is.';
comment on column app_private.booking_limits.site_per_hour is
  'Requests in the last hour above which each new one must carry a proof of work; 0 = never asked.';
comment on column app_private.booking_limits.proof_max_number is
  'The largest secret number of a proof-of-work challenge: a browser tries half of them on average.';

insert into app_private.booking_limits (singleton) values (true);
alter table app_private.booking_limits enable row level security;
revoke all on app_private.booking_limits from public, anon, authenticated, service_role;

-- The client network and a digest of the e-mail address (not the address
-- itself) of the last hour's accepted requests, kept only to count them: rows
-- older than an hour are deleted as new ones arrive.
create table app_private.booking_clients (
  network text not null,
  created_at timestamptz not null default now(),
  email_digest text
);

comment on table app_private.booking_clients is
  'The client network (IPv4 address, IPv6 /56 or ''unknown'') and a digest of the e-mail address of each booking request of the last hour, for the limits per network.';

create index booking_clients_network_idx
  on app_private.booking_clients (network, created_at);
create index booking_clients_created_at_idx
  on app_private.booking_clients (created_at);
alter table app_private.booking_clients enable row level security;
revoke all on app_private.booking_clients from public, anon, authenticated, service_role;

-- The key that signs challenges. anon has no privilege on app_private.
create table app_private.booking_proof_key (
  singleton boolean primary key default true
    constraint booking_proof_key_singleton_check check (singleton),
  hmac_key bytea not null default extensions.gen_random_bytes(32)
);
comment on table app_private.booking_proof_key is
  'The secret that signs proof-of-work challenges, so that only challenges this database issued are accepted.';
insert into app_private.booking_proof_key (singleton) values (true);
alter table app_private.booking_proof_key enable row level security;
revoke all on app_private.booking_proof_key from public, anon, authenticated, service_role;

-- Challenges already used, kept until they expire, so that each is accepted once.
create table app_private.booking_proofs_used (
  challenge text primary key,
  expires_at timestamptz not null
);
comment on table app_private.booking_proofs_used is
  'The challenges of accepted proofs of work, until they expire: a proof is accepted once.';
create index booking_proofs_used_expires_at_idx
  on app_private.booking_proofs_used (expires_at);
alter table app_private.booking_proofs_used enable row level security;
revoke all on app_private.booking_proofs_used from public, anon, authenticated, service_role;

-- The client network of the request being handled: an IPv4 address, the /56 of
-- an IPv6 address, or 'unknown' when `cf-connecting-ip` is missing or is not an
-- address.
create function app_private.request_client_network()
returns text
language plpgsql
stable
set search_path = ''
as $$
declare
  headers json;
  address text;
  parsed inet;
begin
  begin
    headers := nullif(current_setting('request.headers', true), '')::json;
    address := btrim(headers ->> 'cf-connecting-ip');
    parsed := address::inet;
  exception when others then
    return 'unknown';
  end;
  -- A client has one address, not a range ("192.0.2.0/24" parses as inet).
  if parsed is null or masklen(parsed) <> (case family(parsed) when 4 then 32 else 128 end) then
    return 'unknown';
  end if;
  if family(parsed) = 4 then
    return host(parsed);
  end if;
  -- An IPv4 client seen through an IPv6 socket (::ffff:192.0.2.1).
  if parsed << '::ffff:0:0/96'::inet then
    return host(('0.0.0.0'::inet + (parsed - '::ffff:0:0'::inet)));
  end if;
  -- A UK home connection is given a /56: count it as one network.
  return network(set_masklen(parsed, 56))::text;
end;
$$;

comment on function app_private.request_client_network() is
  'The client network of the current API request from request.headers ->> cf-connecting-ip: an IPv4 address, an IPv6 /56, or ''unknown''.';
revoke all on function app_private.request_client_network() from public, anon, authenticated, service_role;

-- A challenge for the browser to solve (ALTCHA v1): the SHA-256 of a random
-- salt, which carries its expiry, followed by a secret number from 0 to
-- proof_max_number, signed with HMAC-SHA-256.
create function public.booking_challenge()
returns json
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  key bytea;
  max_number integer;
  salt text;
  secret_number bigint;
  challenge text;
begin
  select hmac_key into key from app_private.booking_proof_key where singleton;
  select proof_max_number into max_number from app_private.booking_limits where singleton;
  salt := encode(extensions.gen_random_bytes(12), 'hex')
    || '?expires=' || floor(extract(epoch from now() + interval '10 minutes'))::bigint || '&';
  secret_number := ('x' || encode(extensions.gen_random_bytes(4), 'hex'))::bit(32)::bigint
    % (max_number + 1);
  challenge := encode(extensions.digest(convert_to(salt || secret_number, 'UTF8'), 'sha256'), 'hex');
  return json_build_object(
    'algorithm', 'SHA-256',
    'challenge', challenge,
    'maxnumber', max_number,
    'salt', salt,
    'signature', encode(extensions.hmac(convert_to(challenge, 'UTF8'), key, 'sha256'), 'hex')
  );
end;
$$;

comment on function public.booking_challenge() is
  'A proof-of-work challenge (ALTCHA v1) for a booking request sent while the site is flooded.';
revoke all on function public.booking_challenge() from public;
grant execute on function public.booking_challenge() to anon, authenticated, service_role;

-- Whether `payload` (ALTCHA v1: base64 of {algorithm, challenge, number, salt,
-- signature}) solves a challenge this database issued, not expired and not
-- used before; if so, it is recorded as used (within the caller's transaction,
-- so a request refused later leaves it unused).
create function app_private.accept_booking_proof(payload text)
returns boolean
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  proof json;
  challenge text;
  salt text;
  solved text;
  expires bigint;
  key bytea;
begin
  if payload is null or char_length(payload) > 2000 then
    return false;
  end if;
  begin
    proof := convert_from(decode(btrim(payload), 'base64'), 'UTF8')::json;
    if json_typeof(proof) <> 'object' then
      return false;
    end if;
    challenge := proof ->> 'challenge';
    salt := proof ->> 'salt';
    solved := proof ->> 'number';
    expires := substring(salt from '[?&]expires=([0-9]{1,12})(&|$)')::bigint;
  exception when others then
    return false;
  end;
  if proof ->> 'algorithm' is distinct from 'SHA-256'
    or challenge !~ '^[0-9a-f]{64}$'
    or solved !~ '^[0-9]{1,10}$'
    or expires is null or to_timestamp(expires) <= now()
  then
    return false;
  end if;
  select hmac_key into key from app_private.booking_proof_key where singleton;
  if encode(extensions.hmac(convert_to(challenge, 'UTF8'), key, 'sha256'), 'hex')
      is distinct from lower(proof ->> 'signature')
    or encode(extensions.digest(convert_to(salt || solved, 'UTF8'), 'sha256'), 'hex') <> challenge
  then
    return false;
  end if;
  delete from app_private.booking_proofs_used where expires_at <= now();
  insert into app_private.booking_proofs_used (challenge, expires_at)
    values (challenge, to_timestamp(expires))
    on conflict do nothing;
  return found;
end;
$$;

comment on function app_private.accept_booking_proof(text) is
  'Checks an ALTCHA v1 proof of work against the signing key, its expiry and the proofs already used, and records it as used.';
revoke all on function app_private.accept_booking_proof(text) from public, anon, authenticated, service_role;

create function app_private.limit_booking_requests()
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
  if limits.per_client_per_hour = 0 and limits.per_email_per_hour = 0 and limits.site_per_hour = 0 then
    return null;
  end if;
  -- Requests arriving together take turns here, so each counts the others.
  perform pg_advisory_xact_lock(4737151020251123);

  select id, email into request from new_requests;
  client := app_private.request_client_network();
  requester := encode(extensions.digest(convert_to(lower(request.email), 'UTF8'), 'sha256'), 'hex');
  delete from app_private.booking_clients where created_at <= now() - interval '1 hour';
  -- The client counts are taken before this request is recorded.
  if (limits.per_client_per_hour > 0 and (
        select count(*) from app_private.booking_clients c where c.network = client
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

  -- The site count includes this request.
  select count(*) into site_count from public.bookings
    where created_at > now() - interval '1 hour';
  flooded := limits.site_per_hour > 0 and site_count > limits.site_per_hour;
  if flooded and not app_private.accept_booking_proof(
    nullif(current_setting('request.headers', true), '')::json ->> 'x-booking-proof'
  ) then
    raise exception using
      errcode = 'PT428',
      message = 'This booking request needs a proof of work',
      hint = 'The booking form computes it by itself. Fetch a challenge from rpc/booking_challenge, solve it and send the solution in the X-Booking-Proof header.';
  end if;

  insert into app_private.booking_clients (network, email_digest) values (client, requester);
  if flooded then
    update app_private.booking_notifications set digest = true where booking_id = request.id;
    -- Tell the practice once an hour while the flood lasts.
    if not exists (
      select 1 from app_private.booking_alerts
      where kind = 'flood' and created_at > now() - interval '1 hour'
    ) then
      insert into app_private.booking_alerts (kind, details)
        values ('flood', jsonb_build_object('threshold', limits.site_per_hour));
    end if;
  end if;
  return null;
end;
$$;

comment on function app_private.limit_booking_requests() is
  'Refuses a public insert of several rows and public requests over the limits per network; above the site''s hourly threshold, asks for a proof of work and sends the request to the digest.';
revoke all on function app_private.limit_booking_requests() from public, anon, authenticated, service_role;

create trigger bookings_limit
  after insert on public.bookings
  referencing new table as new_requests
  for each statement execute function app_private.limit_booking_requests();
