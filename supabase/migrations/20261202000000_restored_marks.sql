-- What `npx hijama restore` records when it loads a backup written by release
-- 1.0.0. Such a backup held the requests, their notifications, the alerts and
-- the limits, but not which requests were answered, reminded or acknowledged,
-- nor which day's summary had gone. Without a record, a restored database would
-- chase every old request as late and e-mail every recent visitor again; so the
-- restore records what the practice had surely done by the time of the backup
-- (server/db/backup.ts, settleRelease100Backup), marked as such:
-- - 'restore' in booking_answers.marked_by: a request older than the reply
--   window when the backup was made, taken as answered then;
-- - 'restored' in booking_acknowledgements.state: a request from before the
--   backup, whose acknowledgement was decided then (sent or not, it is not
--   sent again).

alter table app_private.booking_answers
  drop constraint booking_answers_marked_by_check,
  add constraint booking_answers_marked_by_check
    check (marked_by in ('link', 'command', 'restore'));

alter table app_private.booking_acknowledgements
  drop constraint booking_acknowledgements_state_check,
  add constraint booking_acknowledgements_state_check
    check (state in ('sending', 'sent', 'limited', 'refused', 'expired', 'restored'));
