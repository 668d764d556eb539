/**
 * A booking request's short reference: the first 8 hex digits of its id,
 * upper-case (`5f0c2a8e-2f4b-…` → `5F0C2A8E`). Short enough to read out on the
 * phone or quote in a message, and the same in the practitioner's e-mail and in
 * `npm run bookings`. Among a few thousand requests two may share one; the id
 * stays the key.
 */
export function shortReference(id: string): string {
  return id.replaceAll('-', '').slice(0, 8).toUpperCase();
}
