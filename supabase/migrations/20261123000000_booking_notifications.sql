-- Notifications of new booking requests, waiting to be sent to the practice.
--
-- Every insert into public.bookings, whoever makes it (this project's server or
-- hosted Supabase's API), adds a row here in the same transaction, so a request
-- that was answered 201 always has its pending notification, even if the server
-- stops before sending it. The notifier (server/notifications) sends it by e-mail
-- and/or webhook, records each channel's success and retries with backoff.
--
-- The outbox lives in app_private, a schema the REST API never exposes (on
-- Supabase only `public` and `graphql_public` are exposed by default); the API
-- roles have no privilege on it. The trigger function runs as its owner
-- (security definer) with an empty search path, so an anonymous insert needs no
-- privilege here. Requests stored before this migration are not notified.

create schema if not exists app_private;
revoke all on schema app_private from public, anon, authenticated, service_role;

create table if not exists app_private.booking_notifications (
  booking_id uuid primary key references public.bookings (id) on delete cascade,
  created_at timestamptz not null default now(),
  -- Attempts started so far, including one in progress.
  attempts integer not null default 0
    constraint booking_notifications_attempts_check check (attempts >= 0),
  -- When the notification is due: its next retry, or the end of the lease of
  -- the notifier sending it now.
  next_attempt_at timestamptz not null default now(),
  -- The claim of the notifier sending it now; a notifier whose lease expired can
  -- no longer record anything.
  claimed_by uuid,
  email_sent_at timestamptz,
  webhook_sent_at timestamptz,
  -- Set once every configured channel has succeeded.
  completed_at timestamptz,
  last_error text
    constraint booking_notifications_last_error_check check (char_length(last_error) <= 1000)
);

comment on table app_private.booking_notifications is
  'One pending or sent notification per booking request, written by a trigger in the same transaction as the booking.';

create index if not exists booking_notifications_due_idx
  on app_private.booking_notifications (next_attempt_at)
  where completed_at is null;

alter table app_private.booking_notifications enable row level security;
revoke all on app_private.booking_notifications from public, anon, authenticated, service_role;

create or replace function app_private.enqueue_booking_notification()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into app_private.booking_notifications (booking_id) values (new.id);
  return null;
end;
$$;

comment on function app_private.enqueue_booking_notification() is
  'Adds the pending notification of a new booking request; runs as its owner so that anon needs no privilege on the outbox.';

revoke all on function app_private.enqueue_booking_notification()
  from public, anon, authenticated, service_role;

drop trigger if exists bookings_enqueue_notification on public.bookings;
create trigger bookings_enqueue_notification
  after insert on public.bookings
  for each row
  execute function app_private.enqueue_booking_notification();
