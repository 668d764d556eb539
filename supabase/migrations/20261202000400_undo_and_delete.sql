-- The practitioner runs the practice from her phone, so a mark made by a slip
-- of the thumb can be taken back, and a request can be erased whole.
--
-- public.unmark_booking_answered(token): the "Undo" of the answer page, with
-- the token of the same signed link and the same refusals as
-- public.mark_booking_answered (PT403, PT410, PT404). The request waits again.
-- `npx hijama answer REF --undo` does the same as the tables' owner.
--
-- `npx hijama delete REF --yes` erases one request, for a UK GDPR erasure
-- request, a test booking or spam. Its own rows (notification, answer,
-- reminder, acknowledgement) go with it by their foreign keys; a trigger takes
-- its id out of the flood digests and the alerts, which hold it without one.

-- The checks of an answer link's token, shared by marking and unmarking: the
-- request's id, or an exception with the code PostgREST turns into a status.
create function app_private.answer_token_booking(token text)
returns uuid
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  parts text[] := string_to_array(coalesce(token, ''), '.');
  booking uuid;
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
  if to_timestamp(parts[2]::bigint) <= now() then
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
  return booking;
end;
$$;

comment on function app_private.answer_token_booking(text) is
  'The booking request of a signed answer link, or PT403 (not signed here), PT410 (expired), PT404 (deleted).';
revoke all on function app_private.answer_token_booking(text) from public, anon, authenticated, service_role;

-- Marking takes the same checks from here on, so that the two never differ.
create or replace function public.mark_booking_answered(token text)
returns json
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  booking uuid := app_private.answer_token_booking(token);
  answer app_private.booking_answers;
begin
  insert into app_private.booking_answers (booking_id) values (booking)
    on conflict (booking_id) do nothing;
  select * into answer from app_private.booking_answers a where a.booking_id = booking;
  return json_build_object(
    'reference', upper(left(replace(booking::text, '-', ''), 8)),
    'answered_at', answer.answered_at
  );
end;
$$;

-- Takes back the mark of the request of `token`: it waits again. Twice is
-- harmless; `was_answered` says whether there was a mark to take back.
create function public.unmark_booking_answered(token text)
returns json
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  booking uuid := app_private.answer_token_booking(token);
  removed integer;
begin
  delete from app_private.booking_answers a where a.booking_id = booking;
  get diagnostics removed = row_count;
  return json_build_object(
    'reference', upper(left(replace(booking::text, '-', ''), 8)),
    'was_answered', removed > 0
  );
end;
$$;

comment on function public.unmark_booking_answered(text) is
  'Takes back the answered mark of the booking request of a signed answer link (idempotent): the "Undo" of the answer page.';
revoke all on function public.unmark_booking_answered(text) from public;
grant execute on function public.unmark_booking_answered(text) to anon, authenticated, service_role;

-- The ids of deleted requests leave the rows that hold them without a foreign
-- key, however they were deleted: by `npx hijama delete`, the retention purge,
-- or the table API with the service key.
create function app_private.forget_deleted_bookings()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  gone uuid[];
begin
  select coalesce(array_agg(erased.id), '{}') into gone from erased;
  update app_private.flood_digests d
     set booking_ids = array(select id from unnest(d.booking_ids) as id where id <> all (gone))
   where d.booking_ids && gone;
  -- An alert about one of them alone goes; one about several keeps the others.
  delete from app_private.booking_alerts a
   where a.kind = 'acknowledgement_refused' and (a.details ->> 'booking_id')::uuid = any (gone);
  update app_private.booking_alerts a
     set details = jsonb_set(a.details, '{notifications}', coalesce(
           (select jsonb_agg(n) from jsonb_array_elements(a.details -> 'notifications') n
             where (n ->> 'booking_id')::uuid <> all (gone)), '[]'::jsonb))
   where a.kind = 'notification_failing'
     and exists (select 1 from jsonb_array_elements(a.details -> 'notifications') n
                  where (n ->> 'booking_id')::uuid = any (gone));
  delete from app_private.booking_alerts a
   where a.kind = 'notification_failing' and a.details -> 'notifications' = '[]'::jsonb;
  return null;
end;
$$;

comment on function app_private.forget_deleted_bookings() is
  'Takes the ids of deleted booking requests out of the flood digests and the alerts, which hold them without a foreign key.';
revoke all on function app_private.forget_deleted_bookings() from public, anon, authenticated, service_role;

create trigger bookings_forget_deleted
  after delete on public.bookings
  referencing old table as erased
  for each statement
  execute function app_private.forget_deleted_bookings();
