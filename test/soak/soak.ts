/**
 * Soak: `npm run soak` (not in CI). Starts the service as the README does (`tsx src/main.ts`, the
 * embedded PostgreSQL in a fresh DATA_DIR), measures its capacity with autocannon, then drives
 * mixed traffic at SOAK_LOAD (default 80%) of it for SOAK_SECONDS (default 300): generate, list,
 * status, GraphQL queries and prints, while SOAK_SUBSCRIBERS (default 1,000) graphql-ws subscribers
 * each follow one project or order line. Afterwards it checks that no request answered 5xx, every
 * acknowledged order exists once and completed, and every subscriber received exactly its subject's
 * status changes (from the status-event table), in order, each once. Then, if test/fuzz exists, it
 * runs the fuzzers with FUZZ_RUNS=SOAK_FUZZ_RUNS (default 20000; 0 skips them). Prints a summary; exits 1 on a
 * failed check.
 *
 * Throughout, every SOAK_SAMPLE_SECONDS (default 60) it reads the service's RSS and V8 heap from
 * its /metrics (prom-client's default metrics, measured in the service's own node process, not
 * the tsx wrapper) and the proportional set size of its whole process tree (node, its render child,
 * the embedded PostgreSQL) from /proc, appends them to a CSV (SOAK_MEMORY_CSV, default in the temporary
 * directory; the path is printed), and at the end judges the plateau (./memory-plateau.ts): the
 * soak fails if RSS or V8's heap total grew faster than SOAK_MAX_GROWTH_PERCENT_PER_HOUR (default
 * 5) over the last half of the driven traffic (`npm run soak:judge -- <csv>` judges a CSV again). SOAK_RATE fixes the request rate instead of
 * SOAK_LOAD x the measured capacity, which on a shared machine is a noisy figure.
 */
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { appendFile, chmod, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { createClient, type Client } from 'graphql-ws';
import pg from 'pg';
import WebSocket from 'ws';
import { printBody } from '../support/print-fixtures';
import { startServiceProcess } from '../support/service-process';
import { judgePlateau, type MemorySample } from './memory-plateau';
import { waivePhotoMinimum } from '../support/photo-minimum';

const SECONDS = Number(process.env.SOAK_SECONDS ?? 300);
const LOAD = Number(process.env.SOAK_LOAD ?? 0.8);
const SUBSCRIBERS = Number(process.env.SOAK_SUBSCRIBERS ?? 1000);
const PRINT_EVERY_MS = Number(process.env.SOAK_PRINT_EVERY_MS ?? 10_000);
const FUZZ_RUNS = process.env.SOAK_FUZZ_RUNS ?? '20000';
const FIXED_RATE = process.env.SOAK_RATE ? Number(process.env.SOAK_RATE) : undefined;
const SAMPLE_SECONDS = Number(process.env.SOAK_SAMPLE_SECONDS ?? 60);
const MAX_GROWTH_PERCENT_PER_HOUR = Number(process.env.SOAK_MAX_GROWTH_PERCENT_PER_HOUR ?? 5);
const MEMORY_CSV =
  process.env.SOAK_MEMORY_CSV ??
  path.join(os.tmpdir(), `photobook-soak-memory-${new Date().toISOString().replace(/[:.]/g, '-')}.csv`);
const ROOT = path.resolve(import.meta.dirname, '../..');

const dataDir = await mkdtemp(path.join(os.tmpdir(), 'photobook-soak-'));
await chmod(dataDir, 0o755);
// One shop sends the whole mix: its per-credential rate limit must not be what the soak measures.
const service = await startServiceProcess({
  DATA_DIR: dataDir,
  PORT: '0',
  DATABASE_URL: undefined,
  TEMPORAL_ADDRESS: undefined,
  SANDBOX_PRINTER_STEP: '1s',
  RATE_LIMIT_MAX: '10000000',
});
const url = service.url;
const metricsUrl = service.metricsUrl!;
const demo = JSON.parse(await readFile(path.join(dataDir, 'demo-client.json'), 'utf8'));
const credentials = demo.credentials.dev;
const auth = {
  'x-service': JSON.stringify({ accessKey: credentials.accessKey, accessSecret: credentials.accessSecret }),
  'content-type': 'application/json',
};
const embeddedPort = service.logs.find((l) => l.msg === 'embedded PostgreSQL started')?.port;
const database = new pg.Client({
  connectionString: `postgres://postgres:postgres@127.0.0.1:${embeddedPort}/photobook`,
});
// The soak orders books without photos: it measures the service, not the book (support/photo-minimum.ts).
await waivePhotoMinimum(`postgres://postgres:postgres@127.0.0.1:${embeddedPort}/photobook`, demo.clientId);

// 0. Memory, sampled from now to the end of the settling. `t` counts from the start of the driven
// traffic (negative during the capacity measurement), so the judgement can take the load alone.
const MiB = 1024 * 1024;
const memorySamples: (MemorySample & { phase: string })[] = [];
let trafficStarted: number | undefined;
let phase = 'capacity';
const processStarted = Date.now();
// The driver's counters, declared further down; until then there are none.
let progress = () => ({ requests: 0, subscribers: 0 });
const metric = (text: string, name: string) =>
  Number(new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)`, 'm').exec(text)?.[1]);
/**
 * Proportional set size (shared pages split between their users) of the service and every process
 * it started: the node process, its render child, the embedded PostgreSQL and its backends (which
 * leave the service's process group, so the tree is followed by parent id).
 */
async function treePssBytes(): Promise<number> {
  const parents = new Map<number, number>();
  for (const pid of (await readdir('/proc')).filter((name) => /^\d+$/.test(name))) {
    try {
      const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
      parents.set(Number(pid), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      /* gone meanwhile */
    }
  }
  const inTree = (pid: number): boolean =>
    pid === service.child.pid || (parents.has(pid) && pid > 1 && inTree(parents.get(pid)!));
  let total = 0;
  for (const pid of parents.keys()) {
    if (!inTree(pid)) continue;
    try {
      const pss = /^Pss:\s+(\d+) kB/m.exec(await readFile(`/proc/${pid}/smaps_rollup`, 'utf8'));
      total += Number(pss?.[1] ?? 0) * 1024;
    } catch {
      /* gone meanwhile, or not ours to read */
    }
  }
  return total;
}
await writeFile(
  MEMORY_CSV,
  'elapsed_s,t_s,phase,rss_mib,heap_used_mib,heap_total_mib,external_mib,tree_pss_mib,active_handles,requests,subscribers\n',
);
console.log(`memory samples every ${SAMPLE_SECONDS} s: ${MEMORY_CSV}`);
async function sampleMemory() {
  try {
    const response = await fetch(metricsUrl, { signal: AbortSignal.timeout(30_000) });
    const text = await response.text();
    const now = Date.now();
    const sample = {
      t: (now - (trafficStarted ?? now)) / 1000 - (trafficStarted === undefined ? 1 : 0),
      phase,
      rssBytes: metric(text, 'process_resident_memory_bytes'),
      heapUsedBytes: metric(text, 'nodejs_heap_size_used_bytes'),
      heapTotalBytes: metric(text, 'nodejs_heap_size_total_bytes'),
    };
    memorySamples.push(sample);
    const row = [
      Math.round((now - processStarted) / 1000),
      Math.round(sample.t),
      phase,
      (sample.rssBytes / MiB).toFixed(1),
      (sample.heapUsedBytes / MiB).toFixed(1),
      (sample.heapTotalBytes / MiB).toFixed(1),
      (metric(text, 'nodejs_external_memory_bytes') / MiB).toFixed(1),
      ((await treePssBytes()) / MiB).toFixed(1),
      metric(text, 'nodejs_active_handles_total'),
      progress().requests,
      progress().subscribers,
    ];
    await appendFile(MEMORY_CSV, `${row.join(',')}\n`);
  } catch (error) {
    console.log(`memory sample failed: ${(error as Error).message}`);
  }
}
await sampleMemory();
const sampler = setInterval(() => void sampleMemory(), SAMPLE_SECONDS * 1000);

const statuses = new Map<string, number>();
const count = (what: string, status: number) =>
  statuses.set(`${what} ${status}`, (statuses.get(`${what} ${status}`) ?? 0) + 1);
let fiveHundreds = 0;
async function call(
  what: string,
  method: string,
  pathAndQuery: string,
  body?: unknown,
): Promise<{ status: number; body: any } | undefined> {
  try {
    const response = await fetch(`${url}${pathAndQuery}`, {
      method,
      headers: auth,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    count(what, response.status);
    if (response.status >= 500) fiveHundreds++;
    return { status: response.status, body: text.startsWith('{') ? JSON.parse(text) : text };
  } catch {
    count(what, 0);
    return undefined;
  }
}

const generate = async (userId: string) => {
  const answer = await call('generate', 'POST', '/v2/generate', {
    sku: 'PB-HC-15-S',
    psp: 'local',
    marketId: 0,
    userId,
  });
  return answer?.status === 200 ? new URL(answer.body.url).searchParams.get('id')! : undefined;
};

// 1. Capacity: the same mix of calls (minus prints), as fast as 8 connections get answers.
const seedProject = (await generate('soak-seed'))!;
console.log('measuring capacity (autocannon, 8 connections, 10 s, the request mix)…');
const measured = await autocannon({
  url,
  headers: auth,
  connections: 8,
  duration: 10,
  requests: [
    {
      method: 'POST',
      path: '/v2/generate',
      body: JSON.stringify({ sku: 'PB-HC-15-S', psp: 'local', marketId: 0, userId: 'soak-capacity' }),
    },
    { method: 'GET', path: `/v2/project/status?id=${seedProject}` },
    { method: 'GET', path: `/v2/project/status?id=${seedProject}` },
    { method: 'GET', path: '/v2/project/list?user=soak-capacity' },
    {
      method: 'POST',
      path: '/graphql',
      body: JSON.stringify({ query: '{ projects(user: "soak-capacity", first: 5) { edges { node { id } } } }' }),
    },
  ],
});
const capacity = measured.requests.average;
const rate = FIXED_RATE ?? Math.max(1, Math.round(capacity * LOAD));
console.log(
  `capacity ≈ ${capacity.toFixed(0)} req/s (p99 ${measured.latency.p99} ms); driving the mix at ${rate} req/s${FIXED_RATE ? ' (SOAK_RATE)' : ''} for ${SECONDS} s`,
);

// 2. Subscribers: each follows one subject from sequence 0, so none can miss a change by
// subscribing late; they are attached as projects and order lines appear.
interface Follower {
  subjectType: 'project' | 'order';
  subjectId: string;
  sequences: number[];
  statuses: string[];
  errors: number;
  client: Client;
}
const followers: Follower[] = [];
function follow(
  subjectType: 'project' | 'order',
  subjectId: string,
  query: string,
  variables: Record<string, unknown>,
) {
  if (followers.length >= SUBSCRIBERS) return;
  const client = createClient({
    url: `${url.replace(/^http/, 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams: credentials,
    retryAttempts: 5,
  });
  const follower: Follower = { subjectType, subjectId, sequences: [], statuses: [], errors: 0, client };
  followers.push(follower);
  client.subscribe<Record<string, { sequence: number; status: any }>>(
    { query, variables },
    {
      next: (result) => {
        const event = result.data && Object.values(result.data)[0];
        if (!event) return void follower.errors++;
        follower.sequences.push(event.sequence);
        follower.statuses.push(typeof event.status === 'string' ? event.status : event.status.project);
      },
      error: () => void follower.errors++,
      complete: () => undefined,
    },
  );
}
const followProject = (projectId: string) =>
  follow(
    'project',
    projectId,
    'subscription ($id: String!) { projectStatusChanged(projectId: $id, afterSequence: 0) { sequence status { project } } }',
    { id: projectId },
  );
const followLine = (orderId: string, projectId: string) =>
  follow(
    'order',
    `${orderId}/${projectId}`,
    'subscription ($o: String!, $p: String!) { orderStatusChanged(orderId: $o, projectId: $p, afterSequence: 0) { sequence status } }',
    { o: orderId, p: projectId },
  );

// Spread so that the run reaches SOAK_SUBSCRIBERS whatever its length: 20 per order line, the
// rest over the projects it will generate (a fifth of the requests).
const expectedPrints = Math.floor((SECONDS * 1000) / PRINT_EVERY_MS);
const subscribersPerProject = Math.max(
  1,
  Math.ceil((SUBSCRIBERS - 20 * expectedPrints) / Math.max(1, rate * SECONDS * 0.2 * 0.9)),
);

// 3. The mix, open loop at `rate`: a late answer does not slow the next request down.
const generated: string[] = [seedProject];
const editable: string[] = [];
const acknowledgedOrders: { orderId: string; projectId: string }[] = [];
let n = 0;
let inFlight = 0;
let maxInFlight = 0;
progress = () => ({ requests: n, subscribers: followers.length });
async function oneRequest() {
  const i = n++;
  const user = `soak-${i % 50}`;
  const pick = i % 20;
  if (pick < 4) {
    const id = await generate(user);
    if (id) {
      generated.push(id);
      for (let k = 0; k < subscribersPerProject; k++) followProject(id);
    }
  } else if (pick < 10) {
    const id = generated[i % generated.length];
    const answer = await call('status', 'GET', `/v2/project/status?id=${id}`);
    if (
      answer?.body?.status?.project === 'editable' &&
      !editable.includes(id) &&
      !acknowledgedOrders.some((o) => o.projectId === id)
    )
      editable.push(id);
  } else if (pick < 14) {
    await call('list', 'GET', `/v2/project/list?user=${user}`);
  } else if (pick < 18) {
    await call('graphql', 'POST', '/graphql', {
      query: `{ projects(user: "${user}", first: 5) { edges { node { id status { project } } } } }`,
    });
  } else {
    await call('graphql-orders', 'POST', '/graphql', {
      query: '{ catalogue(marketId: 0, language: "en") { currency { code } } }',
    });
  }
}
async function onePrint() {
  const projectId = editable.shift();
  if (!projectId) return;
  const orderId = `soak-order-${acknowledgedOrders.length + 1}-${Date.now()}`;
  for (let s = 0; s < 20; s++) followLine(orderId, projectId);
  const answer = await call('print', 'POST', '/v2/print', printBody(orderId, projectId));
  if (answer?.status === 200) acknowledgedOrders.push({ orderId, projectId });
}

const started = Date.now();
trafficStarted = started;
phase = 'load';
await sampleMemory();
const timers: NodeJS.Timeout[] = [];
await new Promise<void>((resolve) => {
  const intervalMs = 1000 / rate;
  let due = Date.now();
  timers.push(
    setInterval(() => {
      const now = Date.now();
      while (due <= now) {
        due += intervalMs;
        inFlight++;
        maxInFlight = Math.max(maxInFlight, inFlight);
        void oneRequest().finally(() => inFlight--);
      }
    }, 10),
  );
  timers.push(setInterval(() => void onePrint(), PRINT_EVERY_MS));
  timers.push(
    setInterval(() => {
      const elapsed = Math.round((Date.now() - started) / 1000);
      console.log(
        `${elapsed}s: ${n} requests, ${inFlight} in flight, ${followers.length} subscribers, ${acknowledgedOrders.length} orders, ${fiveHundreds} 5xx`,
      );
    }, 15_000),
  );
  setTimeout(resolve, SECONDS * 1000);
});
timers.forEach(clearInterval);
const drivenSeconds = (Date.now() - started) / 1000;
await sampleMemory(); // the last sample under load
phase = 'settle';
while (inFlight > 0) await new Promise((resolve) => setTimeout(resolve, 100));

// 4. Settle: every acknowledged order completes, every project is built.
console.log('load stopped; waiting for orders to complete and builds to finish…');
await database.connect();
const settleDeadline = Date.now() + Number(process.env.SOAK_SETTLE_SECONDS ?? 300) * 1000;
const incomplete = async () => {
  const { rows } = await database.query<{ n: string }>(
    `SELECT count(*) AS n FROM order_lines l JOIN orders o ON o.id = l.order_id WHERE l.status <> 'complete'`,
  );
  const building = await database.query<{ n: string }>(
    `SELECT count(*) AS n FROM projects WHERE status IN ('created', 'building')`,
  );
  return Number(rows[0].n) + Number(building.rows[0].n);
};
while ((await incomplete()) > 0 && Date.now() < settleDeadline)
  await new Promise((resolve) => setTimeout(resolve, 1000));
await new Promise((resolve) => setTimeout(resolve, 2000)); // the last NOTIFYs reach the subscribers
await sampleMemory();
clearInterval(sampler);

// 5. Checks.
const problems: string[] = [];
if (fiveHundreds > 0) problems.push(`${fiveHundreds} answers were 5xx`);
const orders = await database.query<{ order_key: string; lines: string; complete: string }>(
  `SELECT o.order_id AS order_key, count(l.*) AS lines, count(l.*) FILTER (WHERE l.status = 'complete') AS complete FROM orders o JOIN order_lines l ON l.order_id = o.id GROUP BY o.order_id`,
);
const byKey = new Map(orders.rows.map((r) => [r.order_key, r]));
let lost = 0;
let duplicated = 0;
let notComplete = 0;
for (const { orderId } of acknowledgedOrders) {
  const row = byKey.get(orderId);
  if (!row) lost++;
  else if (Number(row.lines) !== 1) duplicated++;
  else if (Number(row.complete) !== 1) notComplete++;
}
const orderRowsPerKey = await database.query<{ n: string }>(
  `SELECT count(*) AS n FROM (SELECT order_id FROM orders GROUP BY order_id HAVING count(*) > 1) d`,
);
duplicated += Number(orderRowsPerKey.rows[0].n);
if (lost) problems.push(`${lost} acknowledged orders lost`);
if (duplicated) problems.push(`${duplicated} orders duplicated`);
if (notComplete) problems.push(`${notComplete} acknowledged orders not complete`);

const memory = judgePlateau(
  memorySamples.filter((s) => s.phase === 'load'),
  MAX_GROWTH_PERCENT_PER_HOUR,
);
if (!memory.plateau) problems.push(memory.reason);
const mib = (bytes: number | undefined) => (bytes === undefined ? undefined : Math.round(bytes / MiB));
const underLoad = memorySamples.filter((s) => s.phase === 'load');
const firstQuarterEnd = underLoad[Math.floor(underLoad.length / 4)];
const at = (sample: MemorySample | undefined) => ({
  rss: mib(sample?.rssBytes),
  heapUsed: mib(sample?.heapUsedBytes),
  heapTotal: mib(sample?.heapTotalBytes),
});

let subscriberMismatches = 0;
let eventsDelivered = 0;
for (const follower of followers) {
  const { rows } = await database.query<{ sequence: number; status: string }>(
    `SELECT sequence, status FROM status_events WHERE subject_type = $1 AND subject_id = $2 ORDER BY sequence`,
    [follower.subjectType, follower.subjectId],
  );
  eventsDelivered += follower.sequences.length;
  const expected = rows.map((r) => r.sequence).join(',');
  if (follower.sequences.join(',') !== expected || follower.errors > 0) {
    subscriberMismatches++;
    if (subscriberMismatches <= 3)
      console.log(
        `subscriber of ${follower.subjectType} ${follower.subjectId}: got [${follower.sequences}] expected [${expected}] (${follower.errors} errors)`,
      );
  }
}
if (subscriberMismatches)
  problems.push(
    `${subscriberMismatches} of ${followers.length} subscribers missed, repeated or reordered a status change`,
  );
await Promise.all(followers.map((f) => f.client.dispose()));
await database.end();
await service.stop();

// 6. The fuzzers with a large case count, if another part of the suite provides them.
let fuzz = 'test/fuzz absent: skipped';
if (Number(FUZZ_RUNS) === 0) fuzz = 'SOAK_FUZZ_RUNS=0: skipped';
else if (existsSync(path.join(ROOT, 'test/fuzz'))) {
  const run = spawnSync(path.join(ROOT, 'node_modules/.bin/vitest'), ['run', 'test/fuzz'], {
    cwd: ROOT,
    env: { ...process.env, FUZZ_RUNS },
    stdio: 'inherit',
  });
  fuzz =
    run.status === 0 ? `test/fuzz passed with FUZZ_RUNS=${FUZZ_RUNS}` : `test/fuzz FAILED with FUZZ_RUNS=${FUZZ_RUNS}`;
  if (run.status !== 0) problems.push(fuzz);
}
await rm(dataDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });

const summary = {
  seconds: Math.round(drivenSeconds),
  capacityReqPerSec: Math.round(capacity),
  targetReqPerSec: rate,
  achievedReqPerSec: Math.round(n / drivenSeconds),
  requests: n,
  maxInFlight,
  answers: Object.fromEntries([...statuses.entries()].sort()),
  fiveHundreds,
  projectsGenerated: generated.length,
  ordersAcknowledged: acknowledgedOrders.length,
  ordersLost: lost,
  ordersDuplicated: duplicated,
  ordersNotComplete: notComplete,
  subscribers: followers.length,
  subscriberEventsReceived: eventsDelivered,
  subscriberMismatches,
  fuzz,
  memory: {
    samples: MEMORY_CSV,
    sampleSeconds: SAMPLE_SECONDS,
    atStartMiB: at(memorySamples[0]),
    loadStartMiB: at(underLoad[0]),
    afterFirstQuarterMiB: { t: firstQuarterEnd && Math.round(firstQuarterEnd.t), ...at(firstQuarterEnd) },
    loadEndMiB: at(underLoad.at(-1)),
    peakUnderLoadMiB: {
      rss: mib(Math.max(...underLoad.map((s) => s.rssBytes))),
      heapUsed: mib(Math.max(...underLoad.map((s) => s.heapUsedBytes))),
      heapTotal: mib(Math.max(...underLoad.map((s) => s.heapTotalBytes))),
    },
    ...memory,
  },
};
console.log(JSON.stringify(summary, null, 2));
console.log(problems.length === 0 ? 'SOAK PASSED' : `SOAK FAILED: ${problems.join('; ')}`);
process.exit(problems.length === 0 ? 0 : 1);
