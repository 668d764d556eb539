// The head's boot script, inlined by scripts/prerender.ts (see ../start-page.ts).
import { startPage } from '../start-page.ts';

startPage(window);
