/**
 * Scale-out on this machine: one ROLE=all process, against 1 API process (ROLE=api) with 1 and with
 * 2 worker processes (ROLE=worker), all started as users start them (`npm start`) on one database.
 * For each shape: print renders per minute (sandbox orders of 8-photo books placed at once, until
 * every line is rendered), campaign rows per second (a CSV of BENCH_SCALE_ROWS rows, until the
 * campaign completes), and the API's GET /v2/project/status throughput while the workers render.
 * Run: `npm run bench -- scale` (or `npx tsx test/bench/scale.ts`). Prints figures; asserts nothing.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import { rm } from 'node:fs/promises';
import pg from 'pg';
import {
  benchDatabase,
  createClient,
  load,
  newDataDir,
  startProject,
  type IssuedClient,
  type LoadResult,
  type Running,
} from './bench-env';
import { makePhoto } from '../support/photo-server';
import { printBody } from '../support/print-fixtures';

const QUICK = process.env.BENCH_QUICK === '1';
const BOOKS = QUICK ? 4 : 8;
const ROWS = Number(process.env.BENCH_SCALE_ROWS ?? (QUICK ? 200 : 1000));
const SECONDS = QUICK ? 3 : 8;

const photos = await Promise.all(
  Array.from({ length: 8 }, (_, i) =>
    makePhoto({ width: 3000, height: 2000, colour: `#${(0x3a7bd5 + i * 0x1111).toString(16).slice(-6)}` }),
  ),
);
const files = http.createServer((request, response) => {
  const url = new URL(request.url ?? '/', 'http://localhost');
  const photo = /^\/p(\d)\.jpg$/.exec(url.pathname);
  if (photo) return void response.writeHead(200, { 'content-type': 'image/jpeg' }).end(photos[Number(photo[1])]);
  // The shop's webhook receiver: a campaign announces every project.
  if (url.pathname === '/hook') return void request.resume().on('end', () => response.writeHead(200).end());
  if (url.pathname !== '/campaign.csv') return void response.writeHead(404).end();
  const run = url.searchParams.get('run');
  response.writeHead(200, { 'content-type': 'text/csv' });
  response.write('reference,email,sku,psp,marketId,photos\r\n');
  for (let n = 1; n <= ROWS; n++)
    response.write(`${run}-${n},c${n}@example.com,PB-HC-A4-P,local,0,${filesUrl}/p${n % 8}.jpg\r\n`);
  response.end();
});
await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
const filesUrl = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const post = async (base: string, path: string, client: IssuedClient, body: unknown) => {
  const response = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'x-service': client.header, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (response.status !== 200) throw new Error(`${path} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as { url?: string; message?: string };
};

interface Shape {
  name: string;
  processes: { role: 'all' | 'api' | 'worker'; executorId?: string }[];
}
const SHAPES: Shape[] = [
  { name: '1 process, ROLE=all', processes: [{ role: 'all', executorId: 'bench-all' }] },
  { name: '1 API + 1 worker', processes: [{ role: 'api' }, { role: 'worker', executorId: 'bench-w1' }] },
  {
    name: '1 API + 2 workers',
    processes: [
      { role: 'api' },
      { role: 'worker', executorId: 'bench-w1' },
      { role: 'worker', executorId: 'bench-w2' },
    ],
  },
];

async function measure(shape: Shape) {
  const databaseUrl = await benchDatabase('photobook_bench_scale');
  const dataDir = await newDataDir();
  const running: Running[] = [];
  const db = new pg.Client({ connectionString: databaseUrl });
  try {
    // One after the other: each `npm start` rebuilds the bundle the others run from.
    for (const { role, executorId } of shape.processes) {
      running.push(
        await startProject({
          databaseUrl,
          dataDir,
          env: {
            ROLE: role,
            ...(executorId ? { EXECUTOR_ID: executorId } : {}),
            ALLOW_LOOPBACK_URLS: 'true',
            SANDBOX_PRINTER_STEP: '1s',
            LOG_LEVEL: 'warn',
          },
        }),
      );
    }
    await db.connect();
    const api = running[0]!.url;
    const client = await createClient(databaseUrl, dataDir, 'Scale shop');
    await post(api, '/graphql', client, { query: `mutation { setWebhook(url: "${filesUrl}/hook") { url } }` });
    const count = async (sql: string, values: unknown[]) => Number((await db.query(sql, values)).rows[0].count);

    // Books to print, built first.
    const books: string[] = [];
    for (let i = 0; i < BOOKS; i++) {
      const generated = await post(api, '/v2/generate', client, {
        sku: 'PB-HC-A4-P',
        psp: 'local',
        marketId: 0,
        userId: `scale-${i}`,
        photos: photos.map((_, p) => `${filesUrl}/p${p}.jpg`),
      });
      books.push(new URL(generated.url!).searchParams.get('id')!);
    }
    while ((await count(`SELECT count(*) FROM projects WHERE id = ANY($1) AND status = 'editable'`, [books])) < BOOKS)
      await sleep(250);

    // Renders, with the API's status throughput measured while they run.
    const started = Date.now();
    for (const [i, book] of books.entries()) await post(api, '/v2/print', client, printBody(`scale-${i}`, book));
    const rendered = () =>
      count(`SELECT count(*) FROM status_events WHERE subject_type = 'order' AND status = 'rendered'`, []);
    while (
      (await count(`SELECT count(*) FROM status_events WHERE subject_type = 'order' AND status = 'rendering'`, [])) ===
      0
    )
      await sleep(100);
    const statusPaths = books.map((id) => `/v2/project/status?id=${id}`);
    const underRenders: LoadResult = await load({
      url: api,
      connections: 50,
      seconds: SECONDS,
      headers: { 'x-service': client.header },
      paths: statusPaths,
    });
    const renderedDuringLoad = await rendered();
    while ((await rendered()) < BOOKS) await sleep(250);
    const renderSeconds = (Date.now() - started) / 1000;

    // A campaign, once the renders are done.
    const campaignStarted = Date.now();
    const answer = await post(api, '/v2/campaign/auto-generate', client, {
      csvUrl: `${filesUrl}/campaign.csv?run=${shape.processes.length}`,
    });
    const campaignId = /cmp_\w+/.exec(answer.message ?? '')![0];
    while (
      !['completed', 'failed'].includes(
        (await db.query(`SELECT status FROM campaigns WHERE id = $1`, [campaignId])).rows[0]?.status,
      )
    )
      await sleep(500);
    const campaignSeconds = (Date.now() - campaignStarted) / 1000;
    return {
      rendersPerMinute: (BOOKS / renderSeconds) * 60,
      renderSeconds,
      rowsPerSecond: ROWS / campaignSeconds,
      status: underRenders,
      renderedDuringLoad,
    };
  } finally {
    await db.end().catch(() => {});
    for (const process of running.reverse()) await process.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

console.log(
  `scale: ${os.cpus().length} cores; ${BOOKS} books of 8 photos (3000x2000) ordered at once, a campaign of ${ROWS} rows, ${SECONDS} s of status load (50 connections) while rendering`,
);
for (const shape of SHAPES) {
  const result = await measure(shape);
  console.log(
    `${shape.name.padEnd(22)} renders ${result.rendersPerMinute.toFixed(1)}/min (${BOOKS} in ${result.renderSeconds.toFixed(0)} s) | campaign ${result.rowsPerSecond.toFixed(1)} rows/s | ` +
      `status under renders ${result.status.rps.toFixed(0)} req/s, p50 ${result.status.p50} ms, p99 ${result.status.p99} ms (${result.status.non2xx} non-2xx; ${result.renderedDuringLoad}/${BOOKS} rendered by its end)`,
  );
}
await new Promise((resolve) => files.close(resolve));
