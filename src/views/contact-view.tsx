import { useEffect } from 'react';
import { site } from '../content/site.ts';
import { BookingForm } from '../booking/booking-form.tsx';
import { preloadBookingClient } from '../booking/booking-api.ts';
import { ContactDetails } from '../components/contact-details.tsx';
import { PageHeader } from '../components/page-header.tsx';
import { SessionPrices } from '../components/session-prices.tsx';

export function ContactView() {
  useEffect(preloadBookingClient, []);
  const { contact } = site;
  return (
    <>
      <PageHeader title={contact.heading} subtitle={contact.intro}>
        <SessionPrices />
      </PageHeader>
      <section className="section section-flush" aria-label={contact.heading}>
        <div className="container contact-grid">
          <div className="form-card">
            <BookingForm />
          </div>
          <aside className="details-card" aria-labelledby="contact-details-heading">
            <h2 id="contact-details-heading" className="info-title">
              {contact.detailsHeading}
            </h2>
            <ContactDetails />
            <p className="reply-promise">{site.contactDetails.replyPromise}</p>
          </aside>
        </div>
      </section>
    </>
  );
}
