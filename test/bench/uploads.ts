/**
 * Photos from the device, end to end: BENCH_PHOTOS (100) photos of 12 MP, each a different JPEG made
 * by sharp with a phone's grain (3-4 MB each), uploaded over tus 1.0 on 127.0.0.1 (4 at once, each in 5 MiB PATCHes as tus-js-client
 * sends them) into an editable book of a service started by `npm start` (its own process), until every
 * photo is analysed and placed in the book (status.photos idle, all of them on pages). The floor: the
 * same bytes written to files on the same disk (DATA_DIR), 4 at once, fsynced: what an upload cannot
 * beat. Run: `DATABASE_URL=postgres://... npx tsx test/bench/uploads.ts`; prints both in seconds.
 */
import 'reflect-metadata';
import { mkdir, open, rm } from 'node:fs/promises';
import path from 'node:path';
import { MikroORM } from '@mikro-orm/postgresql';
import sharp from 'sharp';
import { loadConfig } from '../../src/config';
import { ormConfig } from '../../src/db/orm-config';
import { ClientAdmin } from '../../src/services/clients/client-admin';
import { loadCredentialPepper } from '../../src/services/tenancy/pepper';
import { PEPPER, benchDatabase, newDataDir, startProject } from './bench-env';

const PHOTOS = Number(process.env.BENCH_PHOTOS ?? 100);
const AT_ONCE = 4;
const CHUNK = 5 * 1024 * 1024;
const TUS = { 'tus-resumable': '1.0.0' };

/** Sensor-like grain, made once: on it a 12 MP JPEG at quality 90 weighs what a phone's does (3-4 MB). */
const grain = await sharp({
  create: {
    width: 4000,
    height: 3000,
    channels: 3,
    background: '#808080',
    noise: { type: 'gaussian', mean: 128, sigma: 24 },
  },
})
  .raw()
  .toBuffer();

/** A 12 MP photo (4000 x 3000) with detail and grain, different for each index. */
async function photo(index: number): Promise<Buffer> {
  const circles = Array.from(
    { length: 40 },
    (_, i) =>
      `<circle cx="${(i * 397 + index * 61) % 4000}" cy="${(i * 211 + index * 37) % 3000}" r="${60 + ((i + index) % 7) * 30}" fill="#${((i + 1) * 0x2468ac + index * 0x1357).toString(16).padStart(6, '0').slice(-6)}"/>`,
  ).join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="4000" height="3000"><rect width="100%" height="100%" fill="#${(index * 0x10203).toString(16).padStart(6, '0').slice(-6)}"/>${circles}</svg>`;
  return sharp(Buffer.from(svg))
    .composite([{ input: grain, raw: { width: 4000, height: 3000, channels: 3 }, blend: 'soft-light' }])
    .jpeg({ quality: 90 })
    .toBuffer();
}

async function inBatches<T>(items: T[], run: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: AT_ONCE }, async () => {
      while (next < items.length) {
        const index = next++;
        await run(items[index], index);
      }
    }),
  );
}

const databaseUrl = await benchDatabase('photobook_bench_uploads');
const dataDir = await newDataDir();
const photos: Buffer[] = [];
for (let i = 0; i < PHOTOS; i++) photos.push(await photo(i));
const totalBytes = photos.reduce((sum, p) => sum + p.length, 0);

const service = await startProject({ databaseUrl, dataDir, env: { LOG_LEVEL: 'warn' } });
const orm = await MikroORM.init(ormConfig(databaseUrl, { poolMax: 2 }));
try {
  const pepper = await loadCredentialPepper(
    loadConfig({ ...process.env, DATABASE_URL: databaseUrl, DATA_DIR: dataDir, CREDENTIAL_PEPPER: PEPPER }),
  );
  const issued = await new ClientAdmin(orm.em.fork(), pepper).create('Bench uploads');
  const { accessKey, accessSecret } = issued.credentials.dev;
  const auth = { 'x-service': JSON.stringify({ accessKey, accessSecret }), 'content-type': 'application/json' };
  const generated = await fetch(`${service.url}/v2/generate`, {
    method: 'POST',
    headers: auth,
    body: JSON.stringify({ userId: 'bench-phone', sku: 'PB-HC-A4-P', psp: 'local', marketId: 0 }),
  });
  const projectId = new URL(((await generated.json()) as { url: string }).url).searchParams.get('id')!;
  const project = async () => {
    const answer = await fetch(`${service.url}/graphql`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({
        query: `query ($id: String!) { project(id: $id) { status { project photos } pages { photos { photoId } } } }`,
        variables: { id: projectId },
      }),
    });
    return ((await answer.json()) as { data: { project: any } }).data.project;
  };
  while ((await project()).status.project !== 'editable') await new Promise((r) => setTimeout(r, 200));
  const { 'content-type': _json, ...tusAuth } = auth;

  const started = performance.now();
  await inBatches(photos, async (bytes, index) => {
    const b64 = (text: string) => Buffer.from(text).toString('base64');
    const created = await fetch(`${service.url}/v2/uploads`, {
      method: 'POST',
      headers: {
        ...TUS,
        ...tusAuth,
        'upload-length': String(bytes.length),
        'upload-metadata': `projectId ${b64(projectId)},filename ${b64(`IMG_${index}.jpg`)},filetype ${b64('image/jpeg')}`,
      },
    });
    if (created.status !== 201) throw new Error(`create answered ${created.status}: ${await created.text()}`);
    const location = created.headers.get('location')!;
    for (let offset = 0; offset < bytes.length; offset += CHUNK) {
      const sent = await fetch(location, {
        method: 'PATCH',
        headers: {
          ...TUS,
          ...tusAuth,
          'upload-offset': String(offset),
          'content-type': 'application/offset+octet-stream',
        },
        body: bytes.subarray(offset, offset + CHUNK),
      });
      if (sent.status !== 204) throw new Error(`PATCH answered ${sent.status}: ${await sent.text()}`);
    }
  });
  const uploaded = performance.now();
  for (;;) {
    const now = await project();
    const placed = now.pages.reduce((sum: number, page: { photos: unknown[] }) => sum + page.photos.length, 0);
    if (now.status.photos === 'idle' && placed >= PHOTOS) break;
    await new Promise((r) => setTimeout(r, 250));
  }
  const done = performance.now();

  // The floor: the same bytes to files on the same disk, as many at once, fsynced.
  const floorDir = path.join(dataDir, 'floor');
  await mkdir(floorDir, { recursive: true });
  const floorStarted = performance.now();
  await inBatches(photos, async (bytes, index) => {
    const file = await open(path.join(floorDir, `photo-${index}.jpg`), 'w');
    try {
      await file.writeFile(bytes);
      await file.sync();
    } finally {
      await file.close();
    }
  });
  const floor = performance.now() - floorStarted;

  const mib = (totalBytes / 1024 / 1024).toFixed(0);
  console.log(`photos ${PHOTOS} of 12 MP, ${mib} MiB`);
  console.log(`uploaded seconds ${((uploaded - started) / 1000).toFixed(2)}`);
  console.log(`end to end seconds ${((done - started) / 1000).toFixed(2)}`);
  console.log(`floor seconds ${(floor / 1000).toFixed(2)}`);
} finally {
  await orm.close();
  await service.stop();
  await rm(dataDir, { recursive: true, force: true });
}
