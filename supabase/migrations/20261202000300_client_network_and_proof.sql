-- A request without a readable client address no longer closes the form, and
-- the proof of work is bound to the network that asked for it.
--
-- - An address written with its port (`198.51.100.7:443`, `[2001:db8::4]:443`)
--   or in brackets (`[2001:db8::4]`) in `cf-connecting-ip` is read as the
--   address it names, as this project's server reads X-Forwarded-For.
-- - A request whose address is missing or unreadable (network 'unknown')
--   always needs a proof of work (unless every limit is switched off), and its shared bucket holds as many requests
--   an hour as the whole site takes before it asks everyone for one
--   (greatest(site_per_hour, per_client_per_hour): 20 by default), instead of
--   one network's 5: a person, or one misconfigured gateway, no longer turns
--   every visitor away, and a robot must pay a proof for each request it puts
--   in the bucket. The first such request of an hour leaves the practice a
--   'no_client_address' alert: it means the proxy or gateway setting is wrong.
-- - A challenge carries, in its signed salt, the network it was issued to and
--   an expiry 2 minutes on; a proof is accepted only from that network and
--   only with an expiry at most 2 minutes ahead (so the 10-minute challenges
--   issued before this migration are refused too).
-- - Above the site's hourly threshold the challenge's largest number grows with
--   the hour's count, proof_max_number × count / site_per_hour, up to 60,000
--   (or proof_max_number, if set higher): about 3 seconds on a mid-range phone
--   (docs/limits.md gives the measurements).
-- - Above the threshold an IPv6 client counts per /48 as well as per /56, so a
--   flooder holding a /48 gets one network's limit, not 256.
--
-- Same signatures as before: PostgREST and the triggers call them unchanged.

alter table app_private.booking_alerts
  drop constraint booking_alerts_kind_check,
  add constraint booking_alerts_kind_check
    check (kind in ('flood', 'notification_failing', 'acknowledgement_refused', 'no_client_address'));

comment on table app_private.booking_alerts is
  'Alerts for the practice (a flood of requests, or requests without a client address, once an hour while they last; a notification failing for too long; a visitor''s address refusing the acknowledgement), each sent once by the notifier.';

-- The practice hears of requests without a client address at once, as of a flood.
drop trigger booking_alerts_wake_function on app_private.booking_alerts;
create constraint trigger booking_alerts_wake_function
  after insert on app_private.booking_alerts
  deferrable initially deferred
  for each row
  when (new.kind in ('flood', 'no_client_address'))
  execute function app_private.wake_notify_function();

create or replace function app_private.request_client_network()
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
    -- [2001:db8::4], [2001:db8::4]:443 and 198.51.100.7:443 name an address
    -- with the brackets or the port that some gateways write.
    address := coalesce(
      substring(address from '^\[([^]]*)\](?::[0-9]{1,5})?$'),
      substring(address from '^([0-9.]+):[0-9]{1,5}$'),
      address
    );
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

-- A challenge for the browser to solve (ALTCHA v1): the SHA-256 of a random
-- salt, which carries its expiry and the client's network, followed by a
-- secret number, signed with HMAC-SHA-256. The signature covers the salt
-- through the hash, so neither can be changed.
create or replace function public.booking_challenge()
returns json
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  -- What a mid-range phone searches in about 3 seconds (docs/limits.md).
  hardest constant integer := 60000;
  key bytea;
  limits app_private.booking_limits;
  site_count bigint;
  max_number integer;
  salt text;
  secret_number bigint;
  challenge text;
begin
  select hmac_key into key from app_private.booking_proof_key where singleton;
  select * into limits from app_private.booking_limits where singleton;
  max_number := limits.proof_max_number;
  if limits.site_per_hour > 0 then
    select count(*) into site_count from public.bookings
      where created_at > now() - interval '1 hour';
    if site_count > limits.site_per_hour then
      max_number := least(
        greatest(hardest, limits.proof_max_number),
        limits.proof_max_number::bigint * site_count / limits.site_per_hour
      );
    end if;
  end if;
  salt := encode(extensions.gen_random_bytes(12), 'hex')
    || '?expires=' || floor(extract(epoch from now() + interval '2 minutes'))::bigint
    || '&network=' || app_private.request_client_network() || '&';
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

-- Whether `payload` (ALTCHA v1: base64 of {algorithm, challenge, number, salt,
-- signature}) solves a challenge this database issued to the network of the
-- current request, not expired and not used before; if so, it is recorded as
-- used (within the caller's transaction, so a request refused later leaves it
-- unused).
create or replace function app_private.accept_booking_proof(payload text)
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
  network text;
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
    network := substring(salt from '[?&]network=([^&]*)(&|$)');
  exception when others then
    return false;
  end;
  if proof ->> 'algorithm' is distinct from 'SHA-256'
    or challenge !~ '^[0-9a-f]{64}$'
    or solved !~ '^[0-9]{1,10}$'
    or expires is null or to_timestamp(expires) <= now()
    -- No challenge lives longer than 2 minutes, those issued before this rule included.
    or to_timestamp(expires) > now() + interval '2 minutes'
    or network is distinct from app_private.request_client_network()
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
  'Checks an ALTCHA v1 proof of work against the signing key, its expiry, the network it was issued to and the proofs already used, and records it as used.';

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
  -- Requests without an address mean the proxy or gateway setting is wrong:
  -- tell the practice once an hour while they keep coming.
  if unknown_client and not exists (
    select 1 from app_private.booking_alerts
    where kind = 'no_client_address' and created_at > now() - interval '1 hour'
  ) then
    insert into app_private.booking_alerts (kind) values ('no_client_address');
  end if;
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
  'Refuses a public insert of several rows and public requests over the limits per network; asks a request without a client address, and every request above the site''s hourly threshold, for a proof of work; sends the latter to the digest.';
