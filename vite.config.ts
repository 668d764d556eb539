import { defineConfig, loadEnv } from 'vite';
import react from '@vitejs/plugin-react';

export default defineConfig(({ mode }) => {
  const env = loadEnv(mode, process.cwd(), 'VITE_');
  // Half a Supabase configuration would send every booking nowhere: refuse to build it.
  if (Boolean(env.VITE_SUPABASE_URL) !== Boolean(env.VITE_SUPABASE_ANON_KEY)) {
    throw new Error(
      'Set both VITE_SUPABASE_URL and VITE_SUPABASE_ANON_KEY, or neither (to use the built-in server).',
    );
  }
  return {
    plugins: [react()],
    build: {
      target: 'es2022',
      assetsInlineLimit: 0,
      // Read by scripts/prerender.mjs to preload a view's files; removed after.
      manifest: true,
      rollupOptions: {
        // The web fonts' style sheet is linked by index.html's inline script
        // after the first paint, so it is an entry of its own, not part of the
        // inlined styles.
        input: { index: 'index.html', 'web-fonts': 'src/styles/web-fonts.css' },
      },
    },
    server: {
      proxy: { '/rest': 'http://127.0.0.1:3000' },
    },
  };
});
