-- Booking requests sent from the public site.
--
-- The one schema of the project: applied as it is by the project's own server
-- (on PGlite or PostgreSQL) and by `supabase db push` on hosted Supabase.
-- The check constraints repeat the limits of supabase/functions/_shared/core/booking-rules.ts so that a
-- direct insert through the public key cannot store what the form would refuse.

-- Supabase's API roles. Hosted Supabase already has them; elsewhere they are
-- created here, without login, for the server to switch into.
do $$
begin
  if not exists (select 1 from pg_roles where rolname = 'anon') then
    create role anon nologin noinherit;
  end if;
  if not exists (select 1 from pg_roles where rolname = 'authenticated') then
    create role authenticated nologin noinherit;
  end if;
  if not exists (select 1 from pg_roles where rolname = 'service_role') then
    create role service_role nologin noinherit bypassrls;
  end if;
exception
  -- Another database of the same cluster created the role at the same moment.
  when duplicate_object or unique_violation then null;
end
$$;

create table if not exists public.bookings (
  id uuid primary key default gen_random_uuid(),
  created_at timestamptz not null default now(),
  full_name text not null
    constraint bookings_full_name_check
    check (full_name = btrim(full_name) and char_length(full_name) between 1 and 100),
  phone text not null
    constraint bookings_phone_check
    check (phone = btrim(phone) and char_length(phone) between 10 and 30 and phone ~ '^[0-9 +()-]+$'),
  email text not null
    constraint bookings_email_check
    check (
      email = btrim(email)
      and char_length(email) <= 254
      and email ~ '^[^[:space:]@]+@[^[:space:]@]+\.[^[:space:]@]+$'
    ),
  instagram text
    constraint bookings_instagram_check
    check (instagram is null or (instagram = btrim(instagram) and char_length(instagram) between 1 and 60))
);

comment on table public.bookings is
  'Booking requests from the public site; the practice replies within 24 hours. Anonymous callers may insert, never read.';

create index if not exists bookings_created_at_idx on public.bookings (created_at desc);

alter table public.bookings enable row level security;

-- Anonymous visitors may insert a request and do nothing else. The columns are
-- named so that created_at always comes from the database clock.
revoke all on public.bookings from anon, authenticated;
grant usage on schema public to anon, authenticated, service_role;
grant insert (id, full_name, phone, email, instagram) on public.bookings to anon;
grant all on public.bookings to service_role;

drop policy if exists "Visitors can send a booking request" on public.bookings;
create policy "Visitors can send a booking request"
  on public.bookings
  for insert
  to anon
  with check (true);
