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

create table if not exists app_private.booking_answers (
  booking_id uuid primary key references public.bookings (id) on delete cascade,
  answered_at timestamptz not null default now(),
  -- How the practice answered, when it says: e-mail, Instagram, phone, ...
  channel text
    constraint booking_answers_channel_check
      check (channel in ('email', 'instagram', 'phone', 'whatsapp', 'sms', 'other')),
  -- Who marked it: the link in the e-mail, the command, or this migration.
  marked_by text not null default 'link'
    constraint booking_answers_marked_by_check
      check (marked_by in ('link', 'command', 'migration'))
);

comment on table app_private.booking_answers is
  'When the practice answered each booking request (a request without a row here is waiting), and how, if it said.';

alter table app_private.booking_answers enable row level security;
revoke all on app_private.booking_answers from public, anon, authenticated, service_role;

-- Requests whose reply-by time passed before answers were recorded were
-- answered, or not, outside this table: they are not shown as late for ever.
-- Those of the last 24 hours stay waiting.
insert into app_private.booking_answers (booking_id, answered_at, marked_by)
  select id, created_at + interval '24 hours', 'migration' from public.bookings
  where created_at < now() - interval '24 hours'
  on conflict (booking_id) do nothing;

-- The key of the answer links, where there is no Vault.
create table if not exists app_private.answer_link_key (
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
insert into app_private.answer_link_key (singleton) values (true)
  on conflict (singleton) do nothing;

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
create or replace function app_private.answer_link_key()
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
create or replace function app_private.answer_token(
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
create or replace function public.mark_booking_answered(token text)
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
