/**
 * Renders a 24-page A4 book (plus cover) at 300 DPI and writes its PDF, our way (sharp + PDFKit,
 * streaming) and with ImageMagick doing the same composition, and prints wall time and peak memory
 * of each side by side. Run: `npx tsx test/bench/print-render.ts` (ImageMagick from Debian's
 * `imagemagick` package; the script says so and stops when it is absent). Prints; asserts nothing.
 */
import { execFile, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import type { Book, BookPage } from '../../src/services/projects/book';
import { buildBook } from '../../src/services/projects/book-builder';
import { renderPrintCover, renderPrintPage } from '../../src/imaging/print/render-page';
import { writeBookPdf } from '../../src/imaging/print/book-pdf';
import { pagePixels, type PrintFormat } from '../../src/imaging/print/print-geometry';

const run = promisify(execFile);
const A4: PrintFormat = { widthMm: 210, heightMm: 297, bleedMm: 3, dpi: 300 };
/** BENCH_PAGES=48 checks that memory does not grow with the book. */
const PAGES = Number(process.env.BENCH_PAGES ?? 24);
const PHOTOS = Math.round(PAGES * 1.5);
const IMAGEMAGICK = '/usr/bin/convert';

async function main() {
  const mode = process.argv[2];
  const dir = process.argv[3];
  if (mode === '--ours') return renderOurs(dir);

  const work = await mkdtemp(path.join(os.tmpdir(), 'print-bench-'));
  console.log(`making ${PHOTOS} 4000x3000 source photos in ${work} ...`);
  await makePhotos(work);
  const book = makeBook();
  await writeFile(path.join(work, 'book.json'), JSON.stringify(book));

  const ours = measure(process.execPath, ['--import', 'tsx', process.argv[1], '--ours', work]);
  const pdf = await readFile(path.join(work, 'ours.pdf'));
  console.log(`ours (${PAGES} pages + cover): ${ours.seconds.toFixed(1)} s, peak RSS ${ours.maxRssMb} MB, PDF ${(pdf.length / 1e6).toFixed(1)} MB`);

  if (process.env.BENCH_SKIP_IMAGEMAGICK || !existsSync(IMAGEMAGICK)) {
    console.log(process.env.BENCH_SKIP_IMAGEMAGICK ? 'ImageMagick skipped (BENCH_SKIP_IMAGEMAGICK).' : `ImageMagick not found at ${IMAGEMAGICK}: apt-get install imagemagick to compare.`);
    return;
  }
  const magick = await renderImageMagick(work, book);
  console.log('');
  console.log('| 24-page A4 book + cover, 300 DPI | wall time | peak memory (max RSS) |');
  console.log('|---|---|---|');
  console.log(`| sharp + PDFKit (this service), one process | ${ours.seconds.toFixed(1)} s | ${ours.maxRssMb} MB |`);
  console.log(`| ImageMagick ${magick.version}, one convert per page${magick.pdfWritten ? ' + one for the PDF' : ' (PDF refused by the system policy: pages only)'} | ${magick.seconds.toFixed(1)} s | ${magick.maxRssMb} MB |`);
  await rm(work, { recursive: true, force: true });
}

async function makePhotos(work: string) {
  for (let i = 0; i < PHOTOS; i++) {
    const noise = await sharp({ create: { width: 400, height: 300, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 60 } } }).png().toBuffer();
    await sharp({ create: { width: 4000, height: 3000, channels: 3, background: { r: (i * 53) % 255, g: (i * 97) % 255, b: (i * 31) % 255 } } })
      .composite([{ input: await sharp(noise).resize(4000, 3000, { kernel: 'cubic' }).toBuffer(), blend: 'overlay' }])
      .jpeg({ quality: 90 })
      .toFile(path.join(work, `photo-${i}.jpg`));
  }
}

/** 24 pages as the book builder lays out 36 photos, with denser pages mixed in. */
function makeBook(): Book {
  const photos = Array.from({ length: PHOTOS }, (_, i) => ({ id: `photo-${i}`, width: i % 3 ? 4000 : 3000, height: i % 3 ? 3000 : 4000, capturedAt: new Date(Date.UTC(2024, 6, 1 + Math.floor(i / 4), i)), quality: (i * 37) % 100 / 100, position: i }));
  const book = buildBook({ layoutType: 'smartbook', photos, minPages: PAGES, maxPages: PAGES, texts: { title: 'Benchmark' }, fallbackTitle: 'bench' });
  return book;
}

async function renderOurs(work: string) {
  const book = JSON.parse(await readFile(path.join(work, 'book.json'), 'utf8')) as Book;
  const loadPhoto = (id: string) => readFile(path.join(work, `${id}.jpg`));
  const pagesDir = path.join(work, 'ours-pages');
  await mkdir(pagesDir, { recursive: true });
  const cover = await renderPrintCover({ cover: book.cover, format: A4, loadPhoto, colorCorrection: true });
  await writeFile(path.join(pagesDir, '0000.jpg'), cover.jpeg);
  for (const page of book.pages) {
    const rendered = await renderPrintPage({ page, format: A4, loadPhoto, colorCorrection: true });
    await writeFile(path.join(pagesDir, `${String(page.number).padStart(4, '0')}.jpg`), rendered.jpeg);
  }
  async function* pages() {
    for (let n = 0; n <= book.pages.length; n++) yield readFile(path.join(pagesDir, `${String(n).padStart(4, '0')}.jpg`));
  }
  await writeBookPdf({ path: path.join(work, 'ours.pdf'), format: A4, pages: pages() });
}

async function renderImageMagick(work: string, book: Book) {
  // Debian's default resource limits (256 MiB) would make ImageMagick page to disk; lift them.
  const policyDir = path.join(work, 'magick-policy');
  await mkdir(policyDir, { recursive: true });
  await writeFile(path.join(policyDir, 'policy.xml'), '<policymap><policy domain="resource" name="memory" value="16GiB"/><policy domain="resource" name="map" value="16GiB"/><policy domain="resource" name="area" value="16GP"/><policy domain="resource" name="disk" value="16GiB"/></policymap>');
  const env = { ...process.env, MAGICK_CONFIGURE_PATH: policyDir };
  const version = (await run(IMAGEMAGICK, ['-version'])).stdout.split('\n')[0].split(' ')[2];
  const size = pagePixels(A4);
  const trimW = size.width - 2 * size.bleed;
  const trimH = size.height - 2 * size.bleed;
  const pagesDir = path.join(work, 'magick-pages');
  await mkdir(pagesDir, { recursive: true });
  let seconds = 0;
  let maxRss = 0;
  const pageArgs = (page: BookPage | null, out: string) => {
    const args = ['-size', `${size.width}x${size.height}`, 'xc:white'];
    const slots = page ? page.photos : book.cover.photoId ? [{ photoId: book.cover.photoId, x: -size.bleed / trimW, y: -size.bleed / trimH, width: size.width / trimW, height: size.height / trimH }] : [];
    for (const slot of slots) {
      const w = Math.round(slot.width * trimW);
      const h = Math.round(slot.height * trimH);
      const x = size.bleed + Math.round(slot.x * trimW);
      const y = size.bleed + Math.round(slot.y * trimH);
      args.push('(', path.join(work, `${slot.photoId}.jpg`), '-auto-orient', '-resize', `${w}x${h}^`, '-gravity', 'center', '-extent', `${w}x${h}`, ')', '-gravity', 'northwest', '-geometry', `+${x}+${y}`, '-composite');
    }
    args.push('-quality', '92', '-density', '300', '-units', 'PixelsPerInch', out);
    return args;
  };
  const outputs: string[] = [];
  for (const page of [null, ...book.pages]) {
    const out = path.join(pagesDir, `${String(page?.number ?? 0).padStart(4, '0')}.jpg`);
    const m = measure(IMAGEMAGICK, pageArgs(page, out), env);
    seconds += m.seconds;
    maxRss = Math.max(maxRss, m.maxRssMb);
    outputs.push(out);
  }
  // Debian's ImageMagick policy forbids the PDF coder (and a local policy cannot lift it), so its
  // column covers the composition of the 25 pages only: a lower bound of the same work.
  let pdfWritten = true;
  try {
    const pdf = measure(IMAGEMAGICK, [...outputs, '-density', '300', '-units', 'PixelsPerInch', '-compress', 'jpeg', '-quality', '92', path.join(work, 'magick.pdf')], env);
    seconds += pdf.seconds;
    maxRss = Math.max(maxRss, pdf.maxRssMb);
  } catch {
    pdfWritten = false;
  }
  return { version, seconds, maxRssMb: maxRss, pdfWritten };
}

/** Runs a command under GNU time: wall seconds and maximum resident set size. */
function measure(command: string, args: string[], env: NodeJS.ProcessEnv = process.env): { seconds: number; maxRssMb: number } {
  const started = process.hrtime.bigint();
  const result = spawnSync('/usr/bin/time', ['-v', command, ...args], { env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (result.status !== 0) throw new Error(`${command} failed: ${result.stderr.slice(-2000)}`);
  const rssKb = Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(result.stderr)?.[1] ?? 0);
  return { seconds, maxRssMb: Math.round(rssKb / 1024) };
}

await main();
