-- What phones' keyboards and copying put into a request, which a visitor
-- sees as a valid name or number and could not correct, as the form now takes it
-- (core's booking-rules.ts; server/db/field-rules-sql.test.ts holds the two together).
--
-- A phone number: iOS wraps a copied number in direction marks and spaces it
-- with no-break spaces, word processors turn hyphens into dashes, an Arabic
-- or Persian keyboard types Arabic-Indic digits. Each such character is now
-- stored as its plain twin, the marks as nothing, before the checks (core's
-- `normalisePhone`).
--
-- A full name: Persian and Urdu keyboards put the zero-width non-joiner
-- (U+200C) inside words, and emoji sequences hold the joiner (U+200D). Both are
-- allowed in a name; every other hidden character is still refused.

create function app_private.phone_number(value text)
returns text
language sql
immutable
strict
parallel safe
set search_path = ''
as $$
  select translate(
    regexp_replace(value, U&'[\200E\200F\202A-\202E\2066-\2069]', '', 'g'),
    -- spaces, dashes, the digits of three scripts from 0 to 9, plus and parentheses
    U&'\00A0\2000\2001\2002\2003\2004\2005\2006\2007\2008\2009\200A\202F\205F\3000\2010\2011\2012\2013\2014\2015\2212\FE63\FF0D\0660\0661\0662\0663\0664\0665\0666\0667\0668\0669\06F0\06F1\06F2\06F3\06F4\06F5\06F6\06F7\06F8\06F9\FF10\FF11\FF12\FF13\FF14\FF15\FF16\FF17\FF18\FF19\FF0B\FF08\FF09',
    '               ---------012345678901234567890123456789+()'
  )
$$;

comment on function app_private.phone_number(text) is
  'The phone field as stored: direction marks dropped, no-break spaces, dashes and other scripts'' digits as their plain twins (supabase/functions/_shared/core/booking-rules.ts, normalisePhone).';

revoke all on function app_private.phone_number(text) from public, anon, authenticated, service_role;

-- As in 20261201000000_bookings.sql, with the phone's lookalikes made plain
-- between two trims (the form trims again after normalising).
create or replace function app_private.trim_booking()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  new.full_name := app_private.trim_booking_text(new.full_name);
  new.phone := app_private.trim_booking_text(
    app_private.phone_number(app_private.trim_booking_text(new.phone)));
  new.email := app_private.trim_booking_text(new.email);
  -- An optional field left empty is stored as null.
  new.instagram := nullif(
    app_private.instagram_handle(app_private.trim_booking_text(new.instagram)), '');
  return new;
end;
$$;

comment on function app_private.trim_booking() is
  'Trims every field of a new booking request, makes the phone''s lookalike characters plain and reduces the Instagram field to a user name, as the form does, before the checks; runs as its owner so that anon needs no privilege on app_private.';

alter table public.bookings
  drop constraint bookings_full_name_check,
  add constraint bookings_full_name_check check (
    full_name = app_private.trim_booking_text(full_name)
    and char_length(full_name) between 1 and 100
    and not app_private.has_hidden_character(translate(full_name, U&'\200C\200D', ''))
    and app_private.has_letter(full_name)
    and not app_private.has_more_marks_in_a_row(full_name, 4)
  );
