/**
 * A 10,000-row campaign end to end: the CSV, the photos and the shop's webhook receiver are served
 * on 127.0.0.1 by this script, the service runs as its own process started by `npm start`
 * (embedded engine), and every row goes CSV -> project -> photo fetched and analysed -> book ->
 * signed delivery (verified here). Run: `DATABASE_URL=postgres://... npx tsx test/bench/campaign.ts`
 * (BENCH_ROWS to change the row count, BENCH_ROUNDS for more than one round, BENCH_PROFILE_DIR for a
 * CPU profile of the service). Each round runs a
 * campaign of the service, then the same CSV through its floor (campaign-floor.ts, its own
 * process); prints the median rows per second of each and the service's peak RSS.
 */
import 'reflect-metadata';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { rm } from 'node:fs/promises';
import { MikroORM } from '@mikro-orm/postgresql';
import pg from 'pg';
import sharp from 'sharp';
import { Webhook } from 'standardwebhooks';
import { loadConfig } from '../../src/config';
import { ormConfig } from '../../src/db/orm-config';
import { ClientAdmin } from '../../src/services/clients/client-admin';
import { loadCredentialPepper } from '../../src/services/tenancy/pepper';
import { setWebhook } from '../../src/services/webhooks/webhook-endpoints';
import { Campaign } from '../../src/db/entities';
import { campaignCounts } from '../../src/services/campaigns/campaign-progress';
import { scopeToTenant } from '../../src/db/tenant-filter';
import {
  PEPPER,
  ROOT,
  SERVER_URL,
  benchDatabase,
  freePort,
  median,
  newDataDir,
  residentKiB,
  serviceProcessId,
  startProject,
} from './bench-env';

const ROWS = Number(process.env.BENCH_ROWS ?? 10_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 1);
const RSS_LIMIT_MIB = 300;

async function listen(server: http.Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

// Photos: three real JPEGs made by sharp, each row names one of them.
const photos = await Promise.all(
  ['#3a7bd5', '#c0392b', '#27ae60'].map((colour, i) =>
    sharp({ create: { width: 1200 + i * 100, height: 900, channels: 3, background: colour } })
      .composite([
        {
          input: Buffer.from(
            `<svg width="400" height="300"><circle cx="200" cy="150" r="${80 + i * 20}" fill="#f4d35e"/></svg>`,
          ),
          top: 200,
          left: 300,
        },
      ])
      .jpeg({ quality: 85 })
      .toBuffer(),
  ),
);
// The CSV is written row by row as it is sent: the service must stream it, so must we.
const files = http.createServer((request, response) => {
  const url = new URL(request.url ?? '/', 'http://localhost');
  const photo = /^\/photo-(\d)\.jpg$/.exec(url.pathname);
  if (photo) {
    response.writeHead(200, { 'content-type': 'image/jpeg' }).end(photos[Number(photo[1])]);
    return;
  }
  const csv = /^\/campaign-(\w+)\.csv$/.exec(url.pathname);
  if (!csv) {
    response.writeHead(404).end();
    return;
  }
  response.writeHead(200, { 'content-type': 'text/csv' });
  response.write('reference,email,sku,psp,marketId,language,photos,custom.title\r\n');
  let n = 0;
  const more = () => {
    while (n < ROWS) {
      n++;
      const line = `bench-${csv[1]}-${n},customer-${csv[1]}-${n}@example.com,PB-HC-A4-P,local,0,en,${filesUrl}/photo-${n % 3}.jpg,"Book ${n}, with love"\r\n`;
      if (!response.write(line)) {
        response.once('drain', more);
        return;
      }
    }
    response.end();
  };
  more();
});
const filesUrl = await listen(files);

let delivered = 0;
let badSignatures = 0;
let secret = '';
const receiver = http.createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    try {
      new Webhook(secret).verify(Buffer.concat(chunks).toString('utf8'), request.headers as Record<string, string>);
      delivered++;
    } catch {
      badSignatures++;
    }
    response.writeHead(200).end();
  });
});
const receiverUrl = await listen(receiver);

if (!process.env.DATABASE_URL)
  throw new Error('set DATABASE_URL (a PostgreSQL server; the bench makes and drops its own database)');
const databaseUrl = await benchDatabase('photobook_bench_campaign');
const dataDir = await newDataDir();

// The service as users start it (`npm start`: the bundle, its glibc and V8 settings), in a process
// of its own, so that its memory is measured alone, without this script's servers.
const metricsPort = await freePort();
const env = { LOG_LEVEL: 'warn', ALLOW_LOOPBACK_URLS: 'true', METRICS_PORT: String(metricsPort) };
// BENCH_PROFILE_DIR: the service runs under --cpu-prof and writes its profile there when stopped.
const profileDir = process.env.BENCH_PROFILE_DIR;
const service = await startProject({
  databaseUrl,
  dataDir,
  env,
  ...(profileDir ? { nodeFlags: ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] } : {}),
});
const serviceUrl = service.url;
const servicePid = serviceProcessId(service);
// A crash of this script must not leave the service running against the next run's database.
process.once('exit', () => {
  try {
    process.kill(-service.child.pid!, 'SIGKILL');
  } catch {
    // already stopped
  }
});
/** Resident set now and at its peak (VmHWM), in MiB, of the service process. */
function serviceMemory(): { rss: number; peak: number } {
  const { rss, peak } = residentKiB(servicePid);
  return { rss: rss / 1024, peak: peak / 1024 };
}
const idle = serviceMemory();
/** The service's V8 heap (used / reserved) and off-heap Buffers, from its Prometheus metrics. */
async function v8Heap(): Promise<string> {
  const metrics = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
  const mib = (name: string) =>
    (Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(metrics)?.[1] ?? NaN) / 2 ** 20).toFixed(0);
  return `${mib('nodejs_heap_size_used_bytes')}/${mib('nodejs_heap_size_total_bytes')} MiB, buffers ${mib('nodejs_external_memory_bytes')} MiB`;
}

const orm = await MikroORM.init(ormConfig(databaseUrl, { poolMax: 2 }));
const pepper = await loadCredentialPepper(
  loadConfig({ ...process.env, DATABASE_URL: databaseUrl, DATA_DIR: dataDir, CREDENTIAL_PEPPER: PEPPER }),
);
const issued = await new ClientAdmin(orm.em.fork(), pepper).create('Bench shop');
const tenant = { clientId: issued.clientId, env: 'dev' } as const;
const shopEm = () => scopeToTenant(orm.em.fork(), tenant);
secret = (await setWebhook(shopEm(), pepper, tenant, `${receiverUrl}/hook`)).secret!;
const headers = {
  'content-type': 'application/json',
  'x-service': JSON.stringify({
    accessKey: issued.credentials.dev.accessKey,
    accessSecret: issued.credentials.dev.accessSecret,
  }),
};

/** One campaign of the service over `/campaign-<name>.csv`, watched until it completes; answers its seconds. */
async function serviceCampaign(name: string): Promise<number> {
  const started = Date.now();
  const answer = await fetch(`${serviceUrl}/v2/campaign/auto-generate`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ csvUrl: `${filesUrl}/campaign-${name}.csv` }),
  });
  const { message } = (await answer.json()) as { message: string };
  const campaignId = /cmp_\w+/.exec(message)![0];
  console.log(`${answer.status} ${message}`);
  let imported = 0;
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const memory = serviceMemory();
    const heap = await v8Heap();
    const em = shopEm();
    const campaign = await em.findOneOrFail(Campaign, { id: campaignId });
    const counts = await campaignCounts(em, campaign);
    if (!imported && campaign.status !== 'importing') imported = Date.now();
    const seconds = (Date.now() - started) / 1000;
    process.stdout.write(
      `\r${seconds.toFixed(0)} s  ${campaign.status}  generated ${counts.generated}  notified ${counts.notified}/${ROWS}  failed ${counts.failed}  rss ${memory.rss.toFixed(0)} MiB (peak ${memory.peak.toFixed(0)}; V8 heap ${heap})   `,
    );
    if (campaign.status === 'completed' || campaign.status === 'failed') break;
  }
  const seconds = (Date.now() - started) / 1000;
  const final = await campaignCounts(shopEm(), await shopEm().findOneOrFail(Campaign, { id: campaignId }));
  console.log(
    `\nservice round ${name}: ${ROWS} rows in ${seconds.toFixed(1)} s (imported in ${((imported - started) / 1000).toFixed(1)} s), notified ${final.notified}, failed ${final.failed}`,
  );
  return seconds;
}

/** The same CSV through campaign-floor.ts in its own process; answers its seconds. */
async function floorCampaign(name: string): Promise<number> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/bench/campaign-floor.ts'], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      FLOOR_CSV_URL: `${filesUrl}/campaign-${name}.csv`,
      FLOOR_HOOK_URL: `${receiverUrl}/hook`,
      FLOOR_HOOK_SECRET: secret,
      FLOOR_CLIENT_ID: tenant.clientId,
      FLOOR_ENV: tenant.env,
      FLOOR_DATA_DIR: `${dataDir}/floor`,
    },
  });
  let out = '';
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const [code] = await once(child, 'exit');
  if (code !== 0) throw new Error(`campaign-floor.ts exited with ${code}`);
  const seconds = Number(/^floor elapsed +([\d.]+)/m.exec(out)?.[1]);
  console.log(`floor round ${name}: ${ROWS} rows in ${seconds.toFixed(1)} s`);
  return seconds;
}

const serviceSeconds: number[] = [];
const floorSeconds: number[] = [];
const received = { service: 0, floor: 0 };
for (let round = 1; round <= ROUNDS; round++) {
  let before = delivered;
  serviceSeconds.push(await serviceCampaign(`s${round}`));
  received.service += delivered - before;
  before = delivered;
  floorSeconds.push(await floorCampaign(`f${round}`));
  received.floor += delivered - before;
}
const { peak: maxRssMiB } = serviceMemory();
console.log('\n');
console.log(`rows                 ${ROWS} a round, ${ROUNDS} round(s), service and floor interleaved`);
console.log(
  `deliveries received  service ${received.service}, floor ${received.floor} (of ${ROUNDS * ROWS} each), bad signatures ${badSignatures}`,
);
console.log(`rows per second      ${(ROWS / median(serviceSeconds)).toFixed(1)}`);
console.log(`floor rows per second ${(ROWS / median(floorSeconds)).toFixed(1)}`);
console.log(`service RSS idle     ${idle.rss.toFixed(0)} MiB (started, before the campaign)`);
console.log(
  `service peak RSS     ${maxRssMiB.toFixed(0)} MiB (limit ${RSS_LIMIT_MIB} MiB: ${maxRssMiB < RSS_LIMIT_MIB ? 'within' : 'EXCEEDED'})`,
);

await orm.close();
await service.stop();
await new Promise((resolve) => files.close(resolve));
await new Promise((resolve) => receiver.close(resolve));
await rm(dataDir, { recursive: true, force: true });
{
  const admin = new pg.Client({ connectionString: SERVER_URL });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${new URL(databaseUrl).pathname.slice(1)} WITH (FORCE)`);
  await admin.end();
}
