/**
 * Run by fonts.test.ts in a process of its own (fontconfig reads its configuration once a process):
 * draws every kind of text the service prints or previews, and prints, as one JSON line, each
 * result's sha256 and how many of its pixels differ from the same render without the text.
 * `--raw` draws one SVG text without loading the project's modules (the control: what the host's
 * fontconfig alone gives).
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const sha = (data: Buffer) => createHash('sha256').update(data).digest('hex');

/** Pixels (any channel) that differ by more than 48 between two renders of one size. */
async function inkBetween(a: Buffer, b: Buffer): Promise<number> {
  const [x, y] = await Promise.all([a, b].map((i) => sharp(i).removeAlpha().raw().toBuffer()));
  let ink = 0;
  for (let i = 0; i < x.length; i += 3) {
    if (Math.max(Math.abs(x[i] - y[i]), Math.abs(x[i + 1] - y[i + 1]), Math.abs(x[i + 2] - y[i + 2])) > 48) ink++;
  }
  return ink;
}

const SAMPLE = 'Summer in Portugal · Été à Nazaré · Straße';

async function raw(): Promise<Record<string, { sha256: string; ink: number }>> {
  const svg = (text: string) =>
    Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg" width="900" height="80"><rect width="900" height="80" fill="#fff"/>` +
        `<text x="10" y="55" font-family="sans-serif" font-size="40">${text}</text></svg>`,
    );
  const [withText, without] = await Promise.all([svg(SAMPLE), svg('')].map((s) => sharp(s).png().toBuffer()));
  return { svg: { sha256: sha(withText), ink: await inkBetween(withText, without) } };
}

async function project(): Promise<Record<string, { sha256: string; ink: number }>> {
  const { renderCoverPreview } = await import('../../src/imaging/cover-preview');
  const { renderPrintPage } = await import('../../src/imaging/print/render-page');
  const { renderPrintCoverSheet } = await import('../../src/imaging/print/cover-sheet');
  const { coverGeometry } = await import('../../src/imaging/print/cover-geometry');
  const demo = JSON.parse(await readFile(path.join(ROOT, 'catalogue/demo.json'), 'utf8'));
  const { format, production } = demo.products.find((p: { sku: string }) => p.sku === 'PB-HC-A4-L').specifications;
  const small = { ...format, dpi: 100 };
  const loadPhoto = () => Promise.reject(new Error('no photo in this book'));
  const out: Record<string, { sha256: string; ink: number }> = {};

  const preview = (title: string, subtitle: string) =>
    renderCoverPreview({ widthPx: 800, heightPx: 600, title, subtitle });
  const previewWith = await preview(SAMPLE, 'Unsere Reise, 2026');
  out.coverPreview = { sha256: sha(previewWith), ink: await inkBetween(previewWith, await preview('', '')) };

  const page = (text: string) =>
    renderPrintPage({
      page: { number: 1, layout: 'blank', photos: [], texts: text ? [{ assetId: 'dedication', text }] : [] },
      format: small,
      loadPhoto,
      colorCorrection: false,
    });
  const pageWith = (await page(`For Ana. ${SAMPLE}`)).jpeg;
  out.pageText = { sha256: sha(pageWith), ink: await inkBetween(pageWith, (await page('')).jpeg) };

  const geometry = coverGeometry(small, production, 120);
  const sheet = (title: string, spine: string, back: string) =>
    renderPrintCoverSheet({
      cover: {
        title,
        subtitle: title ? 'Unsere Reise' : '',
        texts: [
          { assetId: 'spine', text: spine },
          { assetId: 'backCover', text: back },
        ],
      },
      geometry,
      format: small,
      loadPhoto,
      colorCorrection: false,
    });
  const sheetWith = (await sheet(SAMPLE, 'Portugal 2026', `Printed for the family. ${SAMPLE}`)).jpeg;
  out.coverSheet = { sha256: sha(sheetWith), ink: await inkBetween(sheetWith, (await sheet('', ' ', '')).jpeg) };

  // A family the host may have: the project's configuration has only its own, so this draws in Source Sans 3.
  const named = (family: string) =>
    sharp(
      Buffer.from(
        `<svg xmlns="http://www.w3.org/2000/svg" width="900" height="80"><rect width="900" height="80" fill="#fff"/>` +
          `<text x="10" y="55" font-family="${family}" font-size="40">${SAMPLE}</text></svg>`,
      ),
    )
      .png()
      .toBuffer();
  out.dejaVuSans = { sha256: sha(await named('DejaVu Sans')), ink: 0 };
  out.sourceSans3 = { sha256: sha(await named('Source Sans 3')), ink: 0 };
  return out;
}

const result = process.argv.includes('--raw') ? await raw() : await project();
process.stdout.write(`${JSON.stringify({ fontconfigFile: process.env.FONTCONFIG_FILE, result })}\n`);
