import { Features } from 'lightningcss';
import { defineConfig, loadEnv } from 'vite';
import react from '@vitejs/plugin-react';
import { clinicUtcOffsets } from './src/lib/clinic-utc-offsets.ts';
import { sunnahDaysForBuild } from './src/lib/sunnah-days.ts';
import { photosPlugin } from './scripts/lib/photos.ts';
import { inlinedStyleSheetPlugin } from './scripts/lib/inlined-style-sheet.ts';
import { siteUrlFrom, siteUrlProblem } from './supabase/functions/_shared/content/site-url.ts';

export default defineConfig(({ mode }) => {
  const env = loadEnv(mode, process.cwd(), 'VITE_');
  // Half a Supabase configuration would send every booking nowhere: refuse to build it.
  if (Boolean(env.VITE_SUPABASE_URL) !== Boolean(env.VITE_SUPABASE_ANON_KEY)) {
    throw new Error(
      'Set both VITE_SUPABASE_URL and VITE_SUPABASE_ANON_KEY, or neither (to use the built-in server).',
    );
  }
  // SITE_URL has no VITE_ prefix: the server and the Edge Function read the same name.
  const siteUrl = process.env.SITE_URL ?? loadEnv(mode, process.cwd(), 'SITE_URL').SITE_URL;
  const siteUrlMistake = siteUrlProblem(siteUrl);
  if (siteUrlMistake) throw new Error(siteUrlMistake);
  return {
    // The practice's photographs from photos/ (scripts/lib/photos.ts); the page's
    // style sheet, inlined, never fetched again (scripts/lib/inlined-style-sheet.ts).
    plugins: [react(), photosPlugin(), inlinedStyleSheetPlugin()],
    // The clinic's clock changes and the Sunnah days' dates, so the page needs no
    // Intl to tell its time or the Hijri date (src/lib/utc-offsets.ts, src/lib/sunnah-days.ts).
    define: {
      __CLINIC_UTC_OFFSETS__: JSON.stringify(clinicUtcOffsets()),
      __SUNNAH_DAYS__: JSON.stringify(sunnahDaysForBuild()),
      __SITE_URL__: JSON.stringify(siteUrlFrom(siteUrl)),
    },
    // The site is light only (base.css: color-scheme: light) and uses no light-dark():
    // without this, the minifier adds that function's stand-in variables to the
    // style sheet inlined in every page, which has no bytes to spare.
    css: { lightningcss: { exclude: Features.LightDark } },
    build: {
      target: 'es2022',
      assetsInlineLimit: 0,
      // Read by scripts/prerender.ts for the files' names; removed after.
      manifest: true,
      rollupOptions: {
        output: {
          // The REST client's file is named for what it is, not for the folder
          // it comes from ('dist'): the browser tests cut it off by its name.
          chunkFileNames: ({ moduleIds }) =>
            moduleIds.some((id) => id.includes('/node_modules/@supabase/postgrest-js/'))
              ? 'assets/rest-client-[hash].js'
              : 'assets/[name]-[hash].js',
          codeSplitting: {
            // The page's script is one file: the page and everything it imports
            // statically, which the views fetched later import from. Without
            // this, Rolldown moves what the page shares with those views into a
            // chunk of its own, one more request before the page responds.
            // The app likewise (start-app.tsx: React, the shell and home), which
            // renders every view and which every view imports from. Left to
            // Rolldown, what it shares with the views went into chunks of their
            // own: one while lucide-react's icons happened to hold the rest
            // together, three without them; each is one more request and one
            // more name in the page's boot manifest, which took the page past
            // its budget.
            groups: [
              { name: 'index', test: /\/index\.html$/ },
              { name: 'start-app', test: /\/src\/start-app\.tsx$/ },
            ],
          },
        },
      },
    },
    server: {
      proxy: { '/rest': 'http://127.0.0.1:3000' },
    },
  };
});
