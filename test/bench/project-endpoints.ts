/**
 * Throughput and latency of GET /v2/project/status and /v2/project/list (100 per page) with
 * 100,000 projects in the database. Run: `npx tsx test/bench/project-endpoints.ts`
 * (DATABASE_URL's server when set, else the embedded PostgreSQL). Prints figures; asserts nothing.
 */
import 'reflect-metadata';
import { mkdtemp, rm, chmod } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { pino } from 'pino';
import { loadConfig } from '../../src/config';
import { startService } from '../../src/service';
import { ClientAdmin } from '../../src/services/clients/client-admin';
import { loadCredentialPepper } from '../../src/services/tenancy/pepper';

const PROJECTS = Number(process.env.BENCH_PROJECTS ?? 100_000);
const USERS = PROJECTS / 100; // every user has exactly one full page of 100
const DURATION_S = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);

const dataDir = await mkdtemp(path.join(os.tmpdir(), 'photobook-bench-'));
await chmod(dataDir, 0o755);
let databaseUrl: string | undefined;
if (process.env.DATABASE_URL) {
  const server = new URL(process.env.DATABASE_URL);
  const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await admin.connect();
  await admin.query('DROP DATABASE IF EXISTS photobook_bench WITH (FORCE)');
  await admin.query('CREATE DATABASE photobook_bench');
  await admin.end();
  server.pathname = '/photobook_bench';
  databaseUrl = server.toString();
}
// One credential at full speed: far over the default per-client rate limit, which is not what is measured.
const config = loadConfig({ DATABASE_URL: databaseUrl, DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'silent', RATE_LIMIT_MAX: '100000000' });
const service = await startService(config, pino({ level: 'silent' }));
const issued = await new ClientAdmin(service.orm.em.fork(), await loadCredentialPepper(config)).create('Bench shop');
const headers = { 'x-service': JSON.stringify({ accessKey: issued.credentials.dev.accessKey, accessSecret: issued.credentials.dev.accessSecret }) };

const seeded = Date.now();
const db = service.orm.em.getConnection();
await db.execute(
  `INSERT INTO end_users (id, client_id, env, external_id, created_at)
   SELECT gen_random_uuid(), ?, 'dev', 'bench-user-' || u, now() FROM generate_series(1, ?) AS u`,
  [issued.clientId, USERS],
);
await db.execute(
  `INSERT INTO projects (id, client_id, env, owner_id, product_id, market_id, sku, psp, language, layout_type,
                         e_commerce_plugin, metadata, custom, status, photos_status, title, ordered, created_at, updated_at, expires_at)
   SELECT 'p-bench' || lpad(n::text, 17, '0'), ?, 'dev', u.id, pr.id, m.id, pr.sku, 'local', 'en', 'fastbook',
          false, '{}', '{}', 'editable', 'idle', 'Book ' || n, false,
          now() - n * interval '1 second', now(), now() + interval '30 days'
   FROM generate_series(1, ?) AS n
   JOIN end_users u ON u.client_id = ? AND u.external_id = 'bench-user-' || (1 + (n - 1) % ?)
   CROSS JOIN LATERAL (SELECT id, sku FROM products WHERE client_id = ? ORDER BY product_id LIMIT 1) pr
   CROSS JOIN LATERAL (SELECT id FROM markets WHERE client_id = ? AND market_id = 0) m`,
  [issued.clientId, PROJECTS, issued.clientId, USERS, issued.clientId, issued.clientId],
);
await db.execute('ANALYZE');
console.log(`seeded ${PROJECTS} projects for ${USERS} users in ${((Date.now() - seeded) / 1000).toFixed(1)} s`);

const random = (n: number) => 1 + Math.floor(Math.random() * n);
async function run(title: string, pathOf: () => string) {
  const result = await autocannon({
    url: service.url,
    connections: CONNECTIONS,
    duration: DURATION_S,
    headers,
    requests: [{ method: 'GET', setupRequest: (request) => ({ ...request, path: pathOf() }) }],
  });
  const ok = result['2xx'];
  console.log(
    `${title.padEnd(34)} ${result.requests.average.toFixed(0).padStart(6)} req/s   p50 ${result.latency.p50} ms   p99 ${result.latency.p99} ms   ` +
      `(${ok} ok, ${result.non2xx} non-2xx, ${result.errors} errors, ${CONNECTIONS} connections, ${DURATION_S} s)`,
  );
}

// Warm the pools and caches, then measure.
await run('warm-up', () => `/v2/project/status?id=p-bench${String(random(PROJECTS)).padStart(17, '0')}`);
await run('GET /v2/project/status', () => `/v2/project/status?id=p-bench${String(random(PROJECTS)).padStart(17, '0')}`);
await run('GET /v2/project/list (100/page)', () => `/v2/project/list?user=bench-user-${random(USERS)}`);

await service.stop();
await rm(dataDir, { recursive: true, force: true });
