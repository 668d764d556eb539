-- The Instagram field stored as a user name, whatever way it was typed.
--
-- Visitors type `@amina.k`, `Amina.K` or paste their profile's address from
-- the app (`https://www.instagram.com/amina.k/?igsh=…`). The practice needs
-- the user name, once, to open the profile and a chat: so a profile's address
-- is reduced to its user name, one leading `@` is dropped, and a user name
-- (letters, digits, `.` and `_`, at most 30) is lowered, Instagram's names
-- being case-insensitive. Anything else is kept as typed. This is
-- supabase/functions/_shared/core/booking-rules.ts's `normaliseInstagram`, which the form and the server
-- apply; the trigger applies it to every insert, hosted Supabase's included,
-- before the checks (so the length limit counts the user name, not the
-- address). server/db/field-rules-sql.test.ts compares the two. Rows stored
-- before stay as they are.

create or replace function app_private.instagram_handle(value text)
returns text
language sql
immutable
strict
parallel safe
set search_path = ''
as $$
  select app_private.trim_booking_text(
    case when handle ~ '^[A-Za-z0-9._]{1,30}$' then lower(handle) else handle end
  )
  from (
    select case when char_length(profile) > 1 and left(profile, 1) = '@'
             then substr(profile, 2) else profile end as handle
    from (
      -- In SQL's regular expressions `.` matches line breaks too, as `[\s\S]` does in core.
      select coalesce(
        (regexp_match(
          value,
          '^(?:https?://)?(?:www\.|m\.)?instagram\.com/([^/?#]+)/?(?:[?#].*)?$',
          'i'
        ))[1],
        value
      ) as profile
    ) as address
  ) as named
$$;

comment on function app_private.instagram_handle(text) is
  'The Instagram field as stored: a profile address reduced to its user name, no leading @, a user name in lowercase (supabase/functions/_shared/core/booking-rules.ts, normaliseInstagram).';

revoke all on function app_private.instagram_handle(text) from public, anon, authenticated, service_role;

-- As in 20261123110000_booking_field_rules.sql, with the Instagram field
-- normalised after it is trimmed.
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
  new.instagram := nullif(
    app_private.instagram_handle(app_private.trim_booking_text(new.instagram)), '');
  return new;
end;
$$;

comment on function app_private.trim_booking() is
  'Trims every field of a new booking request and reduces the Instagram field to a user name, as the form does, before the checks; runs as its owner so that anon needs no privilege on app_private.';

revoke all on function app_private.trim_booking() from public, anon, authenticated, service_role;
