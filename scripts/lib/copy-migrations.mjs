// Part of `npm run build:server`: the built server carries the migrations it
// was built with (dist-server/supabase/migrations, where findMigrationsDir
// looks first from there). A build that failed or was skipped after a pull
// then starts the previous server on the schema it knows, instead of applying
// the checkout's newer migrations under code that cannot use them.
import { cpSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const built = `${root}dist-server/supabase/migrations`;
rmSync(built, { recursive: true, force: true });
cpSync(`${root}supabase/migrations`, built, { recursive: true });
