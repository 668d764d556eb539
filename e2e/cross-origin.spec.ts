import { rm } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import {
  buildSiteInto,
  startBuiltServer,
  type RunningServer,
} from '../scripts/lib/built-server.ts';
import { fillBookingForm, openView, storedBookings, thankYou, uniqueEmail } from './fixtures.ts';
import { specifiedWords } from './specified-words.ts';

const anonKey = 'cross-origin-anon-key';

/**
 * The Supabase mode: a site built with VITE_SUPABASE_URL posts its bookings to
 * another origin. A second server instance stands in for the Supabase project.
 */
test.describe('built for a separate booking backend', () => {
  test.describe.configure({ mode: 'serial', timeout: 90_000 });

  let api: RunningServer;
  let siteServer: RunningServer;
  let siteDir: string;

  test.beforeAll(async () => {
    // Two builds and two servers: longer than a test's usual time on a busy machine.
    test.setTimeout(180_000);
    api = await startBuiltServer({ ANON_KEY: anonKey });
    siteDir = await buildSiteInto({ VITE_SUPABASE_URL: api.url, VITE_SUPABASE_ANON_KEY: anonKey });
    siteServer = await startBuiltServer({ DIST_DIR: siteDir });
  });

  test.afterAll(async () => {
    await Promise.all([api?.stop(), siteServer?.stop()]);
    if (siteDir) await rm(siteDir, { recursive: true, force: true });
  });

  test('stores the booking on the other origin, through CORS, with its key', async ({ page }) => {
    const email = uniqueEmail('cross');
    const posts: string[] = [];
    page.on('request', (r) => r.method() === 'POST' && posts.push(r.url()));
    await openView(page, 'contact', siteServer.url);
    await fillBookingForm(page, { fullName: 'Cross Origin', phone: '07700 900123', email });
    await page.getByRole('button', { name: specifiedWords.bookButton }).click();
    await expect(thankYou(page)).toBeVisible();

    expect(posts).toEqual([`${api.url}/rest/v1/bookings`]);
    const read = (server: RunningServer) =>
      storedBookings(email, 'full_name,email', server.dataDir);
    expect(await read(api)).toEqual([{ full_name: 'Cross Origin', email }]);
    expect(await read(siteServer)).toEqual([]);
  });
});
