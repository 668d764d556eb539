import { encodeBookingProof } from '../../supabase/functions/_shared/core/booking-proof.ts';
import { beforeAll, describe, expect, it } from 'vitest';
import { createBookingChallengeIssuer } from '../db/booking-challenge.ts';
import { expectApiError, useTestApp } from '../testing/test-database.ts';
import { solveBookingChallenge, type BookingChallenge } from '../testing/booking-proof.ts';
import { anonJsonHeaders, testEngines } from '../testing/helpers.ts';
import { bookingWithId, postBooking } from '../testing/booking-samples.ts';

/** Small, so that solving in the test takes no time. */
const proofMaxNumber = 2000;

// One request an hour before the proof of work is asked for: the second is over the threshold.
const engines = testEngines('challenge', {
  perClientPerHour: 0,
  perEmailPerHour: 0,
  sitePerHour: 1,
});

const booking = (email = 'amina@example.com') => bookingWithId({ email });

describe.each(engines)('rpc/booking_challenge on $name', (engine) => {
  const app = useTestApp(engine, (db) => ({
    issueBookingChallenge: createBookingChallengeIssuer(db),
    logError: () => {},
  }));
  const challengeUrl = () => `${app.baseUrl}/rest/v1/rpc/booking_challenge`;

  beforeAll(async () => {
    await app.db.query('update app_private.booking_limits set proof_max_number = $1', [
      proofMaxNumber,
    ]);
  });

  const post = (body: string) =>
    fetch(challengeUrl(), { method: 'POST', headers: anonJsonHeaders, body });

  async function fetchChallenge(): Promise<BookingChallenge> {
    const response = await post('{}');
    expect(response.status).toBe(200);
    return (await response.json()) as BookingChallenge;
  }

  const postWithProof = (row: ReturnType<typeof booking>, proof?: string) =>
    postBooking(app.baseUrl, row, {
      headers: { ...anonJsonHeaders, ...(proof === undefined ? {} : { 'X-Booking-Proof': proof }) },
    });

  // Its headers are every function's: see mark-answered.test.ts and app.test.ts.
  it('answers POST {} with the anon key with a signed challenge for its network', async () => {
    const challenge = await fetchChallenge();
    expect(Object.keys(challenge).sort().join()).toBe(
      'algorithm,challenge,maxnumber,salt,signature',
    );
    expect(challenge.algorithm).toBe('SHA-256');
    expect(challenge.maxnumber).toBe(proofMaxNumber);
    expect(challenge.challenge).toMatch(/^[0-9a-f]{64}$/);
    expect(challenge.signature).toMatch(/^[0-9a-f]{64}$/);
    expect(challenge.salt).toMatch(/&network=127\.0\.0\.1&$/);
  });

  it('answers GET as well, and a new challenge every time', async () => {
    const response = await fetch(challengeUrl(), { headers: anonJsonHeaders });
    expect(response.status).toBe(200);
    const first = (await response.json()) as BookingChallenge;
    const second = await fetchChallenge();
    expect(second.salt).not.toBe(first.salt);
  });

  // That a proof is taken once, and only for its network, is the database's (abuse-limits.test.ts).
  it('over the threshold, takes a booking with a solved challenge', async () => {
    expect((await postWithProof(booking('first@example.com'))).status).toBe(201);
    await expectApiError(await postWithProof(booking()), 428, 'PT428');

    const challenge = await fetchChallenge();
    const proof = encodeBookingProof(challenge, solveBookingChallenge(challenge));
    const row = booking();
    expect((await postWithProof(row, proof)).status).toBe(201);

    const { rows } = await app.db.query<{ id: string }>(
      'select id::text from public.bookings order by created_at',
    );
    expect(rows.map(({ id }) => id)).toContain(row.id);
    expect(rows).toHaveLength(2);
  });
});
