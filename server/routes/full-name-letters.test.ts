import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messageFor } from '../../supabase/functions/_shared/core/booking-rules.ts';
import { fakeNames, realNames } from '../../supabase/functions/_shared/core/full-name-examples.ts';
import { useTestDatabase } from '../testing/test-database.ts';
import { anonJsonHeaders, testEngines, type RunningServer, serveApp } from '../testing/helpers.ts';

/** The full name needs a letter and few marks in a row, over HTTP as the form sends it. */

const booking = (fullName: string) => ({
  full_name: fullName,
  phone: '01634 123456',
  email: 'guest@example.com',
  instagram: null,
});

describe.each(testEngines('full-name'))('the booking API on $name', (engine) => {
  const opened = useTestDatabase(engine);
  let server: RunningServer;

  beforeAll(async () => {
    server = await serveApp(opened.db);
  });

  afterAll(async () => {
    await server?.close();
  });

  const post = (fullName: string) =>
    fetch(`${server.baseUrl}/rest/v1/bookings`, {
      method: 'POST',
      headers: anonJsonHeaders,
      body: JSON.stringify(booking(fullName)),
    });

  const storedNames = async () =>
    (await opened.db.query<{ full_name: string }>('select full_name from public.bookings')).rows
      .map((row) => row.full_name)
      .sort();

  it.each(fakeNames)("refuses $name with 400 and the field's message", async ({ text }) => {
    const response = await post(text);
    expect(response.status).toBe(400);
    const body = (await response.json()) as { code: string; details: string };
    expect(body).toMatchObject({
      code: '23514',
      details: `full_name: ${messageFor('fullName', 'invalid')}`,
    });
  });

  it('stores every real name, and none of the others', async () => {
    for (const name of realNames) expect((await post(name)).status, name).toBe(201);
    expect(await storedNames()).toEqual([...realNames].sort());
  });
});
