-- A third channel, ntfy push, recorded on its own like the e-mail and the webhook.
--
-- A push to the practice's phone through ntfy (NOTIFY_NTFY_URL,
-- supabase/functions/_shared/notifications/ntfy.ts) does not depend on the e-mail account: when
-- the SMTP login breaks, the push still arrives, and the other way round. Each
-- channel's success is a column of its own, so that a retry sends only what
-- did not get through (supabase/functions/_shared/notifications/channel-names.ts names them).
-- A request notified before this column existed counts as sent: completed_at
-- is what says so, not the channels' columns.

alter table app_private.booking_notifications
  add column if not exists ntfy_sent_at timestamptz;

alter table app_private.flood_digests
  add column if not exists ntfy_sent_at timestamptz;

comment on column app_private.booking_notifications.ntfy_sent_at is
  'When the ntfy server accepted the push of this request; null until then, or when ntfy is not configured.';

comment on column app_private.flood_digests.ntfy_sent_at is
  'When the ntfy server accepted the push of this digest; null until then, or when ntfy is not configured.';
