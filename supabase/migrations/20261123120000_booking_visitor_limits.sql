-- Limits per visitor, kept by the database for every way in (this project's
-- server and hosted Supabase's REST API), replacing the checks of
-- 20261123000100_booking_abuse_limits.sql, which ran before a row's own checks
-- and so told a stranger whether an address had booked.
--
-- For the public roles (anon, authenticated), after every other check has
-- passed (an AFTER STATEMENT trigger, which sees the statement's rows):
-- - one booking request per request: a statement of several rows is refused
--   (PT400); the service key may still insert several;
-- - at most `per_client_per_hour` requests in an hour from one client network:
--   an IPv4 address, or the /64 of an IPv6 address. The client's address is read
--   from the request's headers, which PostgREST exposes as the setting
--   `request.headers` (hosted Supabase: `cf-connecting-ip`; this project's
--   server sets `x-real-ip` for every insert). Without a readable address this
--   limit does not apply; the others do;
-- - at most `per_email_per_hour` requests for one e-mail address in an hour;
-- - at most `site_per_hour` requests in an hour for the whole site: a flood
--   guard far above what one client may send, so that no single client can
--   close the form for everyone. The request that reaches it leaves one alert
--   for the practice (app_private.booking_alerts), not one per refusal.
-- Every limit answers the same code and message (PT429, HTTP 429), so that a
-- refusal never says which limit, nor whether an e-mail address has booked.
-- Counts are taken under a transaction-level lock, so that requests arriving
-- together cannot all pass the last slot. 0 switches a limit off.
--
-- On hosted Supabase, change the limits with e.g.
--   update app_private.booking_limits set per_client_per_hour = 10;

alter table app_private.booking_limits
  add column if not exists per_client_per_hour integer not null default 5
    constraint booking_limits_per_client_check check (per_client_per_hour >= 0),
  add column if not exists site_per_hour integer not null default 60
    constraint booking_limits_site_check check (site_per_hour >= 0),
  drop column if exists per_minute;

comment on table app_private.booking_limits is
  'How many booking requests the public may send in an hour per client network, per e-mail address and in all; 0 = no limit.';

-- The client networks of the last hour's accepted requests, kept only to count
-- them: rows older than an hour are deleted as new ones arrive.
create table if not exists app_private.booking_clients (
  network text not null,
  created_at timestamptz not null default now()
);

comment on table app_private.booking_clients is
  'The client network (IPv4 address or IPv6 /64) of each booking request of the last hour, for the per-client limit.';

create index if not exists booking_clients_network_idx
  on app_private.booking_clients (network, created_at);
create index if not exists booking_clients_created_at_idx
  on app_private.booking_clients (created_at);
alter table app_private.booking_clients enable row level security;
revoke all on app_private.booking_clients from public, anon, authenticated, service_role;

-- Messages for the practice about the booking form itself, sent by the notifier.
create table if not exists app_private.booking_alerts (
  id bigint generated always as identity primary key,
  kind text not null
    constraint booking_alerts_kind_check check (kind in ('site_limit_reached')),
  created_at timestamptz not null default now(),
  sent_at timestamptz,
  last_error text
    constraint booking_alerts_last_error_check check (char_length(last_error) <= 1000)
);

comment on table app_private.booking_alerts is
  'Alerts for the practice (the site-wide limit reached), each sent once by the notifier.';

create index if not exists booking_alerts_unsent_idx
  on app_private.booking_alerts (created_at) where sent_at is null;
alter table app_private.booking_alerts enable row level security;
revoke all on app_private.booking_alerts from public, anon, authenticated, service_role;

-- The client network of the request being handled, or null when the request
-- carries no readable address (a connection that is not an API request).
create or replace function app_private.request_client_network()
returns text
language plpgsql
stable
set search_path = ''
as $$
declare
  headers json := nullif(current_setting('request.headers', true), '')::json;
  address text;
  parsed inet;
begin
  address := btrim(coalesce(
    headers ->> 'cf-connecting-ip',
    headers ->> 'x-real-ip',
    split_part(headers ->> 'x-forwarded-for', ',', 1)
  ));
  if address is null or address = '' then
    return null;
  end if;
  begin
    parsed := address::inet;
  exception when others then
    return null;
  end;
  if family(parsed) = 4 then
    return host(parsed);
  end if;
  -- An IPv4 client seen through an IPv6 socket (::ffff:192.0.2.1).
  if parsed << '::ffff:0:0/96'::inet then
    return host(('0.0.0.0'::inet + (parsed - '::ffff:0:0'::inet)));
  end if;
  -- One IPv6 subscriber usually holds a whole /64: count it as one client.
  return network(set_masklen(parsed, 64))::text;
end;
$$;

comment on function app_private.request_client_network() is
  'The client address of the current API request (IPv4, or the /64 of IPv6) from request.headers.';

revoke all on function app_private.request_client_network() from public, anon, authenticated, service_role;

-- The honeypot stays; the limits move to the statement trigger below.
create or replace function app_private.screen_booking()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  -- A bot filled the field people cannot see: answer as if stored, store nothing.
  if nullif(btrim(new.website), '') is not null then
    return null;
  end if;
  new.website := null;
  return new;
end;
$$;

comment on function app_private.screen_booking() is
  'Drops honeypot requests (answered as stored, stored nowhere).';

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
  site_count integer;
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

  select email into request from new_requests;
  client := app_private.request_client_network();
  -- Each count includes the new request (or, for clients, is taken before it is recorded).
  select count(*) into site_count from public.bookings
    where created_at > now() - interval '1 hour';
  if (limits.per_client_per_hour > 0 and client is not null and (
        select count(*) from app_private.booking_clients c
        where c.network = client and c.created_at > now() - interval '1 hour'
      ) >= limits.per_client_per_hour)
    or (limits.per_email_per_hour > 0 and (
        select count(*) from public.bookings b
        where lower(b.email) = lower(request.email) and b.created_at > now() - interval '1 hour'
      ) > limits.per_email_per_hour)
    or (limits.site_per_hour > 0 and site_count > limits.site_per_hour)
  then
    raise exception using
      errcode = 'PT429',
      message = 'Too many booking requests',
      hint = 'Please try again later. If you have already sent a request, we have it and will reply within 24 hours.';
  end if;

  if client is not null then
    delete from app_private.booking_clients where created_at <= now() - interval '1 hour';
    insert into app_private.booking_clients (network) values (client);
  end if;
  -- This request takes the last place of the hour: tell the practice once.
  if limits.site_per_hour > 0 and site_count = limits.site_per_hour and not exists (
    select 1 from app_private.booking_alerts
    where kind = 'site_limit_reached' and created_at > now() - interval '1 hour'
  ) then
    insert into app_private.booking_alerts (kind) values ('site_limit_reached');
  end if;
  return null;
end;
$$;

comment on function app_private.limit_booking_requests() is
  'Refuses a public insert of several rows, and public requests over the limits of app_private.booking_limits.';

revoke all on function app_private.limit_booking_requests() from public, anon, authenticated, service_role;

drop trigger if exists bookings_limit on public.bookings;
create trigger bookings_limit
  after insert on public.bookings
  referencing new table as new_requests
  for each statement execute function app_private.limit_booking_requests();
