-- A request of many rows is still refused at its second row, but told from two
-- requests by a count that each statement starts again, not by its
-- statement_timestamp() (20261205000000_one_row_first.sql): PGlite's clock
-- counts milliseconds, so two inserts of one transaction within one shared it,
-- and the second was refused as a second row.

create function app_private.start_booking_statement()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  perform set_config('hijama.booking_rows', '0', true);
  return null;
end;
$$;

create trigger bookings_0_one_statement
  before insert on public.bookings
  for each statement execute function app_private.start_booking_statement();

create or replace function app_private.refuse_second_booking_row()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if current_setting('role', true) in ('anon', 'authenticated') then
    if current_setting('hijama.booking_rows', true) <> '0' then
      raise exception using
        errcode = 'PT400',
        message = 'Send one booking request at a time',
        hint = 'Send each booking as a JSON object of its own.';
    end if;
    perform set_config('hijama.booking_rows', '1', true);
  end if;
  return new;
end;
$$;
