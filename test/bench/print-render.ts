/**
 * Print rendering benchmark: a 24-page A4 book plus cover at 300 DPI (trim 210 x 297 mm + 3 mm
 * bleed: 2551 x 3579 px a page) from 12 photos of 4000 x 3000 px, composed and written as one PDF
 *
 *   - by this service (sharp + PDFKit, src/imaging/print/), in one Node process, as the fulfilment
 *     activities do it (their render process draws the pages, render-process.ts): pages rendered
 *     one at a time to files, then the PDF streamed from them;
 *   - by ImageMagick doing the same composition: one `convert` per page (canvas, each photo
 *     `-resize WxH^ -gravity center -extent WxH` into its slot, composited at its offset, texts),
 *     then one `convert` combining the 25 pages into a 300-DPI PDF;
 *
 * each measured with GNU time (`/usr/bin/time -v`: wall time, "Maximum resident set size"), and
 * prints a side-by-side table. Then it measures the PDF writers alone on 24 and 48 pages
 * (PDFKit streaming vs pdf-lib building in memory), which is why the service uses PDFKit.
 *
 * Run: `npx tsx test/bench/print-render.ts` (about 3 minutes on 2 cores). Needs GNU time
 * (Debian's `time`); ImageMagick from Debian's `imagemagick` package (`apt-get install -y
 * imagemagick`): without it the ImageMagick column is skipped, said so, and the script exits 0.
 * BENCH_PAGES=48 renders a 48-page book instead (memory must not grow with the book); BENCH_KEEP=1
 * keeps the work directory (photos, pages, both PDFs) to look at.
 * Prints figures; asserts nothing.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { appendFile, mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PDFDocument } from 'pdf-lib';
import sharp, { type OverlayOptions } from 'sharp';
import { writeBookPdf } from '../../src/imaging/print/book-pdf';
import { pagePixels, trimPixels, type PrintFormat } from '../../src/imaging/print/print-geometry';
import { renderPrintPage } from '../../src/imaging/print/render-page';
import { pageCanvas, type RawPhotoLayer } from '../../src/imaging/print/page-canvas';
import { renderPrintCoverSheet } from '../../src/imaging/print/cover-sheet';
import { coverGeometry, coverSheetFormat } from '../../src/imaging/print/cover-geometry';
import type { ProductProduction } from '../../src/domain/print-production';
import { limitImageProcessing } from '../../src/imaging/image-processing-limits';
import {
  measureColourCorrection,
  PhotoCorrections,
  type ColourCorrection,
} from '../../src/imaging/print/color-correction';
import { tagSrgb } from '../../src/imaging/print/srgb-tag';
import { writeProofPreview } from '../../src/imaging/print/proof-preview';
import type { Book, BookPage, PhotoSlot } from '../../src/domain/book';

const A4: PrintFormat = { widthMm: 210, heightMm: 297, bleedMm: 3, dpi: 300 };
/** The demo catalogue's A4 hardcover (catalogue/demo.json, docs/print-production.md). */
const HARDCOVER: ProductProduction = {
  binding: 'hardcover',
  leafThicknessMm: 0.15,
  boardThicknessMm: 2.5,
  wrapMm: 15,
  hingeMm: 8,
  spineTextMinPages: 32,
};
const PAGES = Number(process.env.BENCH_PAGES ?? 24);
const PHOTOS = 12;
const DEDICATION = 'For Ada and Charles, with love: the summer we spent by the sea.';
const SCRIPT = fileURLToPath(import.meta.url);
/**
 * Our renders run with the glibc settings `npm start` gives the service (package.json): without
 * them libvips's threads each grow a malloc arena and the same render peaks at about twice the RSS.
 */
const AS_NPM_START = {
  ...process.env,
  MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? '2',
  MALLOC_MMAP_THRESHOLD_: process.env.MALLOC_MMAP_THRESHOLD_ ?? '131072',
};

interface Measured {
  seconds: number;
  maxRssMb: number;
  stdout: string;
}

async function main() {
  const [mode, work, arg] = process.argv.slice(2);
  if (mode === '--ours') return renderOurs(work, arg === 'cc');
  if (mode === '--ours-two') return renderTwoAtOnce(work, arg === 'cc');
  if (mode === '--libvips') return renderLibvipsFloor(work);
  if (mode === '--libvips-proof') return renderLibvipsFloor(work, { pagesAtOnce: 2, preview: true });
  if (mode === '--pdfkit') return pdfWithPdfkit(work, Number(arg));
  if (mode === '--pdf-lib') return pdfWithPdfLib(work, Number(arg));

  if (!existsSync('/usr/bin/time')) {
    console.log(
      'GNU time (/usr/bin/time, Debian package `time`) is needed to measure peak memory; not found, nothing measured.',
    );
    return;
  }
  const dir = await mkdtemp(path.join(os.tmpdir(), 'print-bench-'));
  try {
    console.log(
      `${os.cpus().length} cores, Node ${process.version}, sharp ${sharp.versions.sharp} (libvips ${sharp.versions.vips}), work dir ${dir}`,
    );
    console.log(
      `making ${PHOTOS} source photos (4000 x 3000 and 3000 x 4000 JPEGs with detail, two stored sideways with EXIF orientation) ...`,
    );
    await makePhotos(dir);
    const book = makeBook();
    await writeFile(path.join(dir, 'book.json'), JSON.stringify(book));
    const layouts = Object.entries(countBy(book.pages.map((p) => p.layout)));
    console.log(
      `book: cover + ${book.pages.length} pages (${layouts.map(([k, v]) => `${v} ${k}`).join(', ')}), ${book.pages.reduce((n, p) => n + p.photos.length, 1)} photo placements\n`,
    );

    const ours = measure(process.execPath, ['--import', 'tsx', SCRIPT, '--ours', dir, 'plain'], AS_NPM_START);
    const oursPhases = JSON.parse(ours.stdout) as OursReport;
    const oursCc = measure(process.execPath, ['--import', 'tsx', SCRIPT, '--ours', dir, 'cc'], AS_NPM_START);
    const oursCcPhases = JSON.parse(oursCc.stdout) as OursReport;

    const two = measure(process.execPath, ['--import', 'tsx', SCRIPT, '--ours-two', dir, 'cc'], AS_NPM_START);
    const floor = measure(process.execPath, ['--import', 'tsx', SCRIPT, '--libvips', dir], AS_NPM_START);
    const floorPhases = JSON.parse(floor.stdout) as OursReport;
    const magick = findImageMagick();
    const rows: string[][] = [
      [
        'sharp + PDFKit (this service), one process',
        `${ours.seconds.toFixed(1)} s (pages ${oursPhases.renderSeconds.toFixed(1)} + PDF ${oursPhases.pdfSeconds.toFixed(1)})`,
        `${ours.maxRssMb} MB`,
        `${mb(oursPhases.pdfBytes)} MB`,
      ],
      [
        '  same, colour correction on for every photo',
        `${oursCc.seconds.toFixed(1)} s (pages ${oursCcPhases.renderSeconds.toFixed(1)} + PDF ${oursCcPhases.pdfSeconds.toFixed(1)})`,
        `${oursCc.maxRssMb} MB`,
        `${mb(oursCcPhases.pdfBytes)} MB`,
      ],
      [
        '  two such books at once in one process (as the render queue runs two)',
        `${two.seconds.toFixed(1)} s: ${((2 * oursCc.seconds) / two.seconds).toFixed(2)}x the throughput of one after the other`,
        `${two.maxRssMb} MB`,
        '2 PDFs',
      ],
      [
        'libvips floor: plain sharp, same composition, colour correction on, then the same PDF writer',
        `${floor.seconds.toFixed(1)} s (pages ${floorPhases.renderSeconds.toFixed(1)} + PDF ${floorPhases.pdfSeconds.toFixed(1)})`,
        `${floor.maxRssMb} MB`,
        `${mb(floorPhases.pdfBytes)} MB`,
      ],
    ];
    if (!magick) {
      console.log(
        'ImageMagick not found (no `magick`, and `convert` is not ImageMagick): `apt-get install -y imagemagick` to compare. Our figures only:',
      );
    } else {
      const im = await renderImageMagick(dir, book, magick);
      rows.push([
        `ImageMagick ${im.version}, one \`convert\` per page`,
        `${im.pages.seconds.toFixed(1)} s`,
        `${im.pages.maxRssMb} MB (largest page process)`,
        '-',
      ]);
      if (im.pdf) {
        rows.push([
          `ImageMagick, pages combined into the PDF${im.pdfNote}`,
          `${im.pdf.seconds.toFixed(1)} s`,
          `${im.pdf.maxRssMb} MB`,
          `${mb(im.pdfBytes)} MB`,
        ]);
        rows.push([
          'ImageMagick, pages + PDF',
          `${(im.pages.seconds + im.pdf.seconds).toFixed(1)} s`,
          `${Math.max(im.pages.maxRssMb, im.pdf.maxRssMb)} MB`,
          `${mb(im.pdfBytes)} MB`,
        ]);
      } else {
        rows.push(['ImageMagick, PDF', `refused: ${im.pdfNote}`, '-', '-']);
      }
    }
    console.log(`\n| ${PAGES}-page A4 book + cover, 300 DPI | wall time | peak memory (max RSS) | PDF |`);
    console.log('|---|---|---|---|');
    for (const row of rows) console.log(`| ${row.join(' | ')} |`);

    console.log(
      '\nPDF writers alone, streaming the page JPEGs above from disk (the interior pages repeated to the count):',
    );
    console.log('\n| PDF writer | 24 pages: time, max RSS | 48 pages: time, max RSS |');
    console.log('|---|---|---|');
    for (const [label, flag] of [
      ['PDFKit 0.17 (streams to the file)', '--pdfkit'],
      ['pdf-lib 1.17 (document in memory until save)', '--pdf-lib'],
    ]) {
      const cells = [24, 48].map((n) => {
        const m = measure(process.execPath, ['--import', 'tsx', SCRIPT, flag, dir, String(n)]);
        return `${m.seconds.toFixed(1)} s, ${m.maxRssMb} MB`;
      });
      console.log(`| ${label} | ${cells.join(' | ')} |`);
    }
  } finally {
    if (process.env.BENCH_KEEP) console.log(`\nkept ${dir} (BENCH_KEEP)`);
    else await rm(dir, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------
// Inputs

async function makePhotos(dir: string) {
  for (let i = 0; i < PHOTOS; i++) {
    const portrait = i % 6 === 5; // two portrait photos
    const sideways = i % 6 === 2; // two stored turned a quarter, EXIF orientation 6 turns them back
    const [width, height] = portrait ? [3000, 4000] : [4000, 3000];
    const hue = (i * 47) % 360;
    const svg =
      `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">` +
      `<defs><linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="hsl(${hue},60%,75%)"/><stop offset="1" stop-color="hsl(${(hue + 40) % 360},50%,30%)"/></linearGradient></defs>` +
      `<rect width="${width}" height="${height}" fill="url(#sky)"/>` +
      Array.from({ length: 40 }, (_, k) => {
        const x = (k * 977 + i * 131) % width;
        const y = (k * 613 + i * 257) % height;
        return `<circle cx="${x}" cy="${y}" r="${60 + ((k * 37) % 240)}" fill="hsl(${(hue + k * 23) % 360},70%,${30 + ((k * 13) % 50)}%)" fill-opacity="0.8"/>`;
      }).join('') +
      `</svg>`;
    const grain = await sharp({
      create: {
        width: width / 8,
        height: height / 8,
        channels: 3,
        background: '#808080',
        noise: { type: 'gaussian', mean: 128, sigma: 50 },
      },
    })
      .resize(width, height, { kernel: 'cubic' })
      .png({ compressionLevel: 1 })
      .toBuffer();
    let image = sharp(Buffer.from(svg)).composite([{ input: grain, blend: 'soft-light' }]);
    if (sideways)
      image = sharp(await image.png({ compressionLevel: 1 }).toBuffer())
        .rotate(-90)
        .withMetadata({ orientation: 6 });
    await image.jpeg({ quality: 90 }).toFile(path.join(dir, `photo-${i}.jpg`));
  }
}

/** The book builder's geometry: 6% margins, 3% gutter; a mix of every layout, one blank page. */
function makeBook(): Book {
  const M = 0.06;
  const G = 0.03;
  const inner = 1 - 2 * M;
  const half = (inner - G) / 2;
  let next = 0;
  const photo = () => `photo-${next++ % PHOTOS}`;
  const slot = (x: number, y: number, width: number, height: number): PhotoSlot => ({
    photoId: photo(),
    x,
    y,
    width,
    height,
  });
  const cycle: BookPage['layout'][] = ['full', 'two-side-by-side', 'two-stacked', 'grid-4'];
  const pages: BookPage[] = Array.from({ length: PAGES }, (_, i) => {
    const number = i + 1;
    const layout: BookPage['layout'] = number === PAGES / 2 ? 'blank' : cycle[i % cycle.length];
    const photos =
      layout === 'full'
        ? [slot(M, M, inner, inner)]
        : layout === 'two-side-by-side'
          ? [slot(M, M, half, inner), slot(M + half + G, M, half, inner)]
          : layout === 'two-stacked'
            ? [slot(M, M, inner, half), slot(M, M + half + G, inner, half)]
            : layout === 'grid-4'
              ? [0, 1, 2, 3].map((k) => slot(M + (k % 2) * (half + G), M + Math.floor(k / 2) * (half + G), half, half))
              : [];
    const texts = number === 1 || layout === 'blank' ? [{ assetId: 'dedication', text: DEDICATION }] : [];
    return { number, layout, photos, texts };
  });
  return {
    layoutType: 'smartbook',
    cover: { title: 'Summer by the sea', subtitle: 'July 2024', photoId: 'photo-0', texts: [] },
    pages,
  };
}

// ---------------------------------------------------------------------------------------------
// Ours

interface OursReport {
  renderSeconds: number;
  pdfSeconds: number;
  pdfBytes: number;
  pageCount: number;
}

async function renderOurs(dir: string, colorCorrection: boolean) {
  limitImageProcessing(); // as the service's activities run
  process.stdout.write(JSON.stringify(await renderBook(dir, 'ours', colorCorrection)));
}

/** Two books at once in one process, as the service's render queue runs two (`--ours-two`). */
async function renderTwoAtOnce(dir: string, colorCorrection: boolean) {
  limitImageProcessing();
  await Promise.all([renderBook(dir, 'two-a', colorCorrection), renderBook(dir, 'two-b', colorCorrection)]);
}

async function renderBook(dir: string, tag: string, colorCorrection: boolean): Promise<OursReport> {
  const book = JSON.parse(await readFile(path.join(dir, 'book.json'), 'utf8')) as Book;
  const loadPhoto = (id: string) => readFile(path.join(dir, `${id}.jpg`));
  const pagesDir = path.join(dir, `${tag}-pages`);
  await mkdir(pagesDir, { recursive: true });
  const pageFile = (n: number) => path.join(pagesDir, `${String(n).padStart(4, '0')}.jpg`);
  const started = performance.now();
  const corrections = new PhotoCorrections(); // as renderPages measures each photo once
  const geometry = coverGeometry(A4, HARDCOVER, book.pages.length);
  const cover = await renderPrintCoverSheet({
    cover: book.cover,
    geometry,
    format: A4,
    loadPhoto,
    colorCorrection,
    corrections,
  });
  await writeFile(pageFile(0), cover.jpeg);
  for (const page of book.pages) {
    const rendered = await renderPrintPage({ page, format: A4, loadPhoto, colorCorrection, corrections });
    await writeFile(pageFile(page.number), rendered.jpeg);
  }
  const rendered = performance.now();
  async function* pages(from: number, to: number) {
    for (let n = from; n <= to; n++) yield readFile(pageFile(n));
  }
  // As the service ships them: cover.pdf (the sheet) and interior.pdf (the pages).
  const coverPdf = await writeBookPdf({
    write: fileWriter(path.join(dir, `${tag}-cover.pdf`)),
    format: coverSheetFormat(geometry, A4.dpi),
    pages: pages(0, 0),
  });
  const pdf = await writeBookPdf({
    write: fileWriter(path.join(dir, `${tag}.pdf`)),
    format: A4,
    pages: pages(1, book.pages.length),
  });
  return {
    renderSeconds: (rendered - started) / 1000,
    pdfSeconds: (performance.now() - rendered) / 1000,
    pdfBytes: coverPdf.bytes + pdf.bytes,
    pageCount: coverPdf.pageCount + pdf.pageCount,
  };
}

// ---------------------------------------------------------------------------------------------
// The libvips floor

/**
 * The least libvips work for the same book (`--libvips`): in one process, one page at a time, with
 * the service's libvips settings (operation cache off, half the cores), each page a canvas of the
 * same size with every photo upright, colour-corrected (grey-world gains and a levels stretch
 * measured once per photo by the service's own measure on a 256 px copy, applied with `linear`),
 * centre-cropped to its slot and its rows copied into the raw page at its offset (the service's own
 * page-canvas.ts: a copy is the least work that gives an opaque photo's composite), the page text as
 * an SVG overlay, encoded as ours (JPEG 92, 4:4:4, density) and tagged with the sRGB profile without
 * a colour transform (srgb-tag.ts), and written; the cover sheet at its size with the cover photo over its front
 * panel and the title; then the same PDF writer. It does not choose an attention crop, clip a
 * slot to the page by hand, wrap and fit text, or compute effective DPI and warnings.
 */
async function renderLibvipsFloor(dir: string, proof?: { pagesAtOnce: number; preview: true }) {
  sharp.cache(false);
  sharp.concurrency(Math.max(1, Math.floor(os.availableParallelism() / 2)));
  const book = JSON.parse(await readFile(path.join(dir, 'book.json'), 'utf8')) as Book;
  const pagesDir = path.join(dir, 'floor-pages');
  await mkdir(pagesDir, { recursive: true });
  const pageFile = (n: number) => path.join(pagesDir, `${String(n).padStart(4, '0')}.jpg`);
  // The service's own measure (a 256 px copy decoded with shrink-on-load, its histograms), once a
  // photo: the same gains as the service's, so the same pixels. sharp's `stats()` would measure the
  // whole 12 MP photo whatever the pipeline before it says (it reads the input, not the resized copy).
  const corrections = new Map<string, Promise<ColourCorrection>>();
  const correctionOf = (photoId: string) => {
    let correction = corrections.get(photoId);
    if (!correction) {
      correction = readFile(path.join(dir, `${photoId}.jpg`)).then(measureColourCorrection);
      corrections.set(photoId, correction);
    }
    return correction;
  };
  const photo = async (photoId: string, width: number, height: number) => {
    const { a, b } = await correctionOf(photoId);
    return sharp(path.join(dir, `${photoId}.jpg`))
      .rotate()
      .linear(a, b)
      .resize(width, height, { fit: 'cover' })
      .raw()
      .toBuffer({ resolveWithObject: true });
  };
  const encode = (
    size: { width: number; height: number },
    background: string,
    photos: RawPhotoLayer[],
    texts: OverlayOptions[],
    file: string,
  ) => {
    const page = sharp(pageCanvas(size, background, photos), { raw: { ...size, channels: 3 } });
    // Tagged sRGB as sharp's withIccProfile('srgb') tags it, without its sRGB-to-sRGB transform (the same bytes).
    return (texts.length > 0 ? page.composite(texts) : page)
      .jpeg({ quality: 92, chromaSubsampling: '4:4:4', optimiseCoding: false })
      .withDensity(A4.dpi)
      .toBuffer()
      .then(tagSrgb)
      .then((jpeg) => writeFile(file, jpeg));
  };
  const layer = (
    placed: { data: Buffer; info: { width: number; height: number } },
    left: number,
    top: number,
  ): RawPhotoLayer => ({ pixels: placed.data, left, top, width: placed.info.width, height: placed.info.height });
  const text = (width: number, height: number, line: string, y: number, px: number, fill: string) =>
    Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><text x="${width / 2}" y="${y}" text-anchor="middle" font-family="sans-serif" font-size="${px}" fill="${fill}">${line}</text></svg>`,
    );

  const started = performance.now();
  const geometry = coverGeometry(A4, HARDCOVER, book.pages.length);
  const sheet = coverSheetFormat(geometry, A4.dpi);
  const sheetSize = pagePixels(sheet);
  const front = {
    left: Math.round((geometry.front.xMm / 25.4) * A4.dpi),
    top: 0,
    width: Math.round(((geometry.front.widthMm + A4.bleedMm) / 25.4) * A4.dpi),
    height: sheetSize.height,
  };
  front.width = Math.min(front.width, sheetSize.width - front.left);
  const coverPhoto = await photo(book.cover.photoId!, front.width, front.height);
  await encode(
    sheetSize,
    '#2f3b48',
    [layer(coverPhoto, front.left, front.top)],
    [
      {
        input: text(
          sheetSize.width,
          sheetSize.height,
          book.cover.title,
          Math.round(sheetSize.height * 0.9),
          Math.round(front.width * 0.08),
          '#ffffff',
        ),
        left: 0,
        top: 0,
      },
    ],
    pageFile(0),
  );
  const size = pagePixels(A4);
  const trim = trimPixels(A4);
  const renderPage = async (page: BookPage) => {
    const photos: RawPhotoLayer[] = [];
    for (const s of page.photos) {
      const width = Math.round(s.width * trim.width);
      const height = Math.round(s.height * trim.height);
      photos.push(
        layer(
          await photo(s.photoId, width, height),
          trim.left + Math.round(s.x * trim.width),
          trim.top + Math.round(s.y * trim.height),
        ),
      );
    }
    const texts = page.texts.map((t) => ({
      input: text(
        size.width,
        size.height,
        t.text,
        trim.top + trim.height - 120,
        Math.round((14 / 72) * A4.dpi),
        '#333333',
      ),
      left: 0,
      top: 0,
    }));
    await encode(size, '#ffffff', photos, texts, pageFile(page.number));
  };
  // A proof renders two pages at once (project-proof.ts), so its floor does too; the print row one at a time.
  const queue = [...book.pages];
  await Promise.all(
    Array.from({ length: proof?.pagesAtOnce ?? 1 }, async () => {
      for (let page = queue.shift(); page; page = queue.shift()) await renderPage(page);
    }),
  );
  const rendered = performance.now();
  async function* pages(from: number, to: number) {
    for (let n = from; n <= to; n++) yield readFile(pageFile(n));
  }
  const coverPdf = await writeBookPdf({
    write: fileWriter(path.join(dir, 'floor-cover.pdf')),
    format: sheet,
    pages: pages(0, 0),
  });
  const pdf = await writeBookPdf({
    write: fileWriter(path.join(dir, 'floor.pdf')),
    format: A4,
    pages: pages(1, book.pages.length),
  });
  const written = performance.now();
  // A proof's customer preview: the service's own writer (72 DPI pages with PROOF across them), from the same page files.
  if (proof) {
    async function* previewPages() {
      yield { jpeg: await readFile(pageFile(0)), format: sheet };
      for (let n = 1; n <= book.pages.length; n++) yield { jpeg: await readFile(pageFile(n)), format: A4 };
    }
    await writeFile(
      path.join(dir, 'floor-preview.pdf'),
      await writeProofPreview({ pages: previewPages(), title: book.cover.title }),
    );
  }
  const report: OursReport & { previewSeconds: number } = {
    renderSeconds: (rendered - started) / 1000,
    pdfSeconds: (written - rendered) / 1000,
    previewSeconds: (performance.now() - written) / 1000,
    pdfBytes: coverPdf.bytes + pdf.bytes,
    pageCount: coverPdf.pageCount + pdf.pageCount,
  };
  process.stdout.write(JSON.stringify(report));
}

/** The interior page files ours rendered, repeated to `count` pages. */
async function pageFiles(dir: string, count: number): Promise<string[]> {
  // The interior pages only: the cover sheet (0000.jpg) is wider than an A4 page.
  const files = (await readdir(path.join(dir, 'ours-pages')))
    .filter((f) => f !== '0000.jpg')
    .sort()
    .map((f) => path.join(dir, 'ours-pages', f));
  return Array.from({ length: count }, (_, i) => files[i % files.length]);
}

async function pdfWithPdfkit(dir: string, count: number) {
  const files = await pageFiles(dir, count);
  async function* pages() {
    for (const file of files) yield readFile(file);
  }
  await writeBookPdf({ write: fileWriter(path.join(dir, `pdfkit-${count}.pdf`)), format: A4, pages: pages() });
}

async function pdfWithPdfLib(dir: string, count: number) {
  const files = await pageFiles(dir, count);
  const doc = await PDFDocument.create();
  const size = { width: (216 / 25.4) * 72, height: (303 / 25.4) * 72 };
  for (const file of files) {
    const image = await doc.embedJpg(await readFile(file));
    doc.addPage([size.width, size.height]).drawImage(image, { x: 0, y: 0, ...size });
  }
  await writeFile(path.join(dir, `pdf-lib-${count}.pdf`), await doc.save());
}

// ---------------------------------------------------------------------------------------------
// ImageMagick

function findImageMagick(): { command: string; version: string } | null {
  for (const command of ['magick', '/usr/bin/convert', 'convert']) {
    try {
      const out = execFileSync(command, ['-version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
      const version = /ImageMagick (\S+)/.exec(out)?.[1];
      if (version) return { command, version };
    } catch {
      // not this one
    }
  }
  return null;
}

async function renderImageMagick(dir: string, book: Book, magick: { command: string; version: string }) {
  // Debian's policy caps ImageMagick at 256 MiB of pixel cache (beyond it, it pages to disk): lift
  // the resource limits so it works in memory, as sharp does.
  const policyDir = path.join(dir, 'magick-policy');
  await mkdir(policyDir, { recursive: true });
  await writeFile(
    path.join(policyDir, 'policy.xml'),
    '<policymap><policy domain="resource" name="memory" value="16GiB"/><policy domain="resource" name="map" value="16GiB"/>' +
      '<policy domain="resource" name="area" value="16GP"/><policy domain="resource" name="disk" value="16GiB"/></policymap>',
  );
  const env = { ...process.env, MAGICK_CONFIGURE_PATH: policyDir };
  const size = pagePixels(A4);
  const trim = trimPixels(A4);
  const photoMeta = new Map<string, { orientation: number }>();
  for (let i = 0; i < PHOTOS; i++)
    photoMeta.set(`photo-${i}`, {
      orientation: (await sharp(path.join(dir, `photo-${i}.jpg`)).metadata()).orientation ?? 1,
    });
  const offset = (n: number) => (n >= 0 ? `+${n}` : `${n}`);
  const fontPx = Math.round((14 / 72) * A4.dpi);

  const photoArgs = (photoId: string, x: number, y: number, w: number, h: number) => {
    // jpeg:size lets the decoder shrink on load (sharp does the same by itself); stored size, so swapped for sideways photos.
    const stored = (photoMeta.get(photoId)?.orientation ?? 1) >= 5 ? `${h}x${w}` : `${w}x${h}`;
    return [
      '(',
      '-define',
      `jpeg:size=${stored}`,
      path.join(dir, `${photoId}.jpg`),
      '-auto-orient',
      '-resize',
      `${w}x${h}^`,
      '-gravity',
      'center',
      '-extent',
      `${w}x${h}`,
      ')',
      '-gravity',
      'northwest',
      '-geometry',
      `${offset(x)}${offset(y)}`,
      '-composite',
    ];
  };
  const pageArgs = (page: BookPage | null, out: string) => {
    const args = ['-size', `${size.width}x${size.height}`, page ? 'xc:white' : 'xc:#2f3b48'];
    if (page) {
      for (const s of page.photos) {
        args.push(
          ...photoArgs(
            s.photoId,
            trim.left + Math.round(s.x * trim.width),
            trim.top + Math.round(s.y * trim.height),
            Math.round(s.width * trim.width),
            Math.round(s.height * trim.height),
          ),
        );
      }
      for (const t of page.texts) {
        args.push(
          '-gravity',
          page.photos.length ? 'south' : 'center',
          '-font',
          'DejaVu-Sans',
          '-pointsize',
          String(fontPx),
          '-fill',
          '#333333',
          '-annotate',
          page.photos.length ? '+0+80' : '+0+0',
          t.text,
        );
      }
    } else {
      if (book.cover.photoId) args.push(...photoArgs(book.cover.photoId, 0, 0, size.width, size.height));
      const band = Math.round(size.height * 0.17);
      args.push('-fill', 'rgba(0,0,0,0.55)', '-draw', `rectangle 0,${size.height - band} ${size.width},${size.height}`);
      args.push(
        '-gravity',
        'south',
        '-fill',
        'white',
        '-font',
        'DejaVu-Sans-Bold',
        '-pointsize',
        String(Math.round(size.width * 0.08)),
        '-annotate',
        `+0+${Math.round(band * 0.45)}`,
        book.cover.title,
      );
      if (book.cover.subtitle)
        args.push(
          '-font',
          'DejaVu-Sans',
          '-pointsize',
          String(Math.round(size.width * 0.044)),
          '-annotate',
          `+0+${Math.round(band * 0.15)}`,
          book.cover.subtitle,
        );
    }
    // As ours: JPEG quality 92, no chroma subsampling, 300 DPI.
    args.push('-quality', '92', '-sampling-factor', '1x1', '-density', String(A4.dpi), '-units', 'PixelsPerInch', out);
    return args;
  };

  const pagesDir = path.join(dir, 'magick-pages');
  await mkdir(pagesDir, { recursive: true });
  const outputs: string[] = [];
  let seconds = 0;
  let maxRssMb = 0;
  const command = magick.command === 'magick' ? ['magick'] : [magick.command];
  for (const page of [null, ...book.pages]) {
    const out = path.join(pagesDir, `${String(page?.number ?? 0).padStart(4, '0')}.jpg`);
    const m = measure(command[0], pageArgs(page, out), env);
    seconds += m.seconds;
    maxRssMb = Math.max(maxRssMb, m.maxRssMb);
    outputs.push(out);
  }

  // The PDF: ImageMagick reads all pages, then writes them (re-encoded as JPEG at the same quality).
  const pdfPath = path.join(dir, 'magick.pdf');
  const pdfArgs = [
    ...outputs,
    '-density',
    String(A4.dpi),
    '-units',
    'PixelsPerInch',
    '-compress',
    'jpeg',
    '-quality',
    '92',
    '-sampling-factor',
    '1x1',
    pdfPath,
  ];
  let pdf: Measured | null = null;
  let pdfNote = '';
  try {
    pdf = measure(command[0], pdfArgs, env);
  } catch (error) {
    if (!/security policy/.test(String(error))) throw error;
    // Debian's policy forbids the PDF coder, and a user policy cannot lift a system "none". As root,
    // lift it for this one command only: a private mount namespace where the system policy file is
    // replaced by a copy without that line. The system file is not changed.
    const systemPolicy = /Path: (\S+policy\.xml)/.exec(
      execFileSync(command[0], ['-list', 'policy'], { encoding: 'utf8' }),
    )?.[1];
    if (systemPolicy && process.getuid?.() === 0 && existsSync('/usr/bin/unshare')) {
      const copy = path.join(policyDir, 'system-policy-with-pdf.xml');
      await writeFile(
        copy,
        (await readFile(systemPolicy, 'utf8')).replace(
          /<policy domain="coder" rights="none" pattern="(?:PDF|\{[^"]*PDF[^"]*\})"\s*\/>/g,
          '',
        ),
      );
      pdf = measure(
        '/usr/bin/unshare',
        [
          '-m',
          'sh',
          '-c',
          'mount --bind "$1" "$2" && shift 2 && exec "$@"',
          'sh',
          copy,
          systemPolicy,
          '/usr/bin/time',
          '-v',
          command[0],
          ...pdfArgs,
        ],
        env,
      );
      pdfNote = ' (Debian policy forbids PDF: lifted for this command in a private mount namespace)';
    } else {
      pdfNote =
        "Debian's ImageMagick policy forbids writing PDF (run as root with unshare to lift it for the benchmark)";
    }
  }
  const pdfBytes = pdf ? (await readFile(pdfPath)).length : 0;
  return { version: magick.version, pages: { seconds, maxRssMb }, pdf, pdfNote, pdfBytes };
}

// ---------------------------------------------------------------------------------------------

/** Runs a command under GNU time: wall seconds, maximum resident set size, its stdout. */
function measure(command: string, args: string[], env: NodeJS.ProcessEnv = process.env): Measured {
  const timed = command === '/usr/bin/unshare' ? [command, ...args] : ['/usr/bin/time', '-v', command, ...args];
  const started = process.hrtime.bigint();
  const result = spawnSync(timed[0], timed.slice(1), { env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (result.status !== 0) {
    const output = result.stderr
      .split('\n')
      .filter((line) => !/^\s|^Command being timed/.test(line))
      .join('\n');
    throw new Error(`${command} failed (${result.status}): ${output.slice(-2000)}`);
  }
  const rssKb = Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(result.stderr)?.[1] ?? 0);
  return { seconds, maxRssMb: Math.round(rssKb / 1024), stdout: result.stdout };
}

function mb(bytes: number): string {
  return (bytes / 1e6).toFixed(1);
}

await main();

/** Appends each chunk to `file`, awaited, as a store's streamed write does. */
function fileWriter(file: string): (chunk: Buffer) => Promise<void> {
  return (chunk) => appendFile(file, chunk);
}

/** How many times each value occurs. */
function countBy(values: string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const value of values) counts[value] = (counts[value] ?? 0) + 1;
  return counts;
}
