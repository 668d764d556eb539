import { encodeBookingProof } from '../../supabase/functions/_shared/core/booking-proof.ts';
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createBookingChallengeIssuer, type BookingChallenge } from '../db/booking-challenge.ts';
import { useTestDatabase } from '../testing/test-database.ts';
import { solveBookingChallenge } from '../testing/booking-proof.ts';
import { anonJsonHeaders, testEngines, type RunningServer, serveApp } from '../testing/helpers.ts';

/** Small, so that solving in the test takes no time. */
const proofMaxNumber = 2000;

// One request an hour before the proof of work is asked for: the second is over the threshold.
const engines = testEngines('challenge', {
  perClientPerHour: 0,
  perEmailPerHour: 0,
  sitePerHour: 1,
});

function booking(email = 'amina@example.com') {
  return {
    id: crypto.randomUUID(),
    full_name: 'Amina Khan',
    phone: '+44 1634 123 456',
    email,
    instagram: null,
  };
}

describe.each(engines)('rpc/booking_challenge on $name', (engine) => {
  const opened = useTestDatabase(engine);
  let server: RunningServer;
  let api: string;

  beforeAll(async () => {
    await opened.db.query('update app_private.booking_limits set proof_max_number = $1', [
      proofMaxNumber,
    ]);
    server = await serveApp(opened.db, {
      issueBookingChallenge: createBookingChallengeIssuer(opened.db),
      logError: () => {},
    });
    api = `${server.baseUrl}/rest/v1`;
  });

  afterAll(async () => {
    await server?.close();
  });

  beforeEach(async () => {
    await opened.db.query('delete from public.bookings');
  });

  const challengeUrl = () => `${api}/rpc/booking_challenge`;

  async function fetchChallenge(): Promise<BookingChallenge> {
    const response = await fetch(challengeUrl(), {
      method: 'POST',
      headers: anonJsonHeaders,
      body: '{}',
    });
    expect(response.status).toBe(200);
    return (await response.json()) as BookingChallenge;
  }

  function postBooking(row: ReturnType<typeof booking>, proof?: string) {
    return fetch(`${api}/bookings`, {
      method: 'POST',
      headers: { ...anonJsonHeaders, ...(proof === undefined ? {} : { 'X-Booking-Proof': proof }) },
      body: JSON.stringify(row),
    });
  }

  async function expectProofAskedFor(response: Response) {
    expect(response.status).toBe(428);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    const body = (await response.json()) as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(['code', 'details', 'hint', 'message']);
    expect(body.code).toBe('PT428');
  }

  it('answers POST {} with the anon key with a signed challenge for its network that expires in two minutes', async () => {
    const response = await fetch(challengeUrl(), {
      method: 'POST',
      headers: anonJsonHeaders,
      body: '{}',
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('cache-control')).toBe('no-store');
    const challenge = (await response.json()) as BookingChallenge;
    expect(Object.keys(challenge).sort()).toEqual([
      'algorithm',
      'challenge',
      'maxnumber',
      'salt',
      'signature',
    ]);
    expect(challenge.algorithm).toBe('SHA-256');
    expect(challenge.maxnumber).toBe(proofMaxNumber);
    expect(challenge.challenge).toMatch(/^[0-9a-f]{64}$/);
    expect(challenge.signature).toMatch(/^[0-9a-f]{64}$/);
    const expires = Number(/[?&]expires=(\d+)/.exec(challenge.salt)?.[1]) * 1000;
    expect(Math.abs(expires - (Date.now() + 2 * 60_000))).toBeLessThan(10_000);
    expect(challenge.salt).toMatch(/&network=127\.0\.0\.1&$/);

    const number = solveBookingChallenge(challenge);
    expect(number).toBeLessThanOrEqual(proofMaxNumber);
    expect(createHash('sha256').update(`${challenge.salt}${number}`).digest('hex')).toBe(
      challenge.challenge,
    );
  });

  it('answers GET as well, and a new challenge every time', async () => {
    const response = await fetch(challengeUrl(), { headers: anonJsonHeaders });
    expect(response.status).toBe(200);
    const first = (await response.json()) as BookingChallenge;
    const second = await fetchChallenge();
    expect(second.salt).not.toBe(first.salt);
  });

  it('answers no one without a key', async () => {
    const anonymous = await fetch(challengeUrl(), { method: 'POST', body: '{}' });
    expect(anonymous.status).toBe(401);
  });

  it('refuses arguments the function does not take and methods other than GET and POST', async () => {
    const withArgument = await fetch(challengeUrl(), {
      method: 'POST',
      headers: anonJsonHeaders,
      body: '{"difficulty": 1}',
    });
    expect(withArgument.status).toBe(404);
    expect(((await withArgument.json()) as { code: string }).code).toBe('PGRST202');
    const inQuery = await fetch(`${challengeUrl()}?difficulty=1`, { headers: anonJsonHeaders });
    expect(inQuery.status).toBe(404);
    const notJson = await fetch(challengeUrl(), {
      method: 'POST',
      headers: anonJsonHeaders,
      body: '{',
    });
    expect(notJson.status).toBe(400);
    const put = await fetch(challengeUrl(), {
      method: 'PUT',
      headers: anonJsonHeaders,
      body: '{}',
    });
    expect(put.status).toBe(405);
  });

  it('keeps answering 404 for functions that do not exist', async () => {
    const response = await fetch(`${api}/rpc/booking_challenges`, {
      method: 'POST',
      headers: anonJsonHeaders,
      body: '{}',
    });
    expect(response.status).toBe(404);
    expect(((await response.json()) as { code: string }).code).toBe('PGRST202');
  });

  it('lets a browser on another origin send the proof header (the preflight allows it)', async () => {
    const response = await fetch(`${api}/bookings`, {
      method: 'OPTIONS',
      headers: {
        Origin: 'https://elsewhere.example',
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'apikey,authorization,content-type,x-booking-proof',
      },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-allow-headers')).toContain('x-booking-proof');
  });

  it('over the threshold, takes a booking with a solved challenge, once, and refuses a forged one', async () => {
    expect((await postBooking(booking('first@example.com'))).status).toBe(201);
    await expectProofAskedFor(await postBooking(booking()));

    const challenge = await fetchChallenge();
    const proof = encodeBookingProof(challenge, solveBookingChallenge(challenge));
    const row = booking();
    expect((await postBooking(row, proof)).status).toBe(201);
    await expectProofAskedFor(await postBooking(booking('other@example.com'), proof));

    const another = await fetchChallenge();
    const forged = encodeBookingProof({ ...another, signature: '0'.repeat(64) }, 0);
    await expectProofAskedFor(await postBooking(booking('forged@example.com'), forged));

    const { rows } = await opened.db.query<{ id: string }>(
      'select id::text from public.bookings order by created_at',
    );
    expect(rows.map(({ id }) => id)).toContain(row.id);
    expect(rows).toHaveLength(2);
  });
});
