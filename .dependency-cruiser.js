/**
 * Which part of the project may import which, checked by `npm run lint`
 * (dependency-cruiser). Imports flow one way: the shared core
 * (supabase/functions/_shared/core/) under everything; supabase/ on its own,
 * since Supabase deploys the function from that folder alone; in the
 * browser, shared code (components, navigation, lib, content, seo) under the
 * features (views, booking), and those under the shell (app), which only the
 * entry points import. Type-only imports count: they tie files together too.
 *
 * @type {import('dependency-cruiser').IConfiguration}
 */

/**
 * The files of src/ the server loads: the site's copy (the server's tests read
 * the page's words from it; its start and `npx hijama check` read the launch
 * list, launch-list.ts, with the reviews' dates of calendar-date.ts) and the
 * page's DOM contract (the static site knows the pre-rendered view files from it).
 */
const srcLoadedByServer =
  '^src/(content/(site|page-names|clinic-hours|before-booking|image-slot|reviews|launch-list)|lib/calendar-date|boot/protocol)\\.ts$';

const sharedCore = '^supabase/functions/_shared/core/';
const sharedContent = '^supabase/functions/_shared/content/';

export default {
  forbidden: [
    {
      name: 'no-cycles',
      severity: 'error',
      comment: 'A cycle makes the order of evaluation an accident and the code hard to read.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'core-imports-only-core',
      severity: 'error',
      comment:
        'The shared core runs in the browser, on Node and on Deno: no package, no node:*, nothing of src/ or server/.',
      from: { path: sharedCore, pathNot: '\\.test\\.ts$' },
      to: { pathNot: sharedCore },
    },
    {
      name: 'core-tests-import-only-core-and-vitest',
      severity: 'error',
      comment:
        'They stay pure and quick: the core, Vitest, and the cases the server and database tests share.',
      from: { path: `${sharedCore}.+\\.test\\.ts$` },
      to: {
        pathNot: `(${sharedCore}|^node_modules/vitest/|^server/testing/(email|full-name)-examples\\.ts$)`,
      },
    },
    {
      name: 'content-imports-only-content',
      severity: 'error',
      comment:
        "The practice's facts and the visitor's e-mail words: plain data, read by the page too.",
      from: { path: sharedContent },
      to: { pathNot: sharedContent },
    },
    {
      name: 'supabase-is-self-contained',
      severity: 'error',
      comment:
        'Supabase deploys the function from supabase/ alone (supabase functions deploy --use-api ' +
        'takes nothing outside it): the function and what it imports use node:*, the packages ' +
        "of the function's deno.json and supabase/ itself. Only tests may reach the server's test harness.",
      from: { path: '^supabase/', pathNot: '\\.test\\.ts$' },
      to: {
        pathNot: '^(supabase/|node_modules/(pg|nodemailer|@types/(pg|nodemailer|node))/)',
        dependencyTypesNot: ['core'],
      },
    },
    {
      name: 'src-imports-only-shared-core-and-content',
      severity: 'error',
      comment:
        'The browser needs the rules and the practice facts, never the notifications or the database.',
      from: { path: '^src/' },
      to: { path: '^supabase/', pathNot: `(${sharedCore}|${sharedContent})` },
    },
    {
      name: 'src-does-not-import-server',
      severity: 'error',
      comment:
        'The browser talks to the server over HTTP only; what both need lives in supabase/functions/_shared/core/.',
      from: { path: '^src/' },
      to: { path: '^server/' },
    },
    {
      name: 'server-does-not-import-src',
      severity: 'error',
      comment: 'Only the files of srcLoadedByServer, above.',
      from: { path: '^server/' },
      to: { path: '^src/', pathNot: srcLoadedByServer },
    },
    {
      name: 'src-loaded-by-server-imports-nothing',
      severity: 'error',
      comment: 'The server loads them as they are: plain data and names that run anywhere.',
      from: { path: srcLoadedByServer },
      to: { pathNot: [sharedContent, srcLoadedByServer] },
    },
    {
      name: 'boot-scripts-import-only-boot',
      severity: 'error',
      comment:
        'The boot scripts run before the first paint, inlined in the page: nothing of the app, ' +
        'no package, or the page carries it twice.',
      from: { path: '^src/boot/', pathNot: '\\.test\\.ts$' },
      to: { pathNot: '^src/boot/' },
    },
    {
      name: 'shell-imported-only-by-entries',
      severity: 'error',
      comment:
        'src/app is the shell; components and views reach it through src/navigation, ' +
        'which the shell provides.',
      from: {
        path: '^src/',
        pathNot: '^src/(app/|main\\.tsx$|start-app\\.tsx$|entry-server\\.tsx$)',
      },
      to: { path: '^src/app/' },
    },
    {
      name: 'shared-code-imports-no-features',
      severity: 'error',
      comment: 'Shared code is used by the views and the booking form, never the other way round.',
      from: { path: '^src/(components|navigation|lib|content|seo)/' },
      to: { path: '^src/(views|booking)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'],
    },
  },
};
