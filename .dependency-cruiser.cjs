/** Dependency direction of src/, checked by `npm run lint` (so by `npm test`): any violation fails. */
const DOMAIN =
  '^src/(protocol|interaction|stepup|social|audit|keys|accounts|clients|integrations|storage|lib|config|authz|errors|texts|logout|passkeys|self-service|passwordless|limits|sign-in-methods|hooks|resources)/';

/** A sign-in method's folder is domain code but for its routes.ts, the method's web half (src/sign-in-methods/). */
const METHOD_ROUTES = '^src/sign-in-methods/[^/]+/routes\\.ts$';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'No import circles.',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'domain-not-to-web',
      comment:
        "Domain code does not import the web layer (src/http, src/management, src/console, a sign-in method's routes.ts) nor Fastify.",
      severity: 'error',
      from: { path: DOMAIN, pathNot: METHOD_ROUTES },
      to: {
        path: ['^src/(http|management|console)/', METHOD_ROUTES, '(^|/)node_modules/(fastify|@fastify/[^/]+)/'],
      },
    },
    {
      name: 'registry-only-in-composition',
      comment:
        'Only the composition (src/app.ts, src/main.ts, src/cli.ts) imports src/registry.ts: every other module declares the small interface it uses.',
      severity: 'error',
      from: {
        path: '^src/',
        pathNot: '^src/(registry|app|main|cli)[.]ts$',
      },
      to: { path: '^src/registry[.]ts$' },
    },
    {
      name: 'database-drivers-only-in-storage',
      comment:
        'Only src/storage imports kysely, better-sqlite3 or pg (and the standalone messenger-kit its own queue file).',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/(storage|messenger-kit)/' },
      to: { path: '(^|/)node_modules/(@types/)?(kysely|better-sqlite3|pg)/' },
    },
    {
      name: 'http-client-only-in-outbound',
      comment:
        'Outbound HTTP goes through the guarded client (src/lib/outbound/: address checks, no redirects, caps); the messenger kit is standalone.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/(lib/outbound|messenger-kit)/' },
      to: { path: '(^|/)node_modules/undici/' },
    },
    {
      name: 'messenger-kit-standalone',
      comment: 'src/messenger-kit is shipped to chatbot authors on its own: nothing from the rest of src/.',
      severity: 'error',
      from: { path: '^src/messenger-kit/' },
      to: { path: '^src/', pathNot: '^src/messenger-kit/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
  },
};
