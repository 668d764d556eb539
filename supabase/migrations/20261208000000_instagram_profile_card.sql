-- The Instagram app's "share profile" link, instagram.com/<name>/profilecard/?igsh=…,
-- is reduced to its user name as the profile's own address is: it was kept whole, and
-- past the field's 60 characters it refused the booking. The same in core's
-- normaliseInstagram (supabase/functions/_shared/core/booking-rules.ts).

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
          '^(?:https?://)?(?:www\.|m\.)?instagram\.com/([^/?#]+)(?:/profilecard)?/?(?:[?#].*)?$',
          'i'
        ))[1],
        value
      ) as profile
    ) as address
  ) as named
$$;
