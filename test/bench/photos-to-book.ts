/**
 * The customer's first wait: BENCH_PHOTOS (100) photos of 12 MP, JPEG and HEIC mixed (every third
 * a HEIC made by Debian's `heif-enc` from a JPEG, about half that JPEG's bytes as an iPhone's HEIC is
 * (Apple documents HEIC at about half the size of a JPEG of the same photo; HEVC decoding takes longer
 * the more bits there are to decode)), served over loopback, given to
 * `POST /v2/generate` of a service started by `npm start`, until the project is `editable` with every
 * photo analysed, thumbnailed and placed (a smartbook a user can edit).
 *
 * Floor: the least decode and analysis work for the same photos, in one process, 2 at once (2
 * cores): each photo fetched from the same loopback server, decoded once, shrunk while decoding
 * (JPEG's shrink-on-load) to the editor's 512 px thumbnail, encoded as that JPEG, and its grey
 * 512 px copy measured (the service's variance of the Laplacian); a HEIC's pixels decoded once by
 * the service's own decoder (libvips has no HEVC: the system's libheif through koffi when it loads,
 * else libheif in WebAssembly; src/imaging/heic-decoder.ts), two at once as in the service, and
 * shrunk from raw, never re-encoded at 12 MP. No database, engine, layout, storage or face detection.
 *
 * The photos are made once and kept in BENCH_SNAPSHOT_DIR (default: the temporary folder).
 * HEIC_DECODER=wasm makes the floor and the service decode HEICs in WebAssembly, as without libheif1.
 * Run: `npx tsx test/bench/photos-to-book.ts`; prints `key value` lines read by run.ts.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp, { type Sharp } from 'sharp';
import { decodeHeicPixels, useHeicDecoder } from '../../src/imaging/heic-decoder';
import { varianceOfLaplacian } from '../../src/imaging/photo-analysis';
import { benchDatabase, createClient, newDataDir, startProject } from './bench-env';
import { startPhotoServer } from '../support/photo-server';

const PHOTOS = Number(process.env.BENCH_PHOTOS ?? 100);
const HEIC_EVERY = 3;
/**
 * heif-enc's quality for x265 at its default preset: on this scene it makes a HEIC of about half its
 * JPEG's bytes (20 photos: HEICs of 2.7 to 3.7 MB, mean 3.2, beside JPEGs of 5.6 to 6.3 MB, mean 6.0).
 * Until 2026-11-28 the HEICs were made at quality 80 with x265's ultrafast preset: 7.7 to 9.7 MB (mean
 * 8.7), about 1.45 times their JPEG instead of half, some four times an iPhone's 12 MP HEIC, and each
 * decode dearer than a phone's photo's (HEVC decoding costs more the more bits there are).
 */
const HEIC_QUALITY = 55;

/** The scene of every photo, 12 MP (4000 x 3000) with detail and grain, as raw pixels. */
async function scene(): Promise<Buffer> {
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
  const circles = Array.from(
    { length: 40 },
    (_, i) =>
      `<circle cx="${(i * 397) % 4000}" cy="${(i * 211) % 3000}" r="${60 + (i % 7) * 30}" fill="#${((i + 1) * 0x2468ac).toString(16).padStart(6, '0').slice(-6)}"/>`,
  ).join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="4000" height="3000"><rect width="100%" height="100%" fill="#3a7bd5"/>${circles}</svg>`;
  return sharp(Buffer.from(svg))
    .composite([{ input: grain, raw: { width: 4000, height: 3000, channels: 3 }, blend: 'soft-light' }])
    .raw()
    .toBuffer();
}

/** Photo `index`: the scene turned in hue and brightness (so no two are alike), a JPEG of quality 90 with its capture date. */
function photo(index: number, pixels: Buffer): Promise<Buffer> {
  return sharp(pixels, { raw: { width: 4000, height: 3000, channels: 3 } })
    .modulate({ hue: (index * 37) % 360, brightness: 0.8 + (index % 5) * 0.1 })
    .jpeg({ quality: 90 })
    .withExifMerge({ IFD2: { DateTimeOriginal: `2025:07:${String(1 + (index % 28)).padStart(2, '0')} 10:00:00` } })
    .toBuffer();
}

/** The photos, made once: `photo-<n>.jpg`, or `photo-<n>.heic` for every HEIC_EVERY-th. */
async function photoSet(): Promise<{ name: string; body: Buffer; type: string }[]> {
  const dir = path.join(process.env.BENCH_SNAPSHOT_DIR ?? os.tmpdir(), `photobook-bench-photos-${PHOTOS}-v4`);
  const names = Array.from({ length: PHOTOS }, (_, n) => `photo-${n}.${n % HEIC_EVERY === 2 ? 'heic' : 'jpg'}`);
  if (!existsSync(path.join(dir, 'done'))) {
    console.error(`making ${PHOTOS} photos of 12 MP in ${dir} (HEIC by heif-enc) ...`);
    await mkdir(dir, { recursive: true });
    const pixels = await scene();
    for (const [n, name] of names.entries()) {
      const jpeg = await photo(n, pixels);
      if (name.endsWith('.jpg')) await writeFile(path.join(dir, name), jpeg);
      else {
        const source = path.join(dir, `source-${n}.jpg`);
        await writeFile(source, jpeg);
        // x265's default preset, some 15 s of CPU a photo: made once, and how long it takes is not measured.
        execFileSync('heif-enc', ['--quality', String(HEIC_QUALITY), '--output', path.join(dir, name), source], {
          stdio: 'ignore',
        });
        await rm(source);
      }
    }
    await writeFile(path.join(dir, 'done'), '');
  }
  return Promise.all(
    names.map(async (name) => ({
      name,
      body: await readFile(path.join(dir, name)),
      type: name.endsWith('.heic') ? 'image/heic' : 'image/jpeg',
    })),
  );
}

/** The floor's work for one photo: one decode, shrunk to 512 px, the thumbnail encoded and the grey copy measured. */
async function leastWork(bytes: Buffer, heic: boolean): Promise<number> {
  let image: Sharp;
  if (heic) {
    const decoded = await decodeHeicPixels(bytes);
    image = sharp(decoded.data, {
      raw: { width: decoded.width, height: decoded.height, channels: decoded.channels },
    }).removeAlpha();
  } else image = sharp(bytes);
  const small = await image
    .rotate()
    .resize({ width: 512, height: 512, fit: 'inside' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const raw = { raw: { width: small.info.width, height: small.info.height, channels: small.info.channels } };
  const [, grey] = await Promise.all([
    sharp(small.data, raw).jpeg({ quality: 80 }).toBuffer(),
    sharp(small.data, raw).greyscale().raw().toBuffer(),
  ]);
  return varianceOfLaplacian(grey, small.info.width, small.info.height);
}

async function main() {
  const photos = await photoSet();
  // HEIC_DECODER=wasm (the service inherits it) measures the WebAssembly decoder on a machine with libheif1.
  const heicDecoder = useHeicDecoder(process.env.HEIC_DECODER === 'wasm' ? 'wasm' : 'auto');
  const server = await startPhotoServer(
    Object.fromEntries(photos.map((p) => [`/${p.name}`, { body: p.body, type: p.type }])),
  );
  // The floor first, while the photo server has served nobody else.
  const floorStarted = Date.now();
  const queue = [...photos];
  await Promise.all(
    Array.from({ length: 2 }, async () => {
      for (let p = queue.shift(); p; p = queue.shift()) {
        const bytes = Buffer.from(
          await (await fetch(server.url(`/${p.name}`), { signal: AbortSignal.timeout(60_000) })).arrayBuffer(),
        );
        await leastWork(bytes, p.name.endsWith('.heic'));
      }
    }),
  );
  const floorSeconds = (Date.now() - floorStarted) / 1000;
  const databaseUrl = await benchDatabase('photobook_bench_photos');
  const dataDir = await newDataDir();
  const service = await startProject({ databaseUrl, dataDir, env: { ALLOW_LOOPBACK_URLS: 'true', LOG_LEVEL: 'warn' } });
  try {
    const client = await createClient(databaseUrl, dataDir, 'Photos shop');
    const headers = { 'x-service': client.header, 'content-type': 'application/json' };
    const started = Date.now();
    const generated = await fetch(`${service.url}/v2/generate`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        sku: 'PB-HC-A4-P',
        psp: 'local',
        marketId: 0,
        userId: 'photos-user',
        photos: photos.map((p, n) => ({ id: `c${n}`, url: server.url(`/${p.name}`) })),
      }),
    });
    if (generated.status !== 200) throw new Error(`generate answered ${generated.status}: ${await generated.text()}`);
    const id = new URL(((await generated.json()) as { url: string }).url).searchParams.get('id')!;
    let status: { status: { project: string; photos: string }; failedPhotos?: unknown[] };
    for (;;) {
      const response = await fetch(`${service.url}/v2/project/status?id=${id}`, { headers });
      status = (await response.json()) as typeof status;
      if (status.status.project === 'failed') throw new Error(`the build failed: ${JSON.stringify(status)}`);
      if (status.status.project === 'editable' && status.status.photos === 'idle') break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const serviceSeconds = (Date.now() - started) / 1000;

    const heics = photos.filter((p) => p.name.endsWith('.heic'));
    const meanMB = (of: typeof photos) => (of.reduce((n, p) => n + p.body.length, 0) / of.length / 1e6).toFixed(2);
    console.log(
      `photos ${photos.length} (${photos.length - heics.length} JPEG, ${heics.length} HEIC, ${(photos.reduce((n, p) => n + p.body.length, 0) / 2 ** 20).toFixed(0)} MiB)`,
    );
    console.log(`mean JPEG MB ${meanMB(photos.filter((p) => !p.name.endsWith('.heic')))}`);
    console.log(`mean HEIC MB ${meanMB(heics)}`);
    console.log(`heic decoder ${heicDecoder.decoder}${heicDecoder.libheif ? ` (libheif ${heicDecoder.libheif})` : ''}`);
    console.log(`failed photos ${status.failedPhotos?.length ?? 0}`);
    console.log(`service seconds ${serviceSeconds.toFixed(1)}`);
    console.log(`floor seconds ${floorSeconds.toFixed(1)}`);
  } finally {
    await service.stop();
    await server.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

await main();
