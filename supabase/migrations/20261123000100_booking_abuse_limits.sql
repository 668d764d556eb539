-- Limits on booking requests, kept by the database so that they hold for every
-- way in: this project's server and hosted Supabase's REST API alike.
--
-- - A honeypot: the form has a field people never see or fill (`website`). A
--   request that fills it is answered as if stored (201) and stored nowhere.
-- - At most `per_email_per_hour` requests for one e-mail address in an hour, and
--   at most `per_minute` requests in a minute for the whole site: a flood of
--   bots cannot fill the table or the practice's inbox. Both answer HTTP 429
--   (PostgREST turns SQLSTATE PTxyz into status xyz).
--
-- The limits are one row of app_private.booking_limits; 0 switches a limit off.
-- On hosted Supabase, change them with:
--   update app_private.booking_limits set per_minute = 60;

create schema if not exists app_private;
revoke all on schema app_private from public, anon, authenticated, service_role;

create table if not exists app_private.booking_limits (
  singleton boolean primary key default true
    constraint booking_limits_singleton_check check (singleton),
  per_email_per_hour integer not null default 3
    constraint booking_limits_per_email_check check (per_email_per_hour >= 0),
  per_minute integer not null default 30
    constraint booking_limits_per_minute_check check (per_minute >= 0)
);

comment on table app_private.booking_limits is
  'How many booking requests the database accepts per e-mail address per hour and per minute in all; 0 = no limit.';

insert into app_private.booking_limits (singleton) values (true) on conflict (singleton) do nothing;
alter table app_private.booking_limits enable row level security;
revoke all on app_private.booking_limits from public, anon, authenticated, service_role;

-- The honeypot. Never stored: the trigger below empties or drops it.
alter table public.bookings add column if not exists website text;
grant insert (website) on public.bookings to anon;

create index if not exists bookings_email_created_at_idx on public.bookings (lower(email), created_at desc);

create or replace function app_private.screen_booking()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  limits app_private.booking_limits;
begin
  -- A bot filled the field people cannot see: answer as if stored, store nothing.
  if nullif(btrim(new.website), '') is not null then
    return null;
  end if;
  new.website := null;

  -- A retry of a request already stored (same id) is not a new request: let the
  -- unique key answer it (409), which the site takes as success.
  if exists (select 1 from public.bookings where id = new.id) then
    return new;
  end if;

  select * into limits from app_private.booking_limits where singleton;
  if limits.per_minute > 0 and (
    select count(*) from public.bookings where created_at > now() - interval '1 minute'
  ) >= limits.per_minute then
    raise exception using
      errcode = 'PT429',
      message = 'Too many booking requests at the moment',
      hint = 'Please try again in a few minutes.';
  end if;
  if limits.per_email_per_hour > 0 and (
    select count(*) from public.bookings
    where lower(email) = lower(new.email) and created_at > now() - interval '1 hour'
  ) >= limits.per_email_per_hour then
    raise exception using
      errcode = 'PT429',
      message = 'Too many booking requests for this e-mail address',
      hint = 'We have your earlier requests and will reply within 24 hours.';
  end if;
  return new;
end;
$$;

comment on function app_private.screen_booking() is
  'Drops honeypot requests and refuses requests over the limits of app_private.booking_limits.';

revoke all on function app_private.screen_booking() from public, anon, authenticated, service_role;

drop trigger if exists bookings_screen on public.bookings;
create trigger bookings_screen
  before insert on public.bookings
  for each row execute function app_private.screen_booking();
