// The boot script after home's first-screen photo, filled in by scripts/prerender.ts (see ../home-photo.ts).
import { showHomePhoto } from '../home-photo.ts';

showHomePhoto(window.location, document.currentScript);
