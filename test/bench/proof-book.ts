/**
 * The customer's wait for a proof: a book of 48 pages made through the API as an integrator makes it
 * (`POST /v2/generate`, smartbook, BENCH_PHOTOS (95) JPEGs of 12 MP served on 127.0.0.1, the build
 * finished: every photo fetched, analysed and placed), then `POST /v2/project/proof` with colour
 * correction, timed from the request until its answer (the proof is ready: print files, customer
 * preview and row written). Then the print render of the same book (its `book.json` read from the
 * database, its photos the stored originals) by print-render.ts, in-process as today's print row.
 *
 * Floors, each the least work for its side (print-render.ts):
 *   - the proof: `--libvips-proof`, plain sharp, two pages at once as the proof renders them, the
 *     same PDF writer and the service's own 72 DPI preview writer, at the render process's nice value
 *     (RENDER_NICE: the service renders proofs below the API's priority); no HTTP, database, store or
 *     render process;
 *   - the print render: `--libvips`, the same floor one page at a time.
 * Both sides of a pair run one after the other, BENCH_ROUNDS (1) times, alternating; the figure
 * is each side's median. Each render also reports its CPU time (user + system, GNU time or the
 * service's /proc counters), which the shared machine's load moves less than the wall time.
 *
 * Photos are made once and kept in BENCH_SNAPSHOT_DIR (default: the temporary folder).
 * Run: `npx tsx test/bench/proof-book.ts`; prints `key value` lines read by run.ts.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import sharp from 'sharp';
import { ROOT, benchDatabase, createClient, median, newDataDir, startProject } from './bench-env';
import { startPhotoServer } from '../support/photo-server';
import type { Book } from '../../src/domain/book';
import { RENDER_NICE } from '../../src/imaging/print/render-process';

const PHOTOS = Number(process.env.BENCH_PHOTOS ?? 95);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 1);
/** As npm start runs the service (package.json): glibc's arenas kept few, so libvips's threads do not double the RSS. */
const AS_NPM_START = { ...process.env, MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '131072' };

/** Photo `index` of 12 MP: a scene of its own hue and circles with grain, a JPEG of quality 90 (no capture date: one event). */
async function photo(index: number, grain: Buffer): Promise<Buffer> {
  const [width, height] = portrait(index) ? [3000, 4000] : [4000, 3000];
  const hue = (index * 37) % 360;
  const circles = Array.from(
    { length: 30 },
    (_, k) =>
      `<circle cx="${(k * 977 + index * 131) % width}" cy="${(k * 613 + index * 257) % height}" r="${60 + ((k * 37) % 240)}" fill="hsl(${(hue + k * 23) % 360},70%,${30 + ((k * 13) % 50)}%)"/>`,
  ).join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="hsl(${hue},55%,60%)"/>${circles}</svg>`;
  return sharp(Buffer.from(svg))
    .composite([{ input: grain, raw: { width, height, channels: 3 }, blend: 'soft-light' }])
    .jpeg({ quality: 90 })
    .toBuffer();
}

/** Every fifth photo is upright (3000 x 4000). */
const portrait = (index: number) => index % 5 === 4;

async function photoSet(): Promise<Buffer[]> {
  const dir = path.join(process.env.BENCH_SNAPSHOT_DIR ?? os.tmpdir(), `photobook-bench-proof-photos-${PHOTOS}-v1`);
  const file = (n: number) => path.join(dir, `photo-${n}.jpg`);
  if (!existsSync(path.join(dir, 'done'))) {
    console.error(`making ${PHOTOS} photos of 12 MP in ${dir} ...`);
    await mkdir(dir, { recursive: true });
    const grain = (width: number, height: number) =>
      sharp({
        create: {
          width,
          height,
          channels: 3,
          background: '#808080',
          noise: { type: 'gaussian', mean: 128, sigma: 30 },
        },
      })
        .raw()
        .toBuffer();
    const grains = { landscape: await grain(4000, 3000), portrait: await grain(3000, 4000) };
    for (let n = 0; n < PHOTOS; n++)
      await writeFile(file(n), await photo(n, portrait(n) ? grains.portrait : grains.landscape));
    await writeFile(path.join(dir, 'done'), '');
  }
  return Promise.all(Array.from({ length: PHOTOS }, (_, n) => readFile(file(n))));
}

interface Timed {
  seconds: number;
  cpuSeconds: number;
  maxRssMb: number;
  stdout: string;
}

/** A print-render.ts mode under GNU time: wall, CPU (user + system) and peak RSS. */
function printRender(mode: string, work: string, arg?: string, nice = 0): Timed {
  const started = process.hrtime.bigint();
  const command = [
    process.execPath,
    '--import',
    'tsx',
    'test/bench/print-render.ts',
    mode,
    work,
    ...(arg ? [arg] : []),
  ];
  const result = spawnSync('/usr/bin/time', ['-v', ...(nice ? ['nice', '-n', String(nice)] : []), ...command], {
    cwd: ROOT,
    env: AS_NPM_START,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (result.status !== 0) throw new Error(`print-render.ts ${mode} failed: ${result.stderr.slice(-2000)}`);
  const field = (name: string) => Number(new RegExp(`${name}: ([\\d.]+)`).exec(result.stderr)?.[1] ?? 0);
  return {
    seconds,
    cpuSeconds: field('User time \\(seconds\\)') + field('System time \\(seconds\\)'),
    maxRssMb: Math.round(field('Maximum resident set size \\(kbytes\\)') / 1024),
    stdout: result.stdout,
  };
}

/** CPU seconds (user + system) of every process of a tree: npm start's shell, the service and its render process. */
function treeCpuSeconds(root: number): number {
  const stats = new Map<number, { parent: number; seconds: number }>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // After the command's closing parenthesis: state, ppid, ... utime, stime (fields 14-15 of stat).
      const fields = readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1].split(' ');
      stats.set(Number(entry), { parent: Number(fields[1]), seconds: (Number(fields[11]) + Number(fields[12])) / 100 });
    } catch {
      // exited meanwhile
    }
  }
  const inTree = (pid: number): boolean =>
    pid === root || (pid > 1 && stats.has(pid) && inTree(stats.get(pid)!.parent));
  let total = 0;
  for (const [pid, stat] of stats) if (inTree(pid)) total += stat.seconds;
  return total;
}

async function main() {
  const photos = await photoSet();
  const server = await startPhotoServer(
    Object.fromEntries(photos.map((body, n) => [`/photo-${n}.jpg`, { body, type: 'image/jpeg' }])),
  );
  const databaseUrl = await benchDatabase('photobook_bench_proof');
  const dataDir = await newDataDir();
  const work = await mkdtemp(path.join(os.tmpdir(), 'proof-bench-'));
  // A 48-page proof renders within its request: under a shared machine's load it may pass the 60 s default.
  const service = await startProject({
    databaseUrl,
    dataDir,
    env: { ALLOW_LOOPBACK_URLS: 'true', LOG_LEVEL: 'warn', REQUEST_TIMEOUT: '15m', HEADERS_TIMEOUT: '60s' },
  });
  try {
    const client = await createClient(databaseUrl, dataDir, 'Proof shop');
    const headers = { 'x-service': client.header, 'content-type': 'application/json' };
    const buildStarted = Date.now();
    const generated = await fetch(`${service.url}/v2/generate`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        sku: 'PB-HC-A4-P',
        psp: 'local',
        marketId: 0,
        userId: 'proof-user',
        layoutType: 'smartbook',
        photos: photos.map((_, n) => ({ id: `c${n}`, url: server.url(`/photo-${n}.jpg`) })),
      }),
    });
    if (generated.status !== 200) throw new Error(`generate answered ${generated.status}: ${await generated.text()}`);
    const id = new URL(((await generated.json()) as { url: string }).url).searchParams.get('id')!;
    for (;;) {
      const status = (await (await fetch(`${service.url}/v2/project/status?id=${id}`, { headers })).json()) as {
        status: { project: string; photos: string };
      };
      if (status.status.project === 'failed') throw new Error(`the build failed: ${JSON.stringify(status)}`);
      if (status.status.project === 'editable' && status.status.photos === 'idle') break;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    const buildSeconds = (Date.now() - buildStarted) / 1000;

    // The same book for print-render.ts: its book.json and each photo's stored original as <photoId>.jpg.
    const db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    const book = (await db.query<{ book: Book }>('SELECT book FROM projects WHERE id = $1', [id])).rows[0].book;
    const originals = (
      await db.query<{ id: string; original_key: string }>(
        'SELECT id, original_key FROM photos WHERE project_id = $1 AND original_key IS NOT NULL',
        [id],
      )
    ).rows;
    await db.end();
    await writeFile(path.join(work, 'book.json'), JSON.stringify(book));
    for (const photo of originals)
      await copyFile(path.join(dataDir, 'files', ...photo.original_key.split('/')), path.join(work, `${photo.id}.jpg`));
    const placements = book.pages.reduce((n, p) => n + p.photos.length, book.cover.photoId ? 1 : 0);

    const pid = service.child.pid!;
    const proof: Timed[] = [];
    const proofFloor: Timed[] = [];
    const print: Timed[] = [];
    const printFloor: Timed[] = [];
    let files: { name: string; bytes: number; pages: number }[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const cpuBefore = treeCpuSeconds(pid);
      const started = process.hrtime.bigint();
      const answer = await fetch(`${service.url}/v2/project/proof`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ id, colorCorrection: true }),
        signal: AbortSignal.timeout(15 * 60_000),
      });
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      if (answer.status !== 200) throw new Error(`proof answered ${answer.status}: ${await answer.text()}`);
      files = ((await answer.json()) as { files: typeof files }).files;
      proof.push({ seconds, cpuSeconds: treeCpuSeconds(pid) - cpuBefore, maxRssMb: 0, stdout: '' });
      // At the render process's priority (RENDER_NICE): on a shared machine the proof's pages get what its render process gets.
      proofFloor.push(printRender('--libvips-proof', work, undefined, RENDER_NICE));
      print.push(printRender('--ours', work, 'cc'));
      printFloor.push(printRender('--libvips', work));
    }
    const mid = (sides: Timed[], key: 'seconds' | 'cpuSeconds' | 'maxRssMb') => median(sides.map((s) => s[key]));
    const layouts: Record<string, number> = {};
    for (const page of book.pages) layouts[page.layout] = (layouts[page.layout] ?? 0) + 1;
    console.log(`photos ${PHOTOS} JPEG of 12 MP`);
    console.log(`build seconds ${buildSeconds.toFixed(1)}`);
    console.log(`pages ${book.pages.length}`);
    console.log(`placements ${placements}`);
    console.log(
      `layouts ${Object.entries(layouts)
        .map(([k, v]) => `${v} ${k}`)
        .join(', ')}`,
    );
    console.log(
      `proof files ${files.map((f) => `${f.name} ${f.pages} pages ${(f.bytes / 1e6).toFixed(1)} MB`).join(', ')}`,
    );
    console.log(`rounds ${ROUNDS}`);
    for (const [name, sides] of [
      ['proof', proof],
      ['proof floor', proofFloor],
      ['print', print],
      ['print floor', printFloor],
    ] as const) {
      console.log(`${name} seconds ${mid(sides, 'seconds').toFixed(1)}`);
      console.log(`${name} cpu ${mid(sides, 'cpuSeconds').toFixed(1)}`);
      if (name !== 'proof') console.log(`${name} rss ${mid(sides, 'maxRssMb')}`);
    }
    console.log(
      `load ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );
  } finally {
    await service.stop();
    await server.close();
    await rm(dataDir, { recursive: true, force: true });
    if (process.env.BENCH_KEEP) console.error(`kept ${work} (BENCH_KEEP)`);
    else await rm(work, { recursive: true, force: true });
  }
}

await main();
