import { describe, expect, it } from 'vitest';
import { composeFloodDigest } from './flood-digest.ts';
import { messageListLimit } from './message-lists.ts';
import {
  sampleAnswerToken,
  sampleNotice,
  testSiteUrl,
  withAnswerToken,
} from '../../../../server/testing/notice-samples.ts';

/** What a flood digest of many requests says, in the e-mail's two parts and the webhook. */

describe('composeFloodDigest', () => {
  it('numbers each request with its name, reference, time, phone, e-mail and Mark as answered link', () => {
    const requests = [
      sampleNotice(),
      sampleNotice({ id: '9a1b2c3d-0000-4000-8000-000000000002', fullName: 'Yusuf Ali' }),
    ].map(withAnswerToken);
    const createdAt = new Date('2026-07-01T13:20:00Z');
    const digest = composeFloodDigest({
      siteUrl: testSiteUrl,
      id: '7',
      createdAt,
      requests,
      threshold: 3,
    });

    expect(digest.subject).toBe('2 more booking requests in the last 15 minutes');
    expect(digest.text).toContain(
      'above the 3 an hour that are e-mailed one by one. It looks like a flood',
    );
    expect(digest.text).toContain(
      // From the day they came, and all of them: still true when read hours later.
      'Review them, with everything each visitor typed: npx hijama list --since 2026-07-01 --limit all',
    );
    expect(digest.text).toContain(
      [
        '1. Amina Khan, ref 5F0C2A8E, received Wed 01 Jul 2026 14:05',
        '   Phone 07700 900123 (tel:07700900123), e-mail amina@example.com',
        `   Mark as answered: ${testSiteUrl}#answer=${sampleAnswerToken(requests[0]!.id)}`,
        '2. Yusuf Ali, ref 9A1B2C3D, received Wed 01 Jul 2026 14:05',
      ].join('\n'),
    );
    // Each word of the command whole on a phone, never wrapped at one of its hyphens.
    expect(digest.html).toContain(
      ['npx', 'hijama', 'list', '--since', '2026-07-01', '--limit', 'all']
        .map((word) => `<span style="white-space:nowrap">${word}</span>`)
        .join(' '),
    );
    expect(digest.html).toContain('<strong>Yusuf Ali</strong>');
    expect(digest.html).toContain('<a href="tel:07700900123"');
    // When it was made; not its row in the queue, which would read as a count of digests.
    for (const part of [digest.text, digest.html]) {
      expect(part).toContain('Digest made Wednesday 1 July 2026, 14:20 BST.');
      expect(part).not.toMatch(/Digest 7\b/);
    }
  });

  it('lists the first of 30,000 requests and counts the rest, in parts under 100 KB', () => {
    const createdAt = new Date('2026-11-25T14:20:00Z');
    const requests = Array.from({ length: 30_000 }, (_, index) =>
      sampleNotice({
        id: `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`,
        createdAt: new Date(createdAt.getTime() - 15 * 60_000 + index * 30),
        fullName: `Flood Robot ${index}`,
        email: `robot.${index}@example.com`,
        answerToken: 'token',
      }),
    );
    const digest = composeFloodDigest({
      siteUrl: testSiteUrl,
      id: '7',
      createdAt,
      requests,
      threshold: 20,
    });

    const encoder = new TextEncoder();
    expect(encoder.encode(digest.text).length).toBeLessThan(100_000);
    expect(encoder.encode(digest.html).length).toBeLessThan(100_000);
    expect(digest.subject).toBe('30,000 more booking requests in the last 15 minutes');
    for (const part of [digest.text, digest.html]) {
      expect(part).toMatch(new RegExp(`Flood Robot ${messageListLimit - 1}\\b`));
      expect(part).not.toMatch(new RegExp(`Flood Robot ${messageListLimit}\\b`));
      expect(part).toContain('\u2026and 29,950 more requests, not listed here');
    }
    // The webhook's receiver gets every request, as data.
    expect(digest.webhookBody).toMatchObject({ digest: { count: 30_000 } });
  });
});
