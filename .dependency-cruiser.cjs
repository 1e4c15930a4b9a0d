/**
 * The house's layering, checked by `npm run depcheck` and by test/architecture/layering.test.ts (so `npm test`
 * fails on a violation).
 *
 * Layers, bottom to top. A module may import its own layer and the layers below it, never one above;
 * folders of one layer may import each other as long as no two folders import each other (directly or
 * round a longer loop: `no-folder-cycle`).
 *
 *   0  src/domain            vocabulary: statuses and transition tables, id formats, value types,
 *                            flow names and workflow ids, error kinds. Imports nothing of ours and no
 *                            runtime package (Temporal's workflow bundle may include it).
 *   1  src/config, src/logger, src/metrics, src/telemetry
 *                            read the environment; make the process logger; the process's Prometheus
 *                            registry and the series every layer records into (no database, no HTTP);
 *                            tracing (OpenTelemetry).
 *   2  src/storage, src/outbound, src/db
 *                            files, guarded outbound HTTP, MikroORM entities and migrations.
 *   3  src/events, src/imaging, src/printers
 *                            status-event log and bus (on db), sharp imaging, print service providers
 *                            (on outbound and storage).
 *   4  src/services          use cases: validation, authorisation, business rules.
 *   5  src/activities        flow steps, one file per flow: each a call into the service that owns the state.
 *                            Stricter than its rank: at run time it loads only src/services, src/domain and
 *                            config/logger/metrics; lower layers it names as types only (`import type`).
 *   6  workflows/            deterministic flow code. Stricter than its rank: it may import only
 *                            workflows/ and src/domain at run time, and activities' types (`import type`,
 *                            erased by the compiler), so nothing non-deterministic reaches Temporal's
 *                            workflow sandbox.
 *   7  src/engine            starts and signals flows (DBOS / Temporal adapters).
 *   8  src/graphql           schema, resolvers and the Apollo / graphql-ws servers.
 *   9  src/http, src/web     the Fastify app: REST routes and the HTTP mounting of GraphQL.
 *  10  composition root      src/main.ts, src/service.ts, src/worker.ts, src/cli.ts, src/work-parts.ts (and the CLI's
 *                            commands in src/cli/): may import anything; nothing imports them.
 *
 * Type-only imports count like any other (a type from a higher layer couples the lower one to it),
 * except where a rule says otherwise. Every module under src/ must belong to a layer. Only the
 * composition root lives directly in src/: a file there that lower layers import would put the
 * `src` folder itself in a folder cycle.
 */
const LAYERS = [
  { name: 'domain', path: '^src/domain/' },
  { name: 'config', path: '^src/(config|logger|metrics|telemetry)/' },
  { name: 'storage-outbound-db', path: '^src/(storage|outbound|db)/' },
  { name: 'events-imaging-printers', path: '^src/(events|imaging|printers)/' },
  { name: 'services', path: '^src/services/' },
  { name: 'activities', path: '^src/activities/' },
  { name: 'workflows', path: '^workflows/' },
  { name: 'engine', path: '^src/engine/' },
  { name: 'graphql', path: '^src/graphql/' },
  { name: 'http', path: '^src/(http|web)/' },
  { name: 'composition-root', path: ['^src/(main|service|worker|cli|work-parts)\\.ts$', '^src/cli/'] },
];

const upwardRules = LAYERS.slice(0, -1).map((layer, rank) => ({
  name: `no-upward-from-${layer.name}`,
  comment: `${layer.name} may import only its own layer and the ones below it`,
  severity: 'error',
  from: { path: layer.path },
  to: { path: LAYERS.slice(rank + 1).flatMap((above) => above.path) },
}));

module.exports = {
  forbidden: [
    ...upwardRules,
    {
      name: 'no-folder-cycle',
      comment: 'two folders that import each other (directly or round a loop) are one tangled unit',
      severity: 'error',
      scope: 'folder',
      from: { path: '^(src|workflows)/' },
      to: { circular: true },
    },
    {
      name: 'workflows-import-only-domain',
      comment: 'flow code is deterministic: it reaches the rest of the service only through its injected context',
      severity: 'error',
      from: { path: '^workflows/' },
      to: { path: '^src/', pathNot: ['^src/domain/', '^src/activities/'] },
    },
    {
      name: 'workflows-import-activities-as-types-only',
      comment: 'a workflow names its activities for the type checker; it never loads them',
      severity: 'error',
      from: { path: '^workflows/' },
      to: { path: '^src/activities/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'workflows-no-node-core',
      comment: 'Node built-ins are not deterministic and fail the Temporal workflow bundle',
      severity: 'error',
      from: { path: '^workflows/' },
      to: { dependencyTypes: ['core'], dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'activities-import-only-services-and-domain',
      comment:
        'an activity is one call into the service that owns the state: at run time it loads only services, the ' +
        'domain and the process vocabulary below them (config, logger, metrics); storage, outbound, the database, ' +
        'imaging and printers it may name as types only',
      severity: 'error',
      from: { path: '^src/activities/' },
      to: {
        path: '^src/',
        pathNot: ['^src/(activities|services|domain|config|logger|metrics)/'],
        dependencyTypesNot: ['type-only'],
      },
    },
    {
      name: 'domain-no-runtime-packages',
      comment: 'the domain is plain data and functions, loadable anywhere (workflow sandbox included)',
      severity: 'error',
      from: { path: '^src/domain/' },
      to: { dependencyTypes: ['core', 'npm', 'npm-dev', 'npm-optional', 'npm-peer', 'npm-no-pkg', 'npm-unknown'], dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'transports-not-to-db',
      comment: 'transports reach data through services and name database states with the domain; entities and the ORM stay below',
      severity: 'error',
      from: {
        path: '^src/(http|web|graphql)/',
      },
      to: { path: '^src/db/' },
    },
    {
      name: 'in-a-layer',
      comment: 'every source module belongs to a layer of this file; add a new folder to LAYERS',
      severity: 'error',
      from: { path: '^src/', pathNot: LAYERS.flatMap((layer) => layer.path) },
      to: {},
    },
    {
      name: 'not-to-unresolvable',
      comment: 'an import that does not resolve would escape every rule above',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^test/' },
    // Count `import type` too, so a type from a layer above is a violation like any import.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.json'], exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'], mainFields: ['module', 'main', 'types', 'typings'] },
  },
};
