-- The field rules of supabase/functions/_shared/core/booking-rules.ts, in the database, so that a direct
-- insert through hosted Supabase is held to exactly what the form and the
-- server accept (server/db/field-rules-sql.test.ts compares the two):
--
-- - every field is trimmed of the same white space as in core (`trimmedSpace`:
--   what JavaScript's trim removes), by a trigger, before anything is checked;
-- - no field holds a control or format character (Unicode Cc, Cf) or a line or
--   paragraph separator (core's `hiddenCharacterRanges`);
-- - a phone needs at least 7 digits besides its other allowed characters;
-- - lengths count characters (code points), as `char_length` does.
--
-- The constraints are added `not valid`: rows stored under the earlier rules
-- stay as they are and readable; every new row is checked.

create or replace function app_private.trim_booking_text(value text)
returns text
language sql
immutable
strict
parallel safe
set search_path = ''
as $$
  select btrim(
    value,
    U&'\0009\000A\000B\000C\000D\0020\00A0\1680\2000\2001\2002\2003\2004\2005\2006\2007\2008\2009\200A\2028\2029\202F\205F\3000\FEFF'
  )
$$;

comment on function app_private.trim_booking_text(text) is
  'Trims the white space that JavaScript''s trim removes (supabase/functions/_shared/core/booking-rules.ts, trimmedSpace).';

create or replace function app_private.has_hidden_character(value text)
returns boolean
language sql
immutable
strict
parallel safe
set search_path = ''
as $$
  select value ~ U&'[\0001-\001F\007F-\009F\00AD\0600-\0605\061C\06DD\070F\0890-\0891\08E2\180E\200B-\200F\2028-\202E\2060-\2064\2066-\206F\FEFF\FFF9-\FFFB\+0110BD\+0110CD\+013430-\+01343F\+01BCA0-\+01BCA3\+01D173-\+01D17A\+0E0001\+0E0020-\+0E007F]'
$$;

comment on function app_private.has_hidden_character(text) is
  'Whether a text holds a character no person types (supabase/functions/_shared/core/booking-rules.ts, hiddenCharacterRanges).';

-- The check constraints call them as the inserting role.
revoke all on function app_private.trim_booking_text(text) from public;
revoke all on function app_private.has_hidden_character(text) from public;
grant execute on function app_private.trim_booking_text(text) to anon, authenticated, service_role;
grant execute on function app_private.has_hidden_character(text) to anon, authenticated, service_role;

create or replace function app_private.trim_booking()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  new.full_name := app_private.trim_booking_text(new.full_name);
  new.phone := app_private.trim_booking_text(new.phone);
  new.email := app_private.trim_booking_text(new.email);
  -- An optional field left empty is stored as null.
  new.instagram := nullif(app_private.trim_booking_text(new.instagram), '');
  return new;
end;
$$;

comment on function app_private.trim_booking() is
  'Trims every field of a new booking request as the form does, before the checks; runs as its owner so that anon needs no privilege on app_private.';

revoke all on function app_private.trim_booking() from public, anon, authenticated, service_role;

-- Named to run before bookings_screen (triggers of one event run in name order).
drop trigger if exists bookings_normalize on public.bookings;
create trigger bookings_normalize
  before insert on public.bookings
  for each row execute function app_private.trim_booking();

alter table public.bookings
  drop constraint if exists bookings_full_name_check,
  drop constraint if exists bookings_phone_check,
  drop constraint if exists bookings_email_check,
  drop constraint if exists bookings_instagram_check;

alter table public.bookings
  add constraint bookings_full_name_check check (
    full_name = app_private.trim_booking_text(full_name)
    and char_length(full_name) between 1 and 100
    and not app_private.has_hidden_character(full_name)
  ) not valid,
  add constraint bookings_phone_check check (
    phone = app_private.trim_booking_text(phone)
    and char_length(phone) between 10 and 30
    and phone ~ '^[0-9 +()-]+$'
    and char_length(regexp_replace(phone, '[^0-9]', '', 'g')) >= 7
  ) not valid,
  add constraint bookings_email_check check (
    email = app_private.trim_booking_text(email)
    and char_length(email) between 1 and 254
    and not app_private.has_hidden_character(email)
    and email ~ U&'^[^\0009-\000D\0020\00A0\1680\2000-\200A\2028\2029\202F\205F\3000\FEFF@]+@[^\0009-\000D\0020\00A0\1680\2000-\200A\2028\2029\202F\205F\3000\FEFF@]+[.][^\0009-\000D\0020\00A0\1680\2000-\200A\2028\2029\202F\205F\3000\FEFF@]+$'
  ) not valid,
  add constraint bookings_instagram_check check (
    instagram is null or (
      instagram = app_private.trim_booking_text(instagram)
      and char_length(instagram) between 1 and 60
      and not app_private.has_hidden_character(instagram)
    )
  ) not valid;
