import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

export default tseslint.config(
  {
    ignores: [
      'generated-fonts',
      'dist',
      'dist-server',
      'dist-ssr*',
      'data',
      'test-results',
      'playwright-report',
      'screenshots',
      'bench-results',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx,js,mjs}'],
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
    },
  },
  {
    // Every error answer is built by a named constructor of the catalogue, so
    // that each status, code and message is read in one file.
    files: ['**/*.{ts,tsx,js,mjs}'],
    ignores: ['server/http/api-errors.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "NewExpression[callee.name='ApiError']",
          message: 'Build errors with a constructor of server/http/api-errors.ts (add one there).',
        },
        {
          selector: "ClassDeclaration[superClass.name='ApiError']",
          message: 'Build errors with a constructor of server/http/api-errors.ts (add one there).',
        },
      ],
    },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  {
    // The shared core is used by the browser, the server and the Edge Function: it must stay pure. What it
    // may import is checked by dependency-cruiser (.dependency-cruiser.js);
    // the globals of a browser or of Node are refused here.
    files: ['supabase/functions/_shared/core/**/*.ts'],
    languageOptions: { globals: {} },
    rules: {
      'no-restricted-globals': ['error', 'window', 'document', 'process', 'fetch', 'localStorage'],
    },
  },
);
