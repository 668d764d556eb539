-- A request of many rows (a JSON array to PostgREST) is refused at its second
-- row, before that row is checked, stored and queued. bookings_limit refuses it
-- too, but only after the statement, once every row has passed the checks and
-- been stored and queued: an array of thousands cost the database seconds and
-- left thousands of dead rows, charged to no limit. The rows of one statement
-- share its statement_timestamp(), the time its client's message came: a
-- second statement sent alone has another (PostgREST and this project's server
-- send each insert alone), several sent in one message would share it.

create function app_private.refuse_second_booking_row()
returns trigger
language plpgsql
set search_path = ''
as $$
declare
  statement_started text := statement_timestamp()::text;
begin
  if current_setting('role', true) in ('anon', 'authenticated') then
    if current_setting('hijama.booking_row_of', true) = statement_started then
      raise exception using
        errcode = 'PT400',
        message = 'Send one booking request at a time',
        hint = 'Send each booking as a JSON object of its own.';
    end if;
    perform set_config('hijama.booking_row_of', statement_started, true);
  end if;
  return new;
end;
$$;

-- Row triggers fire in the order of their names: this one first.
create trigger bookings_0_one_row
  before insert on public.bookings
  for each row execute function app_private.refuse_second_booking_row();
