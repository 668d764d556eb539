import { randomUUID } from 'node:crypto';
import { anonJsonHeaders } from './helpers.ts';

/**
 * The one sample booking of the tests, in each form they send or store it:
 * the fields, the JSON body, a row with an id, a POST to a server.
 */

/** The fields of a valid booking request, as the page sends them. */
export const sampleBooking = {
  full_name: 'Amina Khan',
  phone: '01634 123456',
  email: 'amina@example.com',
  instagram: null as string | null,
};

/** A valid booking request, `fields` over its own, as the page sends it. */
export const bookingBody = (fields: Record<string, unknown> = {}) =>
  JSON.stringify({ ...sampleBooking, ...fields });

/** A valid booking request with an id of its own, as core sends it, `fields` over its own. */
export const bookingWithId = <Fields extends object = object>(fields?: Fields) => ({
  id: randomUUID(),
  ...sampleBooking,
  ...fields,
});

/** Posts a booking request (see bookingBody) to the API of the server at `url`. */
export function postBooking(
  url: string,
  fields: Record<string, unknown> = {},
  init: RequestInit = {},
): Promise<Response> {
  return fetch(`${url}/rest/v1/bookings`, {
    method: 'POST',
    headers: anonJsonHeaders,
    body: bookingBody(fields),
    ...init,
  });
}
