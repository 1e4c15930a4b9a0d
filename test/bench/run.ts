/**
 * `npm run bench`: one table of side-by-side ratios, each pair measured in the same run with the
 * sides interleaved A B A B A B and medians reported. The service runs as users start it
 * (`npm start` with environment variables), the floors are bare node:http + pg scripts of this
 * folder, and the load generator (autocannon, test/bench/load.mjs) runs in its own process.
 *
 *   npm run bench                       every row
 *   npm run bench -- status list        only these rows (status graphql list deep generate rendering subscriptions print proof campaign uploads scale curation faces photos editor)
 *   npm run bench -- --quick status     shorter runs, smaller seeds (figures for a quick look only)
 *
 * Needs DATABASE_URL's server (default postgres://postgres@127.0.0.1:5432/postgres) with a role that
 * may CREATE DATABASE: it works in its own databases photobook_bench and photobook_bench_deep, never in
 * the tests'. Prints figures; asserts nothing (speed is never asserted in a timed test).
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { once } from 'node:events';
import os from 'node:os';
import { rm } from 'node:fs/promises';
import pg from 'pg';
import { Cursor } from '@mikro-orm/core';
import {
  ROOT,
  benchDatabase,
  createClient,
  freePort,
  load,
  median,
  newDataDir,
  seedProjects,
  startFloor,
  startProject,
  type IssuedClient,
  type LoadResult,
  type LoadSpec,
  type Running,
} from './bench-env';
import { generateBodies } from './bench-rows';
import { dropRealProjects, realProjects } from './real-projects';
import { heldMemory } from './held-memory';
import { makePhoto, startPhotoServer } from '../support/photo-server';
import { printBody } from '../support/print-fixtures';

const ROWS = [
  'status',
  'graphql',
  'list',
  'deep',
  'generate',
  'rendering',
  'subscriptions',
  'print',
  'proof',
  'campaign',
  'uploads',
  'scale',
  'curation',
  'faces',
  'photos',
  'editor',
] as const;
type Row = (typeof ROWS)[number];
const args = process.argv.slice(2);
const quick = args.includes('--quick');
const selected = args.filter((a) => !a.startsWith('--'));
for (const name of selected)
  if (!ROWS.includes(name as Row)) throw new Error(`unknown row "${name}": one of ${ROWS.join(', ')}`);
const wanted = (row: Row) => selected.length === 0 || selected.includes(row);

const CONNECTIONS = 50;
const SECONDS = quick ? 3 : 8;
const ROUNDS = 3;
/** The endpoint rows read projects made through the API (real-projects.ts): 10 users with a full page and one more each. */
const REAL_USERS = 10;
const REAL_PER_USER = 101;
const DEEP_PROJECTS = quick ? 100_000 : 1_000_000;

interface TableRow {
  what: string;
  project: string;
  comparedWith: string;
  ratio: string;
  target: string;
  met: string;
}
const table: TableRow[] = [];
const notes: string[] = [];

const fmt = (r: LoadResult) => `${r.rps.toFixed(0)} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms`;
const pick = (results: LoadResult[]): LoadResult => ({
  rps: median(results.map((r) => r.rps)),
  p50: median(results.map((r) => r.p50)),
  p99: median(results.map((r) => r.p99)),
  ok: results.reduce((n, r) => n + r.ok, 0),
  non2xx: results.reduce((n, r) => n + r.non2xx, 0),
  errors: results.reduce((n, r) => n + r.errors, 0),
});

/** Each side in turn (A B A B A B for two), ROUNDS times; `between` runs after every side (e.g. to let background work drain). */
async function interleavedAll(
  sides: (() => Promise<LoadResult>)[],
  between?: () => Promise<void>,
): Promise<LoadResult[]> {
  const results: LoadResult[][] = sides.map(() => []);
  for (let round = 0; round < ROUNDS; round++) {
    for (const [i, side] of sides.entries()) {
      results[i].push(await side());
      await between?.();
    }
  }
  const medians = results.map(pick);
  for (const [i, r] of medians.entries()) {
    if (r.non2xx || r.errors)
      notes.push(`side ${'ABCDEF'[i]} had ${r.non2xx} non-2xx answers and ${r.errors} errors (of ${r.ok + r.non2xx})`);
  }
  return medians;
}

async function interleaved(a: () => Promise<LoadResult>, b: () => Promise<LoadResult>, between?: () => Promise<void>) {
  const [ma, mb] = await interleavedAll([a, b], between);
  return [ma, mb] as const;
}

const run = (
  target: Running,
  client: IssuedClient,
  spec: Omit<LoadSpec, 'url' | 'connections' | 'seconds' | 'headers'>,
  connections = CONNECTIONS,
) => load({ url: target.url, connections, seconds: SECONDS, headers: { 'x-service': client.header }, ...spec });

function ratioRow(what: string, a: LoadResult, b: LoadResult, comparedWith: string, min: number, p99Max?: number) {
  const ratio = a.rps / b.rps;
  const p99Ratio = a.p99 / Math.max(b.p99, 1);
  const met = ratio >= min && (p99Max === undefined || p99Ratio <= p99Max);
  table.push({
    what,
    project: fmt(a),
    comparedWith: `${comparedWith}: ${fmt(b)}`,
    ratio: `${ratio.toFixed(2)}${p99Max === undefined ? '' : `, p99 ${p99Ratio.toFixed(2)}x`}`,
    target: `>= ${min.toFixed(2)}${p99Max === undefined ? '' : `, p99 <= ${p99Max}x`}`,
    met: met ? 'yes' : 'NO',
  });
}

/**
 * Builds started by generate run in the service's embedded engine, queued: wait for them before the
 * next side, and say how long the backlog a side left took to build (the answers measure only the
 * durable start).
 */
async function flowsDrained(databaseUrl: string) {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  const started = Date.now();
  let backlog: number | undefined;
  try {
    for (let i = 0; i < 1200; i++) {
      const { rows } = await db.query(
        `SELECT count(*)::int AS n FROM dbos.workflow_status WHERE status IN ('PENDING', 'ENQUEUED')`,
      );
      backlog ??= rows[0].n;
      if (rows[0].n === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  } finally {
    await db.end();
  }
  const seconds = (Date.now() - started) / 1000;
  if (backlog)
    console.error(
      `builds left after the load: ${backlog}, done ${seconds.toFixed(1)} s later (${(backlog / seconds).toFixed(0)} builds/s with nothing else to do)`,
    );
}

async function endpointRows() {
  const real = await realProjects('photobook_bench', REAL_USERS, REAL_PER_USER);
  const { databaseUrl: url, dataDir, client } = real;
  notes.push(`status, graphql, list: ${real.made}`);
  const service = await startProject({ databaseUrl: url, dataDir });
  // BENCH_BASELINE_ROOT: another checkout's service (e.g. main before a change) on the same data, a
  // side of its own in the status and GraphQL rows, so before and after are measured interleaved.
  const baselineRoot = process.env.BENCH_BASELINE_ROOT;
  const baseline = baselineRoot
    ? await startProject({ databaseUrl: url, dataDir, root: baselineRoot, env: { EXECUTOR_ID: 'bench-baseline' } })
    : undefined;
  const floor = await startFloor('floor-server.mjs', url);
  const limitedFloor = await startFloor('floor-server.mjs', url, { FLOOR_SHARED_RATE_LIMIT: '1' });
  // Apollo's standalone server answers GETs only with a CSRF-safe header.
  const apolloFloor = wanted('graphql')
    ? await startFloor('apollo-floor.mjs', url, {}, [], {
        path: '/?query=%7B__typename%7D',
        headers: { 'apollo-require-preflight': 'true' },
      })
    : undefined;
  try {
    const statusPaths = Array.from(
      { length: 5000 },
      () => `/v2/project/status?id=${real.ids[Math.floor(Math.random() * real.ids.length)]}`,
    );
    const listPaths = Array.from({ length: REAL_USERS }, (_, i) => `/v2/project/list?user=bench-user-${i + 1}`);
    // The floor must give the service's answers: compare them, with each server's own address.
    for (const sample of [
      ...statusPaths.slice(0, 20),
      ...(await orderedStatusPaths(url, client.clientId)),
      ...listPaths.slice(0, 2),
    ]) {
      const difference = await sameAnswers(service, floor, client, sample);
      if (difference) notes.push(`the floor's answer to ${sample} differs from the service's: ${difference}`);
    }
    // Warm both (JIT, pools) before measuring.
    await load({
      url: service.url,
      connections: CONNECTIONS,
      seconds: 2,
      headers: { 'x-service': client.header },
      paths: statusPaths,
    });
    await load({
      url: floor.url,
      connections: CONNECTIONS,
      seconds: 2,
      headers: { 'x-service': client.header },
      paths: statusPaths,
    });

    if (baseline) {
      for (const sample of [...statusPaths.slice(0, 20), ...(await orderedStatusPaths(url, client.clientId))]) {
        const difference = await sameAnswers(service, baseline, client, sample);
        if (difference) notes.push(`the baseline's answer to ${sample} differs from the service's: ${difference}`);
      }
      await load({
        url: baseline.url,
        connections: CONNECTIONS,
        seconds: 2,
        headers: { 'x-service': client.header },
        paths: statusPaths,
      });
    }

    if (wanted('status')) {
      const [a, b, c, d] = await interleavedAll([
        () => run(service, client, { paths: statusPaths }),
        () => run(floor, client, { paths: statusPaths }),
        () => run(limitedFloor, client, { paths: statusPaths }),
        ...(baseline ? [() => run(baseline, client, { paths: statusPaths })] : []),
      ]);
      ratioRow(
        'GET /v2/project/status',
        a,
        b,
        'floor (floor-server.mjs): bare node:http + pg, credential cache, same SELECT and JSON',
        0.6,
        1.5,
      );
      ratioInfo(
        'the status floor spending a rate limit kept in PostgreSQL (one upsert a request, FLOOR_SHARED_RATE_LIMIT)',
        c,
        b,
        'the status floor',
      );
      if (d) ratioRow(`GET /v2/project/status, baseline (${baselineRoot})`, d, b, 'the status floor', 0.6, 1.5);
    }
    if (wanted('graphql')) {
      const query = 'query ($id: String!) { project(id: $id) { id status { project photos } } }';
      const bodies = statusPaths
        .slice(0, 1000)
        .map((p) => JSON.stringify({ query, variables: { id: p.split('=')[1] } }));
      const [a, b, c, d] = await interleavedAll([
        () => run(service, client, { method: 'POST', paths: ['/graphql'], bodies }),
        () => run(apolloFloor!, client, { method: 'POST', paths: ['/graphql'], bodies }),
        () => run(service, client, { paths: statusPaths }),
        ...(baseline ? [() => run(baseline, client, { method: 'POST', paths: ['/graphql'], bodies })] : []),
      ]);
      ratioRow(
        'GraphQL project(id) { id status { project photos } }',
        a,
        b,
        'floor (apollo-floor.mjs): @apollo/server standalone, one resolver, same SELECT',
        0.85,
      );
      ratioInfo('the same GraphQL query', a, c, 'our REST GET /v2/project/status');
      if (d) ratioRow(`GraphQL project(id), baseline (${baselineRoot})`, d, b, 'the Apollo floor', 0.85);
    }
    if (wanted('list')) {
      const [a, b] = await interleaved(
        () => run(service, client, { paths: listPaths }),
        () => run(floor, client, { paths: listPaths }),
      );
      ratioRow(
        'GET /v2/project/list, a full page of 100',
        a,
        b,
        'floor (floor-server.mjs): bare node:http + pg, credential cache, same keyset SELECT and JSON',
        0.5,
        2,
      );
    }
    if (wanted('generate')) {
      let batch = 0;
      const bodies = () => generateBodies(2000).map((b) => b.replace('gen-user-', `gen-user-${batch++}-`));
      const [a, b] = await interleaved(
        () => run(service, client, { method: 'POST', paths: ['/v2/generate'], bodies: bodies() }),
        () => run(floor, client, { method: 'POST', paths: ['/v2/generate'], bodies: bodies() }),
        () => flowsDrained(url),
      );
      ratioRow(
        'POST /v2/generate, no photos',
        a,
        b,
        'floor (floor-server.mjs): bare node:http + pg, same statements in one transaction',
        0.25,
      );
    }
  } finally {
    await apolloFloor?.stop();
    await limitedFloor.stop();
    await floor.stop();
    await baseline?.stop();
    await service.stop();
    await dropRealProjects(real);
  }
}

/** Status paths of ordered projects (their answers carry the order and the addressee). */
async function orderedStatusPaths(url: string, clientId: string): Promise<string[]> {
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  const { rows } = await db.query<{ id: string }>('SELECT id FROM projects WHERE client_id = $1 AND ordered LIMIT 3', [
    clientId,
  ]);
  await db.end();
  return rows.map((r) => `/v2/project/status?id=${r.id}`);
}

/**
 * Whether the floor answers `path` as the service does: the same JSON, byte for byte, once each
 * server's own address is replaced by a placeholder and signatures and expiries (which carry the
 * second they were made) by their shape. Returns the first difference, or undefined.
 */
async function sameAnswers(service: Running, floor: Running, client: IssuedClient, path: string) {
  const answer = async (server: Running) => {
    const response = await fetch(`${server.url}${path}`, { headers: { 'x-service': client.header } });
    return (await response.text())
      .replaceAll(server.url, 'http://HOST')
      .replace(/expires=\d+/g, 'expires=N')
      .replace(/signature=[\w-]{43}/g, 'signature=S');
  };
  const [ours, theirs] = [await answer(service), await answer(floor)];
  if (ours === theirs) return undefined;
  let at = 0;
  while (ours[at] === theirs[at]) at++;
  return `service ${ours.length} bytes, floor ${theirs.length}; first at ${at}: ${JSON.stringify(ours.slice(at - 40, at + 60))} against ${JSON.stringify(theirs.slice(at - 40, at + 60))}`;
}

/** A ratio shown for information, without a target. */
function ratioInfo(what: string, a: LoadResult, b: LoadResult, comparedWith: string) {
  table.push({
    what,
    project: fmt(a),
    comparedWith: `${comparedWith}: ${fmt(b)}`,
    ratio: `${(a.rps / b.rps).toFixed(2)}, p99 ${(a.p99 / Math.max(b.p99, 1)).toFixed(2)}x`,
    target: '(context)',
    met: '-',
  });
}

/** Page 10,000 of one user's 1,000,000 projects, reached by cursor, against page 1: median latency. */
async function deepRow() {
  const url = await benchDatabase('photobook_bench_deep');
  const dataDir = await newDataDir();
  let service = await startProject({ databaseUrl: url, dataDir });
  const client = await createClient(url, dataDir, 'Deep shop');
  await service.stop();
  console.error(`seeding ${DEEP_PROJECTS} projects for one user ...`);
  await seedProjects(url, client.clientId, DEEP_PROJECTS, 1);
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  const lastPage = DEEP_PROJECTS / 100;
  // The cursor the service hands out after page lastPage - 1: the last row of that page.
  const { rows } = await db.query(
    `SELECT created_at, id FROM projects WHERE client_id = $1 ORDER BY created_at DESC, id DESC OFFSET $2 LIMIT 1`,
    [client.clientId, (lastPage - 1) * 100 - 1],
  );
  await db.end();
  const cursor = Cursor.encode([new Date(rows[0].created_at), rows[0].id]);
  service = await startProject({ databaseUrl: url, dataDir });
  try {
    const deep = `/v2/project/list?user=bench-user-1&cursor=${cursor}`;
    const first = '/v2/project/list?user=bench-user-1';
    const connections = 10;
    await run(service, client, { paths: [first] }, connections);
    const [a, b] = await interleaved(
      () => run(service, client, { paths: [deep] }, connections),
      () => run(service, client, { paths: [first] }, connections),
    );
    const ratio = a.p50 / Math.max(b.p50, 1);
    table.push({
      what: `GET /v2/project/list, page ${lastPage.toLocaleString('en')} by cursor (${DEEP_PROJECTS.toLocaleString('en')} projects, ${connections} connections)`,
      project: fmt(a),
      comparedWith: `page 1: ${fmt(b)}`,
      ratio: `median latency ${ratio.toFixed(2)}x`,
      target: '<= 1.2x',
      met: ratio <= 1.2 ? 'yes' : 'NO',
    });
  } finally {
    await service.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** The status of an order line's project, as a shop polls it. */
async function orderStatusOf(service: Running, client: IssuedClient, id: string): Promise<string | undefined> {
  const response = await fetch(`${service.url}/v2/project/status?id=${id}`, {
    headers: { 'x-service': client.header },
  });
  return ((await response.json()) as { status?: { order?: string } }).status?.order;
}

/**
 * `GET /v2/project/status` while the service renders a book for print (a sandbox order of a
 * 12-photo A4 book, colour correction on, in the service's own engine), against the same load with
 * nothing rendering: idle, then an order is placed and measured once its line is `rendering`,
 * ROUNDS times, one book each.
 */
async function renderingRow() {
  const real = await realProjects('photobook_bench_render', REAL_USERS, REAL_PER_USER);
  const { databaseUrl: url, dataDir, client } = real;
  notes.push(`rendering: ${real.made}`);
  const service = await startProject({
    databaseUrl: url,
    dataDir,
    env: { ALLOW_LOOPBACK_URLS: 'true', SANDBOX_PRINTER_STEP: '1s' },
  });
  const photos = await startPhotoServer(
    Object.fromEntries(
      await Promise.all(
        Array.from(
          { length: 12 },
          async (_, i) =>
            [
              `/p${i}.jpg`,
              {
                body: await makePhoto({
                  width: i % 2 ? 3000 : 4000,
                  height: i % 2 ? 4000 : 3000,
                  colour: `#${(0x3a7bd5 + i * 0x1111).toString(16).slice(-6)}`,
                }),
              },
            ] as const,
        ),
      ),
    ),
  );
  try {
    const statusPaths = Array.from(
      { length: 5000 },
      () => `/v2/project/status?id=${real.ids[Math.floor(Math.random() * real.ids.length)]}`,
    );
    const books: string[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const generated = await fetch(`${service.url}/v2/generate`, {
        method: 'POST',
        headers: { 'x-service': client.header, 'content-type': 'application/json' },
        body: JSON.stringify({
          sku: 'PB-HC-A4-P',
          psp: 'local',
          marketId: 0,
          userId: `render-${i}`,
          photos: Array.from({ length: 12 }, (_, p) => ({ id: `c${p}`, url: photos.url(`/p${p}.jpg`) })),
        }),
      });
      books.push(new URL(((await generated.json()) as { url: string }).url).searchParams.get('id')!);
    }
    await flowsDrained(url);
    await run(service, client, { paths: statusPaths });
    const idle: LoadResult[] = [];
    const rendering: LoadResult[] = [];
    const renderSeconds: number[] = [];
    for (const [i, book] of books.entries()) {
      idle.push(await run(service, client, { paths: statusPaths }));
      const order = await fetch(`${service.url}/v2/print`, {
        method: 'POST',
        headers: { 'x-service': client.header, 'content-type': 'application/json' },
        body: JSON.stringify(printBody(`bench-render-${i}`, book, { colorCorrection: true })),
      });
      if (order.status !== 200) throw new Error(`print answered ${order.status}: ${await order.text()}`);
      while ((await orderStatusOf(service, client, book)) !== 'rendering')
        await new Promise((resolve) => setTimeout(resolve, 100));
      const started = Date.now();
      rendering.push(await run(service, client, { paths: statusPaths }));
      const stillRendering = (await orderStatusOf(service, client, book)) === 'rendering';
      while ((await orderStatusOf(service, client, book)) === 'rendering')
        await new Promise((resolve) => setTimeout(resolve, 250));
      renderSeconds.push((Date.now() - started) / 1000);
      if (!stillRendering)
        notes.push(
          `rendering: book ${i + 1} finished rendering before its ${SECONDS} s of load ended; that side measured partly idle`,
        );
    }
    const [a, b] = [pick(rendering), pick(idle)];
    const ratio = a.rps / b.rps;
    table.push({
      what: `GET /v2/project/status while a 12-photo A4 book renders for print (renders took ${renderSeconds.map((x) => x.toFixed(0)).join(', ')} s under this load)`,
      project: fmt(a),
      comparedWith: `the same with nothing rendering: ${fmt(b)}`,
      ratio: ratio.toFixed(2),
      target: '>= 0.70',
      met: ratio >= 0.7 ? 'yes' : 'NO',
    });
  } finally {
    await photos.close();
    await service.stop();
    await dropRealProjects(real);
  }
}

/**
 * `count` idle graphql-ws subscriptions to one project (test/bench/subscribers.mjs, its own
 * process), then one status change of that project (a sync delete): the server's memory per
 * subscription (after full collections, through its inspector) and when each subscriber heard of it.
 */
async function fanOut(server: Running, inspectorPort: number, client: IssuedClient, count: number, project: string) {
  const before = await heldMemory(inspectorPort);
  const child = spawn(process.execPath, ['test/bench/subscribers.mjs'], {
    cwd: ROOT,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const exited = once(child, 'exit');
  child.stdin!.end(
    JSON.stringify({
      url: server.url,
      count,
      accessKey: client.accessKey,
      accessSecret: client.accessSecret,
      projectId: project,
    }),
  );
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  const ready = await lines.next();
  if (ready.value !== 'ready') throw new Error(`subscribers: ${ready.value}`);
  await new Promise((resolve) => setTimeout(resolve, 2000));
  const held = await heldMemory(inspectorPort);
  const sent = performance.timeOrigin + performance.now();
  const response = await fetch(`${server.url}/v2/project/delete`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-service': client.header },
    body: JSON.stringify({ user: 'bench-user-1', type: 'sync', ids: [project] }),
  });
  if (!response.ok) throw new Error(`delete answered ${response.status}`);
  const report = JSON.parse((await lines.next()).value as string) as { received: number; times: number[] };
  await exited;
  const latencies = report.times.map((t) => t - sent).sort((a, b) => a - b);
  const p99 = latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * 0.99))] ?? Number.NaN;
  return {
    perSubKiB: (held.rssKiB - before.rssKiB) / count,
    heapPerSubKiB: (held.heapUsedKiB - before.heapUsedKiB) / count,
    p99,
    received: report.received,
  };
}

type FanOut = Awaited<ReturnType<typeof fanOut>>;

/**
 * The service and the floor (floor-server.mjs: bare ws, the NOTIFY heard sent to each socket,
 * serialized once) each hold `many` subscribers and then 100, interleaved. The floor shows what one
 * socket write per subscriber costs on this machine, whatever the server does around it.
 */
async function subscriptionsRow() {
  const many = quick ? 2000 : 10_000;
  const real = await realProjects('photobook_bench_subs', REAL_USERS, REAL_PER_USER);
  const { databaseUrl: url, dataDir, client } = real;
  notes.push(`subscriptions: ${real.made}`);
  // Each fan-out deletes one of bench-user-1's projects (fanOut's delete names that user); ordered ones stay.
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  const { rows: deletable } = await db
    .query<{ id: string }>(
      `SELECT p.id FROM projects p JOIN end_users u ON u.id = p.owner_id
        WHERE u.external_id = 'bench-user-1' AND NOT p.ordered ORDER BY p.id LIMIT $1`,
      [4 * ROUNDS],
    )
    .finally(() => db.end());
  const projects = deletable.map((row) => row.id);
  const [serviceInspector, floorInspector] = [await freePort(), await freePort()];
  const service = await startProject({
    databaseUrl: url,
    dataDir,
    nodeFlags: [`--inspect=127.0.0.1:${serviceInspector}`],
  });
  const floor = await startFloor('floor-server.mjs', url, {}, [`--inspect=127.0.0.1:${floorInspector}`]);
  try {
    const sides = {
      service: { small: [] as FanOut[], large: [] as FanOut[] },
      floor: { small: [] as FanOut[], large: [] as FanOut[] },
    };
    let project = 0;
    for (let round = 0; round < ROUNDS; round++) {
      sides.service.small.push(await fanOut(service, serviceInspector, client, 100, projects[project++]!));
      sides.floor.small.push(await fanOut(floor, floorInspector, client, 100, projects[project++]!));
      sides.service.large.push(await fanOut(service, serviceInspector, client, many, projects[project++]!));
      sides.floor.large.push(await fanOut(floor, floorInspector, client, many, projects[project++]!));
    }
    const summary = ({ small, large }: { small: FanOut[]; large: FanOut[] }) => ({
      perSub: median(large.map((r) => r.perSubKiB)),
      heapPerSub: median(large.map((r) => r.heapPerSubKiB)),
      p99Large: median(large.map((r) => r.p99)),
      p99Small: median(small.map((r) => r.p99)),
      missed: large.reduce((n, r) => n + (many - r.received), 0),
    });
    const [ours, bare] = [summary(sides.service), summary(sides.floor)];
    for (const [side, { missed }] of [
      ['service', ours],
      ['floor', bare],
    ] as const) {
      if (missed)
        notes.push(`subscriptions (${side}): ${missed} of ${many * ROUNDS} subscribers heard nothing within the wait`);
    }
    const ratio = ours.p99Large / ours.p99Small;
    table.push({
      what: `${many.toLocaleString('en')} idle graphql-ws subscriptions, one status change fanned out`,
      project: `${ours.perSub.toFixed(1)} KiB each (resident, after full collections; ${ours.heapPerSub.toFixed(1)} KiB of it V8 heap); fan-out p99 ${ours.p99Large.toFixed(0)} ms`,
      comparedWith: `100 subscriptions: fan-out p99 ${ours.p99Small.toFixed(0)} ms`,
      ratio: `p99 ${ratio.toFixed(2)}x`,
      target: '<= 10 KiB each, p99 <= 5x',
      met: ours.perSub <= 10 && ratio <= 5 ? 'yes' : 'NO',
    });
    table.push({
      what: `the same fan-out on bare ws (floor-server.mjs: no GraphQL, serialized once)`,
      project: `${many.toLocaleString('en')}: p99 ${ours.p99Large.toFixed(0)} ms, ${ours.perSub.toFixed(1)} KiB each`,
      comparedWith: `${many.toLocaleString('en')}: p99 ${bare.p99Large.toFixed(0)} ms, ${bare.perSub.toFixed(1)} KiB each; 100: p99 ${bare.p99Small.toFixed(0)} ms (${(bare.p99Large / bare.p99Small).toFixed(1)}x)`,
      ratio: `p99 ${(ours.p99Large / bare.p99Large).toFixed(2)}x`,
      target: '(context)',
      met: '-',
    });
  } finally {
    await floor.stop();
    await service.stop();
    await dropRealProjects(real);
  }
}

/** Runs another benchmark script of this folder and returns its output. */
async function script(file: string, env: Record<string, string> = {}): Promise<string> {
  const child = spawn(process.execPath, ['--import', 'tsx', `test/bench/${file}`], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
    env: {
      ...process.env,
      DATABASE_URL: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
      ...env,
    },
  });
  let out = '';
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const [code] = await once(child, 'exit');
  if (code !== 0) throw new Error(`${file} exited with ${code}`);
  return out;
}

async function printRow() {
  const out = await script('print-render.ts', quick ? { BENCH_PAGES: '8' } : {});
  const cell = (label: string) =>
    out
      .split('\n')
      .find((l) => l.startsWith(`| ${label}`))
      ?.split('|')
      .map((c) => c.trim());
  const ours = cell('  same, colour correction on');
  const floor = cell('libvips floor');
  if (!ours || !floor) {
    notes.push(`print: could not read the figures of print-render.ts:\n${out}`);
    return;
  }
  const seconds = (c: string) => Number.parseFloat(c);
  const what = `print render, ${quick ? 8 : 24}-page A4 at 300 DPI, colour correction on (test/bench/print-render.ts)`;
  const ofFloor = seconds(floor[2]) / seconds(ours[2]);
  const memoryOfFloor = Number.parseFloat(ours[3]) / Number.parseFloat(floor[3]);
  table.push({
    what,
    project: `${ours[2]}, ${ours[3]}`,
    comparedWith: `floor (print-render.ts --libvips): plain sharp, same composition and PDF writer: ${floor[2]}, ${floor[3]}`,
    ratio: `${ofFloor.toFixed(2)} of its speed, ${memoryOfFloor.toFixed(2)}x its memory`,
    target: '>= 0.80, memory <= 1.3x',
    met: ofFloor >= 0.8 && memoryOfFloor <= 1.3 ? 'yes' : 'NO',
  });
  // ImageMagick one page at a time, for context: it is not the limit, libvips is.
  const im = cell('ImageMagick, pages + PDF') ?? cell('ImageMagick');
  const imSpeed = im ? seconds(im[2]) / seconds(ours[2]) : Number.NaN;
  table.push({
    what: 'the same render against ImageMagick',
    project: `${ours[2]}, ${ours[3]}`,
    comparedWith:
      im && !Number.isNaN(imSpeed)
        ? `${im[1]}: ${im[2]}, ${im[3]}`
        : 'ImageMagick is not installed (Debian package imagemagick)',
    ratio:
      im && !Number.isNaN(imSpeed)
        ? `${imSpeed.toFixed(2)}x faster, ${(Number.parseFloat(ours[3]) / Number.parseFloat(im[3])).toFixed(2)}x the memory`
        : '-',
    target: '(context)',
    met: '-',
  });
  const two = cell('  two such books at once');
  const twoRatio = two ? Number.parseFloat(/([\d.]+)x the throughput/.exec(two[2])?.[1] ?? '') : Number.NaN;
  if (!two || Number.isNaN(twoRatio)) return;
  table.push({
    what: 'two of those books rendered at once in one process, against one after the other',
    project: `${two[2].split(':')[0]}, ${two[3]}`,
    comparedWith: `one after the other: twice ${ours[2].split(' ')[0]} s`,
    ratio: `${twoRatio.toFixed(2)}x the throughput`,
    target: '>= 1.6x',
    met: twoRatio >= 1.6 ? 'yes' : 'NO',
  });
}

async function facesRow() {
  const photos = quick ? 20 : 60;
  const out = await script('faces.ts', { BENCH_PHOTOS: String(photos) });
  process.stdout.write(out.replace(/^RESULT .*$/m, ''));
  const line = out.split('\n').find((l) => l.startsWith('RESULT '));
  if (!line) {
    notes.push(`faces: could not read the figures of faces.ts:\n${out}`);
    return;
  }
  const r = JSON.parse(line.slice('RESULT '.length));
  table.push({
    what: `faces kept inside the safe area by the automatic crop, ${photos} labelled photos x ${r.placements / r.labelledFaces} slots (test/bench/faces.ts)`,
    project: `${r.insideShare.toFixed(3)} (${r.insideShareFoundAndFit.toFixed(3)} where every face was detected)`,
    comparedWith: `detection recall ${r.recall.toFixed(3)}; ${r.msPerPhoto.toFixed(0)} ms a photo (${r.cpuMsPerPhoto.toFixed(0)} ms CPU, load ${r.load[0].toFixed(1)})`,
    ratio: '-',
    target: '>= 0.99',
    met: r.insideShare >= 0.99 ? 'yes' : 'NO',
  });
}

async function uploadsRow() {
  const photos = quick ? 10 : 100;
  const out = await script('uploads.ts', { BENCH_PHOTOS: String(photos) });
  const figure = (label: string) =>
    out
      .split('\n')
      .find((l) => l.startsWith(label))
      ?.slice(label.length)
      .trim() ?? '?';
  const [endToEnd, uploaded, floor] = [
    Number.parseFloat(figure('end to end seconds')),
    Number.parseFloat(figure('uploaded seconds')),
    Number.parseFloat(figure('floor seconds')),
  ];
  table.push({
    what: `${figure('photos')} uploaded over tus on loopback into an editable book, until analysed and placed (test/bench/uploads.ts)`,
    project: `${endToEnd} s end to end (bytes in after ${uploaded} s)`,
    comparedWith: `floor: the same bytes written to files on the same disk, fsynced, 4 at once: ${floor} s`,
    ratio: `${(uploaded / floor).toFixed(1)}x the floor for the bytes, ${(endToEnd / floor).toFixed(1)}x end to end`,
    target: '(figure: decoding 12 MP photos dominates)',
    met: '-',
  });
}

async function campaignRow() {
  // 2,000 rows a side: 10,000 a side took over an hour of a whole run, and the rate and the memory
  // settle within the first few hundred rows (10 builds in flight from the first window on).
  const rows = quick ? 300 : 2_000;
  const out = await script('campaign.ts', { BENCH_ROWS: String(rows), BENCH_ROUNDS: quick ? '2' : '1' });
  const figure = (label: string) =>
    out
      .split('\n')
      .find((l) => l.startsWith(label))
      ?.slice(label.length)
      .trim() ?? '?';
  const peak = Number.parseFloat(figure('service peak RSS'));
  const [ours, floor] = [
    Number.parseFloat(figure('rows per second')),
    Number.parseFloat(figure('floor rows per second')),
  ];
  table.push({
    what: `campaign of ${rows.toLocaleString('en')} rows (test/bench/campaign.ts)`,
    project: `${ours} rows/s, peak RSS ${peak} MiB`,
    comparedWith: `floor (campaign-floor.ts): same statements and image work a row, 4 rows at once, no engine: ${floor} rows/s`,
    ratio: (ours / floor).toFixed(2),
    target: '>= 0.50, peak RSS < 300 MiB',
    met: ours / floor >= 0.5 && peak < 300 ? 'yes' : 'NO',
  });
}

/**
 * test/bench/proof-book.ts: a 48-page book made through generate, its proof (POST /v2/project/proof)
 * until answered, and the print render of the same book, each beside its libvips floor.
 */
async function proofRow() {
  const out = await script('proof-book.ts');
  const figure = (label: string) =>
    out
      .split('\n')
      .find((l) => l.startsWith(`${label} `))
      ?.slice(label.length + 1)
      .trim() ?? '?';
  const seconds = (side: string) => Number.parseFloat(figure(`${side} seconds`));
  const side = (name: string) =>
    `${figure(`${name} seconds`)} s (${figure(`${name} cpu`)} s CPU${figure(`${name} rss`) === '?' ? '' : `, ${figure(`${name} rss`)} MB`})`;
  const book = `${figure('pages')}-page smartbook, ${figure('placements')} placements of ${figure('photos')} (${figure('layouts')}), built through POST /v2/generate in ${figure('build seconds')} s`;
  table.push({
    what: `proof of a ${book}: POST /v2/project/proof with colour correction until answered (test/bench/proof-book.ts; ${figure('proof files')})`,
    project: side('proof'),
    comparedWith: `floor (print-render.ts --libvips-proof): plain sharp, 2 pages at once, the same PDF writer and preview: ${side('proof floor')}`,
    ratio: `${(seconds('proof') / seconds('proof floor')).toFixed(2)}x the floor's time`,
    target: '<= 20 s',
    met: seconds('proof') <= 20 ? 'yes' : 'NO',
  });
  table.push({
    what: `print render of the same ${figure('pages')}-page book in one process (print-render.ts --ours, colour correction on)`,
    project: side('print'),
    comparedWith: `floor (print-render.ts --libvips): plain sharp, one page at a time, the same PDF writer: ${side('print floor')}`,
    ratio: `${(seconds('print floor') / seconds('print')).toFixed(2)} of its speed`,
    target: '>= 0.80',
    met: seconds('print floor') / seconds('print') >= 0.8 ? 'yes' : 'NO',
  });
}

/** test/bench/photos-to-book.ts: 100 photos of 12 MP (JPEG and HEIC) over loopback to an editable smartbook, against the least decode work. */
async function photosRow() {
  const out = await script('photos-to-book.ts', quick ? { BENCH_PHOTOS: '20' } : {});
  const figure = (label: string) =>
    out
      .split('\n')
      .find((l) => l.startsWith(label))
      ?.slice(label.length)
      .trim() ?? '?';
  const [ours, floor] = [Number.parseFloat(figure('service seconds')), Number.parseFloat(figure('floor seconds'))];
  const count = Number.parseInt(figure('photos'), 10);
  const target = (30 * count) / 100;
  table.push({
    what: `${figure('photos')} photos of 12 MP over loopback, POST /v2/generate until editable, every photo analysed and placed (test/bench/photos-to-book.ts; HEIC ${figure('mean HEIC MB')} MB and JPEG ${figure('mean JPEG MB')} MB on average, HEICs decoded by ${figure('heic decoder')}; ${figure('failed photos')} failed)`,
    project: `${ours} s`,
    comparedWith: `floor: each photo fetched and decoded once, shrunk to the 512 px thumbnail and measured, 2 at once: ${floor} s`,
    ratio: `${(ours / floor).toFixed(2)}x the floor's time`,
    target: `<= ${target.toFixed(0)} s`,
    // A photo that failed (e.g. DOWNLOAD_TIME_LIMIT) is a photo the customer lost: the wait is not met.
    met: ours <= target && figure('failed photos') === '0' ? 'yes' : 'NO',
  });
}

/** test/bench/editor-paint.ts: the editor link at 390 x 844, CPU throttled 4x, against a static page of the same first page. */
async function editorRow() {
  const out = await script('editor-paint.ts', quick ? { BENCH_LOADS: '3' } : {});
  if (out.startsWith('skipped')) {
    notes.push(`editor: ${out.trim()}`);
    return;
  }
  const figure = (label: string) =>
    Number.parseFloat(
      out
        .split('\n')
        .find((l) => l.startsWith(`${label} `))
        ?.slice(label.length + 1) ?? '',
    );
  const side = (name: string) =>
    `first paint ${figure(`${name} firstPaint`)} ms, first contentful paint ${figure(`${name} firstContentfulPaint`)} ms, book drawn ${figure(`${name} bookDrawn`)} ms, interactive ${figure(`${name} interactive`)} ms (${figure(`${name} longTasks`)} long tasks)`;
  const interactive = figure('editor interactive');
  table.push({
    what: `the editor link opened as a phone: 390 x 844, CPU throttled 4x, cold, loopback (test/bench/editor-paint.ts, median of ${figure('loads')} loads)`,
    project: side('editor'),
    comparedWith: `floor: a static page with the editor's stylesheet and page 1's ${figure('page-1 images')} images, no script: ${side('floor')}`,
    ratio: `interactive ${(interactive / figure('floor interactive')).toFixed(2)}x the floor's`,
    target: '<= 2000 ms interactive',
    met: interactive <= 2000 ? 'yes' : 'NO',
  });
}

/** test/bench/scale.ts: one ROLE=all process against 1 API with 1 and 2 workers; its lines are the figures. */
async function scaleRow() {
  const out = await script('scale.ts', quick ? { BENCH_QUICK: '1' } : {});
  for (const line of out.trim().split('\n').slice(1)) {
    const [head = '', campaign = '', status = ''] = line.split('|');
    table.push({
      what: `scale-out: ${head.slice(0, 22).trim()} (test/bench/scale.ts)`,
      project: `${head.slice(22).trim()}; ${campaign.trim()}`,
      comparedWith: status.trim(),
      ratio: '-',
      target: '-',
      met: '-',
    });
  }
  notes.push(`scale: ${out.trim().split('\n')[0]}`);
}

/** test/bench/curation.ts: smartbook curation on the labelled roll (no service, no database). */
async function curationRow() {
  const out = await script('curation.ts', quick ? { BENCH_QUICK: '1' } : {});
  const figure = (label: string) =>
    out
      .split('\n')
      .find((l) => l.startsWith(`${label} `))
      ?.slice(label.length)
      .trim() ?? '?';
  const at = (label: string) => Number.parseFloat(figure(label));
  const rows: [string, string, string, number][] = [
    [
      'duplicate grouping',
      `precision ${figure('duplicate precision')}, recall ${figure('duplicate recall')}`,
      '>= 0.95',
      Math.min(at('duplicate precision'), at('duplicate recall')),
    ],
    [
      'blur decisions',
      `precision ${figure('blur precision')}, recall ${figure('blur recall')}`,
      '>= 0.95',
      Math.min(at('blur precision'), at('blur recall')),
    ],
    [
      'event boundaries',
      `precision ${figure('event precision')}, recall ${figure('event recall')}`,
      '>= 0.9',
      Math.min(at('event precision'), at('event recall')),
    ],
  ];
  for (const [what, project, target, worst] of rows)
    table.push({
      what: `curation: ${what} on the labelled roll of ${figure('photos')} (test/bench/curation.ts)`,
      project,
      comparedWith: "the set's labels",
      ratio: '-',
      target,
      met: worst >= Number.parseFloat(target.slice(3)) ? 'yes' : 'NO',
    });
  table.push({
    what: 'curation: time per photo (test/bench/curation.ts)',
    project: `curation ${figure('curation ms per photo')} ms, layout ${figure('layout ms per photo')} ms, hash ${figure('hash ms per photo')} ms`,
    comparedWith: `analysis ${figure('analysis ms per photo')} ms; of a 12 MP photo ${figure('analysis ms per 12 MP photo')} ms`,
    ratio: '-',
    target: 'milliseconds a photo',
    met: at('curation ms per photo') + at('layout ms per photo') + at('hash ms per photo') < 5 ? 'yes' : 'NO',
  });
}

const started = Date.now();
console.error(
  `bench: ${os.cpus().length} cores, load ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}, ${quick ? 'quick' : 'full'} run of ${(selected.length ? selected : ROWS).join(', ')}`,
);
/**
 * One row set: its table rows are also printed to stderr as soon as they are measured, and a row
 * set that fails is recorded as such and the run goes on, so that one broken row costs neither the
 * rows measured before it nor those after it (a full run takes over an hour).
 */
async function measure(name: string, rows: () => Promise<void>) {
  const before = table.length;
  const at = Date.now();
  try {
    await rows();
  } catch (error) {
    console.error(error);
    table.push({
      what: `${name}: the row failed`,
      project: String((error as Error).message ?? error).slice(0, 200),
      comparedWith: '-',
      ratio: '-',
      target: '-',
      met: 'NO',
    });
  }
  console.error(
    `bench: ${name} took ${((Date.now() - at) / 1000).toFixed(0)} s, load ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  for (const r of table.slice(before))
    console.error(`| ${r.what} | ${r.project} | ${r.comparedWith} | ${r.ratio} | ${r.target} | ${r.met} |`);
}

if (['status', 'graphql', 'list', 'generate'].some((r) => wanted(r as Row))) await measure('endpoints', endpointRows);
if (wanted('deep')) await measure('deep', deepRow);
if (wanted('subscriptions')) await measure('subscriptions', subscriptionsRow);
if (wanted('rendering')) await measure('rendering', renderingRow);
if (wanted('print')) await measure('print', printRow);
if (wanted('proof')) await measure('proof', proofRow);
if (wanted('campaign')) await measure('campaign', campaignRow);
if (wanted('uploads')) await measure('uploads', uploadsRow);
if (wanted('scale')) await measure('scale', scaleRow);
if (wanted('curation')) await measure('curation', curationRow);
// The curation bench reports the faces kept inside the safe area too (issue 38).
if (wanted('faces') || wanted('curation')) await measure('faces', facesRow);
if (wanted('photos')) await measure('photos', photosRow);
if (wanted('editor')) await measure('editor', editorRow);

console.log(
  `\n${os.cpus().length} cores (${os.cpus()[0]?.model}), Node ${process.version}, load average at the end ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}; ` +
    `${CONNECTIONS} connections unless said, ${ROUNDS} rounds of ${SECONDS} s a side, interleaved, medians${quick ? ' (quick mode)' : ''}; ${((Date.now() - started) / 1000).toFixed(0)} s in all\n`,
);
console.log('| what | project | compared with | ratio | target | met? |');
console.log('|---|---|---|---|---|---|');
for (const r of table)
  console.log(`| ${r.what} | ${r.project} | ${r.comparedWith} | ${r.ratio} | ${r.target} | ${r.met} |`);
for (const note of notes) console.log(`\nnote: ${note}`);
