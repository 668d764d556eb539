import { Bus } from '../components/icons/bus.ts';
import { Car } from '../components/icons/car.ts';
import { Clock } from '../components/icons/clock.ts';
import { MapPin } from '../components/icons/map-pin.ts';
import { MoonStar } from '../components/icons/moon-star.ts';
import { Navigation } from '../components/icons/navigation.ts';
import { SquareParking } from '../components/icons/square-parking.ts';
import { TrainFront } from '../components/icons/train-front.ts';
import type { LucideIcon } from '../components/icons/lucide-icon.tsx';
import { site, type TravelIconName } from '../content/site.ts';
import { ClosingCall } from '../components/closing-call.tsx';
import { OpeningHoursTable } from '../components/opening-hours-table.tsx';
import { OpeningStatusLine } from '../components/opening-status.tsx';
import { PageHeader } from '../components/page-header.tsx';
import { Reveal } from '../components/reveal.tsx';
import { SunnahDaysList } from '../components/sunnah-days-list.tsx';

const travelIcons: Record<TravelIconName, LucideIcon> = {
  train: TrainFront,
  bus: Bus,
  parking: SquareParking,
  car: Car,
};

const addressLines = ['venue', 'building', 'road', 'town', 'city', 'postcode', 'country'] as const;

function TravelIcon({ name }: { name: TravelIconName }) {
  const Component = travelIcons[name];
  return <Component aria-hidden="true" strokeWidth={1.75} />;
}

export function LocationView() {
  const { location, address } = site;
  return (
    <>
      <PageHeader title={location.heading} subtitle={location.intro} />
      <section className="section section-flush" aria-label={location.heading}>
        <div className="container location-grid">
          <Reveal className="info-card">
            <h2 className="info-title">
              <MapPin aria-hidden="true" />
              {location.addressHeading}
            </h2>
            <address className="address">
              {addressLines.map((line) => (
                <span key={line}>{address[line]}</span>
              ))}
            </address>
            <a
              className="button button-secondary"
              href={address.directionsUrl}
              target="_blank"
              rel="noopener"
            >
              <Navigation aria-hidden="true" className="button-icon" />
              {location.directionsLink}
              <span className="visually-hidden">{site.chrome.opensInNewTab}</span>
            </a>
          </Reveal>
          <Reveal className="info-card" step={1}>
            <h2 className="info-title">
              <Clock aria-hidden="true" />
              {location.hoursHeading}
            </h2>
            <OpeningStatusLine />
            <OpeningHoursTable />
          </Reveal>
          <Reveal className="info-card info-card-wide" step={2}>
            <h2 className="info-title">
              <Navigation aria-hidden="true" />
              {location.gettingHereHeading}
            </h2>
            <ul className="directions">
              {location.gettingHere.map((step) => (
                <li key={step.text}>
                  <span className="directions-icon">
                    <TravelIcon name={step.icon} />
                  </span>
                  {step.text}
                </li>
              ))}
            </ul>
          </Reveal>
          <Reveal className="info-card info-card-wide" step={3}>
            <h2 className="info-title">
              <MoonStar aria-hidden="true" />
              {location.sunnahDays.heading}
            </h2>
            <p>{location.sunnahDays.intro}</p>
            <SunnahDaysList />
            <p className="sunnah-days-note">{location.sunnahDays.note}</p>
          </Reveal>
        </div>
        <div className="container">
          <ClosingCall />
        </div>
      </section>
    </>
  );
}
