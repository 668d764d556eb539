import { useId } from 'react';
import { X } from '../components/icons/x.ts';
import { closeMenuClass, sideMenuClass } from '../boot/protocol.ts';
import { site } from '../content/site.ts';
import { Dialog } from '../components/dialog.tsx';
import { useNavigation } from '../navigation/navigation.ts';
import { PageLink } from '../navigation/page-link.tsx';

interface SideMenuProps {
  isOpen: boolean;
  onClose: () => void;
}

/** The slide-in panel listing every page, the current one marked. */
export function SideMenu({ isOpen, onClose }: SideMenuProps) {
  const { pageName } = useNavigation();
  const titleId = useId();

  return (
    <Dialog isOpen={isOpen} onClose={onClose} labelledBy={titleId} className={sideMenuClass}>
      <div className="side-menu-panel">
        <div className="side-menu-header">
          <h2 id={titleId} className="side-menu-title">
            {site.chrome.menuTitle}
          </h2>
          <button
            type="button"
            className={`icon-button ${closeMenuClass}`}
            onClick={onClose}
            aria-label={site.chrome.closeMenu}
          >
            <X aria-hidden="true" />
          </button>
        </div>
        <nav aria-labelledby={titleId}>
          <ul className="side-menu-list">
            {site.navigation.map((item) => {
              const current = item.id === pageName;
              return (
                <li key={item.id}>
                  <PageLink
                    page={item.id}
                    className="side-menu-link"
                    aria-current={current ? 'page' : undefined}
                    onClick={onClose}
                  >
                    {item.label}
                  </PageLink>
                </li>
              );
            })}
          </ul>
        </nav>
        <div className="side-menu-footer">
          <p className="side-menu-practice">{site.practiceName}</p>
          <p>{site.shortDescription}</p>
          <p>
            <a href={`tel:${site.contactDetails.phone.international}`}>
              {site.contactDetails.phone.display}
            </a>
          </p>
        </div>
      </div>
    </Dialog>
  );
}
