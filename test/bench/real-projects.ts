/**
 * Projects as integrators make them, for the rows that read projects (status, GraphQL, list): each
 * made by `POST /v2/generate` with photos served over loopback, its build finished (photos fetched,
 * analysed, the book laid out, the cover preview rendered), and every 25th ordered through
 * `POST /v2/print` (accepted; its print render then cancelled, since one takes minutes here, so
 * those projects answer as while their book renders). Making them takes minutes, so the first run
 * keeps a snapshot (`pg_dump` of the database, a tar of the data directory, and the pepper and
 * client they were made with) in BENCH_SNAPSHOT_DIR (default: the system's temporary folder), and
 * later runs restore it into a fresh database; the snapshot's name carries the migrations it was
 * made under and its shape, so a new migration makes a new one. `BENCH_FRESH_SNAPSHOT=1` remakes it.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import {
  ROOT,
  benchDatabase,
  createClient,
  newDataDir,
  PEPPER,
  startProject,
  usePepper,
  type IssuedClient,
} from './bench-env';
import { makePhoto, startPhotoServer } from '../support/photo-server';
import { printBody } from '../support/print-fixtures';

export interface RealProjects {
  databaseUrl: string;
  dataDir: string;
  client: IssuedClient;
  /** Every project's id. */
  ids: string[];
  /** `bench-user-1` … `bench-user-<users>`, each with `perUser` projects. */
  users: number;
  perUser: number;
  ordered: number;
  /** How the data was made, for the table's notes. */
  made: string;
}

/** Photos per project, drawn in turn from a pool of this many distinct photos (phone-sized JPEGs, some rotated by EXIF). */
const PHOTOS_PER_PROJECT = 4;
const PHOTO_POOL = 12;
/** Every `ORDER_EVERY`-th project of a user is ordered. */
const ORDER_EVERY = 25;
const SNAPSHOT_VERSION = 1;

function snapshotName(users: number, perUser: number): string {
  const migrations = readdirSync(path.join(ROOT, 'src/db/migrations')).sort().join('\n');
  const hash = createHash('sha256')
    .update(`${SNAPSHOT_VERSION}\n${PHOTOS_PER_PROJECT}\n${PHOTO_POOL}\n${ORDER_EVERY}\n${migrations}`)
    .digest('hex')
    .slice(0, 12);
  return `photobook-bench-${users}x${perUser}-${hash}`;
}

interface Sidecar {
  pepper: string;
  client: IssuedClient;
  users: number;
  perUser: number;
  ordered: number;
  madeSeconds: number;
  madeOn: string;
}

/** `users` x `perUser` projects in the database `base` (fresh), from the snapshot when there is one. */
export async function realProjects(base: string, users: number, perUser: number): Promise<RealProjects> {
  const dir = process.env.BENCH_SNAPSHOT_DIR ?? os.tmpdir();
  const name = snapshotName(users, perUser);
  const [dump, tar, json] = ['dump', 'tar', 'json'].map((ext) => path.join(dir, `${name}.${ext}`));
  const databaseUrl = await benchDatabase(base);
  const dataDir = await newDataDir();
  let sidecar: Sidecar;
  if (process.env.BENCH_FRESH_SNAPSHOT !== '1' && existsSync(dump) && existsSync(tar) && existsSync(json)) {
    const started = Date.now();
    sidecar = JSON.parse(await readFile(json, 'utf8')) as Sidecar;
    execFileSync('pg_restore', ['--no-owner', '--dbname', databaseUrl, dump], { stdio: 'inherit' });
    execFileSync('tar', ['-xf', tar, '-C', dataDir]);
    usePepper(sidecar.pepper);
    console.error(
      `restored ${name} (made through the API on ${sidecar.madeOn}) in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
  } else {
    sidecar = await makeThroughTheApi(databaseUrl, dataDir, users, perUser);
    execFileSync('pg_dump', ['--format=custom', '--no-owner', '--file', dump, databaseUrl]);
    execFileSync('tar', ['-cf', tar, '-C', dataDir, '.']);
    await writeFile(json, JSON.stringify(sidecar));
    console.error(`kept the snapshot ${path.join(dir, name)}.{dump,tar,json}`);
  }
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  const { rows } = await db.query<{ id: string }>('SELECT id FROM projects WHERE client_id = $1 ORDER BY id', [
    sidecar.client.clientId,
  ]);
  await db.query('VACUUM ANALYZE');
  await db.end();
  return {
    databaseUrl,
    dataDir,
    client: sidecar.client,
    ids: rows.map((r) => r.id),
    users,
    perUser,
    ordered: sidecar.ordered,
    made: `${users * perUser} projects of ${users} users made through POST /v2/generate (${PHOTOS_PER_PROJECT} photos each over loopback, builds finished, previews rendered), ${sidecar.ordered} ordered through POST /v2/print (their renders cancelled: they answer order status rendering); made in ${sidecar.madeSeconds.toFixed(0)} s on ${sidecar.madeOn} and restored from its pg_dump`,
  };
}

async function makeThroughTheApi(
  databaseUrl: string,
  dataDir: string,
  users: number,
  perUser: number,
): Promise<Sidecar> {
  const started = Date.now();
  const service = await startProject({
    databaseUrl,
    dataDir,
    env: { ALLOW_LOOPBACK_URLS: 'true', SANDBOX_PRINTER_STEP: '1s' },
  });
  const pool = await Promise.all(
    Array.from({ length: PHOTO_POOL }, async (_, i) => {
      const portrait = i % 3 === 1;
      return [
        `/p${i}.jpg`,
        {
          body: await makePhoto({
            width: portrait ? 1536 : 2048,
            height: portrait ? 2048 : 1536,
            colour: `#${(0x3a7bd5 + i * 0x1a2b3).toString(16).slice(-6)}`,
            takenAt: `2025:0${1 + (i % 9)}:1${i % 10} 10:00:00`,
            ...(i % 4 === 3 ? { orientation: 6 } : {}),
          }),
        },
      ] as const;
    }),
  );
  const photos = await startPhotoServer(Object.fromEntries(pool));
  try {
    const client = await createClient(databaseUrl, dataDir, 'Bench shop');
    const headers = { 'x-service': client.header, 'content-type': 'application/json' };
    console.error(`making ${users * perUser} projects through POST /v2/generate ...`);
    // Oldest first, so each user's newest project is the last made; a few at once, as a shop's backend sends them.
    const jobs = Array.from({ length: users * perUser }, (_, n) => n);
    const ids: string[] = new Array(jobs.length);
    const worker = async () => {
      for (let n = jobs.shift(); n !== undefined; n = jobs.shift()) {
        const response = await fetch(`${service.url}/v2/generate`, {
          method: 'POST',
          headers,
          body: JSON.stringify({
            sku: 'PB-HC-A4-P',
            psp: 'local',
            marketId: 0,
            language: 'en',
            userId: `bench-user-${1 + (n % users)}`,
            photos: Array.from({ length: PHOTOS_PER_PROJECT }, (_, p) => ({
              id: `c${p}`,
              url: photos.url(`/p${(n * PHOTOS_PER_PROJECT + p) % PHOTO_POOL}.jpg`),
            })),
          }),
        });
        if (response.status !== 200) throw new Error(`generate answered ${response.status}: ${await response.text()}`);
        ids[n] = new URL(((await response.json()) as { url: string }).url).searchParams.get('id')!;
      }
    };
    await Promise.all(Array.from({ length: 4 }, worker));
    const db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    try {
      const settled = async () => {
        for (;;) {
          const { rows } = await db.query<{ n: number }>(
            `SELECT count(*)::int AS n FROM projects WHERE client_id = $1 AND (status IN ('created', 'building') OR preview_key IS NULL)`,
            [client.clientId],
          );
          if (rows[0]!.n === 0) return;
          await new Promise((resolve) => setTimeout(resolve, 1000));
        }
      };
      await settled();
      console.error(`built in ${((Date.now() - started) / 1000).toFixed(0)} s; ordering ...`);
      const toOrder = ids.filter((_, n) => n % ORDER_EVERY === ORDER_EVERY - 1);
      for (const [i, id] of toOrder.entries()) {
        const response = await fetch(`${service.url}/v2/print`, {
          method: 'POST',
          headers,
          body: JSON.stringify(printBody(`bench-order-${i}`, id)),
        });
        if (response.status !== 200) throw new Error(`print answered ${response.status}: ${await response.text()}`);
      }
      // Each order accepted: its project reports an order status. Their print renders are left queued
      // and cancelled below (one A4 book takes minutes on 2 shared cores; 40 would take hours): the
      // ordered projects answer as while their book renders (order status `rendering`).
      for (const id of toOrder) {
        for (;;) {
          const response = await fetch(`${service.url}/v2/project/status?id=${id}`, { headers });
          if (((await response.json()) as { status?: { order?: string } }).status?.order) break;
          await new Promise((resolve) => setTimeout(resolve, 1000));
        }
      }
      await service.stop();
      // No process resumes the renders when the snapshot is restored: the benched service must not render meanwhile.
      await db.query(`UPDATE dbos.workflow_status SET status = 'CANCELLED' WHERE status IN ('PENDING', 'ENQUEUED')`);
      return {
        pepper: PEPPER,
        client,
        users,
        perUser,
        ordered: toOrder.length,
        madeSeconds: (Date.now() - started) / 1000,
        madeOn: new Date().toISOString().slice(0, 10),
      };
    } finally {
      await db.end();
    }
  } finally {
    await photos.close();
    await service.stop(); // a no-op once stopped above
  }
}

/** Removes what realProjects made on disk for one run (the database stays until the next run drops it). */
export async function dropRealProjects(projects: RealProjects): Promise<void> {
  await rm(projects.dataDir, { recursive: true, force: true });
}
