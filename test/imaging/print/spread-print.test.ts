import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Book } from '../../../src/domain/book';
import { facesOnFold, printedPage, spreadKeepsFaces } from '../../../src/domain/book-spreads';
import { GUTTER_SAFE_MM, spreadSafeAreas } from '../../../src/domain/print-safe-area';
import { automaticCrop, cropRect } from '../../../src/domain/slot-crop';
import { writeBookPdf } from '../../../src/imaging/print/book-pdf';
import type { PrintFormat } from '../../../src/imaging/print/print-geometry';
import { renderPrintPage } from '../../../src/imaging/print/render-page';
import { setPageLayout } from '../../../src/services/editor/book-edits';
import { blankPage, placeOnLayout } from '../../../src/services/projects/book-builder';

/** A square layflat book at 100 DPI: 200 x 200 mm, 3 mm of bleed. */
const FORMAT: PrintFormat = { widthMm: 200, heightMm: 200, bleedMm: 3, dpi: 100 };
const px = (mm: number) => Math.round((mm / 25.4) * FORMAT.dpi);
const BLEED = px(3);
const TRIM = px(200);

let dir: string;
/** Interior pages 1 and 2 of the PDF: the spread's left and right page, as poppler draws them, raw RGB. */
let printed: { data: Buffer; width: number; height: number }[];
/** A landscape whose colour runs smoothly from left to right (red) and top to bottom (green): any jump shows. */
let photo: Buffer;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'spread-print-'));
  const [width, height] = [1800, 900];
  const pixels = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const at = (y * width + x) * 3;
      pixels[at] = Math.round((x / (width - 1)) * 255);
      pixels[at + 1] = Math.round((y / (height - 1)) * 255);
      pixels[at + 2] = 128;
    }
  photo = await sharp(pixels, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 95 })
    .toBuffer();

  const pages = [placeOnLayout('full', ['other']), placeOnLayout('full', ['wide']), blankPage(), blankPage()];
  const book = setPageLayout(
    {
      layoutType: 'smartbook',
      cover: { title: 'T', texts: [] },
      pages: pages.map((p, i) => ({ ...p, number: i + 1 })),
    },
    2,
    'spread',
    'layflat',
  );
  const jpegs: Buffer[] = [];
  for (const number of [2, 3]) {
    const rendered = await renderPrintPage({
      page: printedPage(book as Book, number),
      format: FORMAT,
      loadPhoto: async () => photo,
      colorCorrection: false,
    });
    jpegs.push(rendered.jpeg);
  }
  const chunks: Buffer[] = [];
  await writeBookPdf({
    write: async (chunk) => void chunks.push(chunk),
    format: FORMAT,
    pages: (async function* () {
      yield* jpegs;
    })(),
  });
  await writeFile(path.join(dir, 'interior.pdf'), Buffer.concat(chunks));
  execFileSync('pdftoppm', ['-r', String(FORMAT.dpi), '-png', 'interior.pdf', 'page'], { cwd: dir });
  printed = await Promise.all(
    ['page-1.png', 'page-2.png'].map(async (file) => {
      const { data, info } = await sharp(await readFile(path.join(dir, file)))
        .removeAlpha()
        .raw()
        .toBuffer({ resolveWithObject: true });
      return { data, width: info.width, height: info.height };
    }),
  );
}, 120_000);

afterAll(() => rm(dir, { recursive: true, force: true }));

/** The mean colour of column `x` of a printed page over the trim's height. */
function column(page: { data: Buffer; width: number; height: number }, x: number): number[] {
  const sums = [0, 0, 0];
  for (let y = BLEED; y < BLEED + TRIM; y++)
    for (let c = 0; c < 3; c++) sums[c] += page.data[(y * page.width + x) * 3 + c];
  return sums.map((sum) => sum / TRIM);
}

describe('a spread in the print file (layflat)', () => {
  it('each page is one full-bleed page of the PDF', () => {
    for (const page of printed) {
      // poppler rounds the page's points to whole pixels its own way: within one pixel.
      expect(Math.abs(page.width - px(206))).toBeLessThanOrEqual(1);
      expect(Math.abs(page.height - px(206))).toBeLessThanOrEqual(1);
    }
  });

  it('the left page holds the left half, the right page the right half, and the photo continues across the fold', () => {
    const [left, right] = printed;
    // The photo's red runs 0..255 over the opening: about 128 at the fold, on both sides of it.
    const leftOfFold = column(left, BLEED + TRIM - 1);
    const rightOfFold = column(right, BLEED);
    expect(leftOfFold[0]).toBeGreaterThan(110);
    expect(leftOfFold[0]).toBeLessThan(146);
    // One column apart in the photo: as close as two neighbouring columns inside one page.
    const step = Math.abs(column(left, BLEED + TRIM - 2)[0] - leftOfFold[0]);
    expect(Math.abs(rightOfFold[0] - leftOfFold[0])).toBeLessThanOrEqual(step + 3);
    expect(Math.abs(rightOfFold[1] - leftOfFold[1])).toBeLessThanOrEqual(3);
    // The halves are halves: the left page starts dark, the right page ends bright.
    expect(column(left, BLEED)[0]).toBeLessThan(20);
    expect(column(right, BLEED + TRIM - 1)[0]).toBeGreaterThan(235);
  });

  it("the bleed at the fold holds the other page's pixels; the outer bleed holds the photo, not paper", () => {
    const [left, right] = printed;
    // The left page's bleed past the fold is the right page's first millimetres, and the reverse.
    const half = Math.floor(BLEED / 2);
    expect(Math.abs(column(left, BLEED + TRIM + half)[0] - column(right, BLEED + half)[0])).toBeLessThanOrEqual(3);
    expect(Math.abs(column(right, BLEED - 1 - half)[0] - column(left, BLEED + TRIM - 1 - half)[0])).toBeLessThanOrEqual(
      3,
    );
    // Outer bleed: the photo's darkest red at the left page's outer edge, its brightest at the right page's.
    expect(column(left, 0)[0]).toBeLessThan(15);
    expect(column(right, right.width - 1)[0]).toBeGreaterThan(240);
    // Top bleed: the photo (green about 0), not white paper.
    const top = left.data.subarray(
      (0 * left.width + Math.floor(left.width / 2)) * 3,
      (0 * left.width + Math.floor(left.width / 2)) * 3 + 3,
    );
    expect([...top].some((v) => v < 200)).toBe(true);
  });
});

describe('a spread keeps faces out of the fold', () => {
  const slot = { x: 0, y: 0, width: 2, height: 1 };
  const trim = { widthMm: 200, heightMm: 200 };
  const slotMm = { width: 400, height: 200 };
  // A panorama (3:1), wider than the opening (2:1): its crop has room to move sideways.
  const photoSize = { width: 6000, height: 2000 };

  it('a face on the fold of the centred crop is moved wholly to one page, outside the fold band', () => {
    // A face at the middle of the photo: the centred crop would print it across the fold.
    const face = { x: 0.48, y: 0.4, width: 0.05, height: 0.1, score: 0.9 };
    const areas = spreadSafeAreas(slot, trim);
    expect(areas).toHaveLength(2);
    const rect = cropRect(photoSize, slotMm, automaticCrop(photoSize, slotMm, [face], areas));
    // Where the face lands on the opening, in mm from its left edge.
    const faceLeftMm = ((face.x - rect.left) / rect.width) * 400;
    const faceRightMm = ((face.x + face.width - rect.left) / rect.width) * 400;
    const clearOfFold = faceRightMm <= 200 - GUTTER_SAFE_MM || faceLeftMm >= 200 + GUTTER_SAFE_MM;
    expect(clearOfFold, `face at ${faceLeftMm}..${faceRightMm} mm`).toBe(true);
  });

  it('a photo as wide as the opening cannot move: spreadKeepsFaces says so, and the smartbook gives it a page instead', () => {
    const face = { x: 0.48, y: 0.4, width: 0.05, height: 0.1, score: 0.9 };
    expect(spreadKeepsFaces({ width: 4000, height: 2000 }, [face], trim)).toBe(false);
    expect(spreadKeepsFaces(photoSize, [face], trim)).toBe(true);
    expect(spreadKeepsFaces({ width: 4000, height: 2000 }, [{ ...face, x: 0.2 }], trim)).toBe(true);
    expect(spreadKeepsFaces({ width: 4000, height: 2000 }, null, trim)).toBe(true);
  });

  it("facesOnFold counts the faces a crop puts across the fold band, the customer's crop or the automatic one", () => {
    const wide = { width: 4000, height: 2000 };
    const centred = { x: 0.48, y: 0.4, width: 0.05, height: 0.1, score: 0.9 };
    const aside = { ...centred, x: 0.2 };
    // As wide as the opening: the automatic crop cannot move it off the fold.
    expect(facesOnFold(wide, [centred, aside], trim)).toBe(1);
    // A wider photo's automatic crop moves the face onto one page.
    expect(facesOnFold(photoSize, [centred], trim)).toBe(0);
    // The customer's crop puts it back on the fold, or out of the picture.
    const faceCentre = centred.x + centred.width / 2;
    expect(facesOnFold(photoSize, [centred], trim, { x: faceCentre, y: 0.5, zoom: 1 })).toBe(1);
    expect(facesOnFold(photoSize, [centred], trim, { x: 0.2, y: 0.5, zoom: 3 })).toBe(0);
    expect(facesOnFold(wide, null, trim)).toBe(0);
    expect(facesOnFold(wide, [], trim)).toBe(0);
  });

  it('a face already clear of the fold leaves the crop centred', () => {
    const face = { x: 0.2, y: 0.4, width: 0.05, height: 0.1, score: 0.9 };
    expect(automaticCrop(photoSize, slotMm, [face], spreadSafeAreas(slot, trim))).toEqual({ x: 0.5, y: 0.5, zoom: 1 });
  });
});
