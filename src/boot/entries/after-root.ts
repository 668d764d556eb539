// The boot script right after #root, inlined by scripts/prerender.ts (see ../show-in-page-view.ts).
import { showInPageView } from '../show-in-page-view.ts';

showInPageView(window);
