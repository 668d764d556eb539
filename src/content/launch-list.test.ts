import { describe, expect, it } from 'vitest';
import { practice } from '../../supabase/functions/_shared/content/practice.ts';
import { placeholdersLeft } from '../../supabase/functions/_shared/content/placeholders.ts';
import { beforeBookingPlaceholdersLeft, practitioner, sessionPrices } from './before-booking.ts';
import { launchPlaceholders, shippedContent } from './launch-list.ts';
import { reviews, type Testimonial } from './reviews.ts';

/** A shipped review, as if given in person. */
const real: Testimonial = { ...reviews[0]!, source: { kind: 'in-person', date: '2026-06-11' } };

describe('the launch list', () => {
  it('lists the PLACEHOLDER facts first, then every SAMPLE review', () => {
    const sample: Testimonial = { ...real, name: 'Sample S.', source: { kind: 'SAMPLE' } };
    const list = launchPlaceholders(undefined, { ...shippedContent, reviews: [real, sample] });
    expect(list).toEqual([
      ...placeholdersLeft(practice, undefined),
      ...beforeBookingPlaceholdersLeft({ practitioner, sessionPrices }),
      expect.stringContaining('The review by "Sample S." is a SAMPLE'),
    ]);
  });

  it("lists each of the practice's facts still its example, or still saying PLACEHOLDER", () => {
    const facts = [
      'phone number',
      'e-mail address',
      'Instagram username',
      'council registration',
      'venue',
      'building',
      'street address',
      'postcode',
    ];
    expect(placeholdersLeft(practice, 'https://clinic.test/')).toEqual(
      facts.map((name) => expect.stringMatching(`^The practice's ${name} is still the example "`)),
    );
    const council = 'Registered with Kent County Council (registration number PLACEHOLDER)';
    expect(
      placeholdersLeft({ ...practice, skinPiercingRegistration: council }, 'https://clinic.test/'),
    ).toContainEqual(
      expect.stringContaining(`council registration is still the example "${council}"`),
    );
    expect(
      placeholdersLeft({ ...practice, skinPiercingRegistration: null }, 'https://clinic.test/'),
    ).not.toContainEqual(expect.stringContaining('council registration'));
  });

  it('lists a phone number shown on the page that is not the one its links dial', () => {
    const replaced = { ...practice, phone: { ...practice.phone, international: '+441632960461' } };
    expect(placeholdersLeft(replaced, 'https://clinic.test/')).toContainEqual(
      expect.stringMatching(
        /^The practice's phone number is shown as "07700 900 123" but its links dial \+441632960461: make phone\.display and phone\.international/,
      ),
    );
    for (const display of ['01632 960461', '+44 1632 960461', '(01632) 960-461']) {
      const same = { ...practice, phone: { display, international: '+441632960461' } };
      expect(placeholdersLeft(same, 'https://clinic.test/'), display).not.toContainEqual(
        expect.stringContaining('phone number'),
      );
    }
  });

  it("lists each of the practitioner's texts still marked PLACEHOLDER, and the prices until confirmed", () => {
    const left = beforeBookingPlaceholdersLeft({
      practitioner: {
        name: 'PLACEHOLDER Name',
        role: 'Practitioner',
        training: ['Diploma', 'PLACEHOLDER: first aid'],
      },
      sessionPrices: { confirmed: false },
    });
    expect(left).toEqual([
      expect.stringMatching(
        /^The practitioner's name is still a PLACEHOLDER: replace practitioner\.name in/,
      ),
      expect.stringMatching(/^The practitioner's training\[1\] is still a PLACEHOLDER/),
      expect.stringMatching(/^The sessions' lengths and prices are still examples/),
    ]);
    expect(
      beforeBookingPlaceholdersLeft({
        practitioner: { name: 'Maryam' },
        sessionPrices: { confirmed: true },
      }),
    ).toEqual([]);
  });
});
