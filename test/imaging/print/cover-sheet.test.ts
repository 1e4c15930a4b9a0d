import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import type { BookCover } from '../../../src/domain/book';
import type { ProductProduction } from '../../../src/domain/print-production';
import { boxPixels, coverGeometry, coverSheetFormat } from '../../../src/imaging/print/cover-geometry';
import { coverTextCuts, renderPrintCoverSheet } from '../../../src/imaging/print/cover-sheet';
import { pagePixels, type PrintFormat } from '../../../src/imaging/print/print-geometry';
import { parseCatalogueFile, type CatalogueFile } from '../../../src/services/catalogue/catalogue-file';
import { ValidationError } from '../../../src/domain/errors';
import { lightPixels, near, neutralPhoto, regionMeans, solidJpeg } from './print-images';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const SLATE = [0x2f, 0x3b, 0x48];
const GREEN = [0, 192, 0];

let demo: CatalogueFile;
const productOf = (sku: string) => demo.products.find((p) => p.sku === sku)!;
const photos = new Map<string, Buffer>();
const loadPhoto = async (id: string) => photos.get(id)!;

beforeAll(async () => {
  demo = JSON.parse(await readFile(path.join(ROOT, 'catalogue/demo.json'), 'utf8')) as CatalogueFile;
  photos.set('green', await solidJpeg(4000, 3000, '#00c000'));
  photos.set('scene', await neutralPhoto(3000, 2000));
});

describe('cover geometry from the demo catalogue', () => {
  it('has a hardcover, a softcover and a layflat product, each with its production data', () => {
    const bindings = new Set(demo.products.map((p) => p.specifications.production.binding));
    expect([...bindings].sort()).toEqual(['hardcover', 'layflat', 'softcover']);
  });

  it.each([
    ['PB-HC-A4-P', 'hardcover'],
    ['PB-SC-A5-P', 'softcover'],
    ['PB-LF-30-S', 'layflat'],
  ])('%s (%s): the spine and the sheet grow by one leaf thickness for every two pages', (sku, binding) => {
    const { format, production, min, max } = productOf(sku).specifications;
    expect(production.binding).toBe(binding);
    const thinnest = coverGeometry(format, production, min.pages);
    const thicker = coverGeometry(format, production, min.pages + 2);
    const thickest = coverGeometry(format, production, max.pages);
    expect(thicker.spineWidthMm - thinnest.spineWidthMm).toBeCloseTo(production.leafThicknessMm, 6);
    expect(thicker.widthMm - thinnest.widthMm).toBeCloseTo(production.leafThicknessMm, 6);
    expect(thickest.spineWidthMm).toBeCloseTo(
      (max.pages / 2) * production.leafThicknessMm + 2 * production.boardThicknessMm,
      6,
    );
    // Height does not depend on the page count.
    expect(thickest.heightMm).toBe(thinnest.heightMm);
    for (const g of [thinnest, thickest]) {
      // back | hinge | spine | hinge | front, wrap and bleed all round
      expect(g.widthMm).toBeCloseTo(2 * (g.bleedMm + g.wrapMm + format.widthMm + g.hingeMm) + g.spineWidthMm, 6);
      expect(g.heightMm).toBeCloseTo(2 * (g.bleedMm + g.wrapMm) + format.heightMm, 6);
      expect(g.spine.xMm).toBeCloseTo(g.back.xMm + g.back.widthMm + g.hingeMm, 6);
      expect(g.front.xMm).toBeCloseTo(g.spine.xMm + g.spine.widthMm + g.hingeMm, 6);
      expect(g.front.xMm + g.front.widthMm + g.wrapMm + g.bleedMm).toBeCloseTo(g.widthMm, 6);
      expect(g.widthPt).toBeCloseTo((g.widthMm / 25.4) * 72, 1);
    }
    if (binding === 'softcover') expect([thinnest.wrapMm, thinnest.hingeMm]).toEqual([0, 0]);
    else expect(thinnest.wrapMm).toBeGreaterThan(10);
  });

  it('A4 hardcover, 24 pages: a 6.8 mm spine on a 478.8 x 333 mm sheet', () => {
    const { format, production } = productOf('PB-HC-A4-P').specifications;
    const g = coverGeometry(format, production, 24);
    expect([g.spineWidthMm, g.widthMm, g.heightMm]).toEqual([6.8, 478.8, 333]);
    expect(g.back).toMatchObject({ xMm: 18, yMm: 18, widthMm: 210, heightMm: 297 });
    expect(g.spine).toMatchObject({ xMm: 236, widthMm: 6.8 });
    expect(g.front).toMatchObject({ xMm: 250.8, widthMm: 210 });
    expect(g.trim).toMatchObject({ xMm: 3, yMm: 3, widthMm: 472.8, heightMm: 327 });
    expect(g.spineText).toBe(false); // below spineTextMinPages (32)
    expect(coverGeometry(format, production, 32).spineText).toBe(true);
  });
});

describe('catalogue import of production data', () => {
  const withProduction = (production: Partial<ProductProduction> | undefined) => {
    const file = structuredClone(demo);
    const specifications = file.products[0].specifications as unknown as Record<string, unknown>;
    if (production === undefined) delete specifications.production;
    else specifications.production = { ...(specifications.production as object), ...production };
    return file;
  };
  const problemsOf = (file: unknown) => {
    try {
      parseCatalogueFile(file);
      return [];
    } catch (error) {
      expect(error).toBeInstanceOf(ValidationError);
      return (error as ValidationError).errors;
    }
  };

  it('accepts the demo catalogue', () => {
    expect(problemsOf(demo)).toEqual([]);
  });

  it('names the field of missing, unknown or impossible production data', () => {
    expect(problemsOf(withProduction(undefined))).toContainEqual({
      path: 'products[0].specifications.production',
      message: 'is required',
    });
    expect(problemsOf(withProduction({ binding: 'spiral' as never })).map((e) => e.path)).toContain(
      'products[0].specifications.production.binding',
    );
    expect(problemsOf(withProduction({ leafThicknessMm: 0 })).map((e) => e.path)).toContain(
      'products[0].specifications.production.leafThicknessMm',
    );
    expect(problemsOf(withProduction({ wrapMm: 2 }))).toContainEqual({
      path: 'products[0].specifications.production.wrapMm',
      message: 'must be at least 5 mm to turn in over the boards of a hardcover binding',
    });
    expect(problemsOf(withProduction({ binding: 'softcover', boardThicknessMm: 0.3 }))).toEqual([
      {
        path: 'products[0].specifications.production.wrapMm',
        message: 'must be 0 for a softcover: its sheet does not turn in',
      },
      { path: 'products[0].specifications.production.hingeMm', message: 'must be 0 for a softcover: it has no hinge' },
    ]);
  });
});

describe('renderPrintCoverSheet', () => {
  const SQUARE: PrintFormat = { widthMm: 150, heightMm: 150, bleedMm: 3, dpi: 150 };
  const cover = (over: Partial<BookCover> = {}): BookCover => ({
    title: 'Summer',
    photoId: 'green',
    texts: [
      { assetId: 'spine', text: 'Summer 2024' },
      { assetId: 'backCover', text: 'Two weeks by the sea.' },
    ],
    ...over,
  });

  it('is one sheet of the computed size: photo to the front edges, colour elsewhere, spine text inside the spine', async () => {
    const production = productOf('PB-HC-15-S').specifications.production;
    const geometry = coverGeometry(SQUARE, production, 40);
    const rendered = await renderPrintCoverSheet({
      cover: cover(),
      geometry,
      format: SQUARE,
      loadPhoto,
      colorCorrection: false,
    });
    const expected = pagePixels(coverSheetFormat(geometry, SQUARE.dpi));
    expect([rendered.widthPx, rendered.heightPx]).toEqual([expected.width, expected.height]);
    expect(Math.abs(rendered.widthPx - (geometry.widthMm / 25.4) * SQUARE.dpi)).toBeLessThanOrEqual(1);
    expect((await sharp(rendered.jpeg).metadata()).density).toBe(SQUARE.dpi);

    const { jpeg } = rendered;
    const spine = boxPixels(geometry.spine, SQUARE.dpi);
    const back = boxPixels(geometry.back, SQUARE.dpi);
    const front = boxPixels(geometry.front, SQUARE.dpi);
    // The photo reaches the sheet's right, top and bottom edges (wrap and bleed): no white edge.
    for (const region of [
      { left: rendered.widthPx - 4, top: 0, width: 4, height: 4 },
      { left: rendered.widthPx - 4, top: rendered.heightPx - 4, width: 4, height: 4 },
      { left: front.left, top: 0, width: 4, height: 4 },
    ]) {
      expect(near(await regionMeans(jpeg, region), GREEN), JSON.stringify(region)).toBe(true);
    }
    // The back's wrap and bleed in the cover colour.
    expect(near(await regionMeans(jpeg, { left: 0, top: 0, width: 4, height: 4 }), SLATE)).toBe(true);
    // The spine text: white pixels inside the spine panel, none in the hinges beside it.
    expect(await lightPixels(jpeg, spine)).toBeGreaterThan(50);
    const backHinge = {
      left: back.left + back.width,
      top: spine.top,
      width: spine.left - (back.left + back.width),
      height: spine.height,
    };
    expect(await lightPixels(jpeg, backHinge)).toBe(0);
    // The back-cover text inside the back panel, nothing in the back's wrap.
    expect(await lightPixels(jpeg, back)).toBeGreaterThan(50);
    expect(await lightPixels(jpeg, { left: 0, top: 0, width: back.left, height: rendered.heightPx })).toBe(0);
    expect(rendered.placements).toEqual([expect.objectContaining({ photoId: 'green' })]);
  });

  it('leaves a thin spine blank, as binderies ask', async () => {
    const production = productOf('PB-HC-15-S').specifications.production;
    const geometry = coverGeometry(SQUARE, production, 24);
    expect(geometry.spineText).toBe(false);
    const rendered = await renderPrintCoverSheet({
      cover: cover(),
      geometry,
      format: SQUARE,
      loadPhoto,
      colorCorrection: false,
    });
    expect(await lightPixels(rendered.jpeg, boxPixels(geometry.spine, SQUARE.dpi))).toBe(0);
  });

  it('keeps every cover text 4 mm inside the trim and 1.6 mm from the spine folds, however long', async () => {
    const { format, production } = productOf('PB-HC-A4-P').specifications;
    const small = { ...format, dpi: 150 };
    const geometry = coverGeometry(small, production, 120);
    expect(geometry.spineText).toBe(true);
    const long = 'W'.repeat(300);
    const rendered = await renderPrintCoverSheet({
      cover: cover({
        photoId: undefined,
        title: long,
        subtitle: long,
        texts: [
          { assetId: 'spine', text: long },
          { assetId: 'backCover', text: `${long} ${long}` },
        ],
      }),
      geometry,
      format: small,
      loadPhoto,
      colorCorrection: false,
    });
    const safe = Math.round((4 / 25.4) * small.dpi);
    const fold = Math.round((1.6 / 25.4) * small.dpi);
    const strips = (box: { left: number; top: number; width: number; height: number }, margin: number) => [
      { left: box.left, top: box.top, width: margin, height: box.height },
      { left: box.left + box.width - margin, top: box.top, width: margin, height: box.height },
      { left: box.left, top: box.top + box.height - margin, width: box.width, height: margin },
      { left: box.left, top: box.top, width: box.width, height: margin },
    ];
    const front = boxPixels(geometry.front, small.dpi);
    const back = boxPixels(geometry.back, small.dpi);
    const spine = boxPixels(geometry.spine, small.dpi);
    // The texts are white on the dark cover colour: a light pixel is a glyph.
    expect(await lightPixels(rendered.jpeg, front)).toBeGreaterThan(1000);
    expect(await lightPixels(rendered.jpeg, spine)).toBeGreaterThan(100);
    for (const strip of [...strips(front, safe), ...strips(back, safe), ...strips(spine, fold).slice(0, 2)])
      expect(await lightPixels(rendered.jpeg, strip, 128), JSON.stringify(strip)).toBe(0);
    // The spine's ends: 4 mm from the trim.
    for (const strip of strips(spine, safe).slice(2)) expect(await lightPixels(rendered.jpeg, strip, 128)).toBe(0);
  });

  it('reports the cover texts the sheet would cut', async () => {
    const { format, production } = productOf('PB-SC-A5-P').specifications;
    const geometry = coverGeometry(format, production, 80);
    expect(await coverTextCuts(cover(), geometry, format.dpi)).toEqual([]);
    const long = 'A very long title about a whole summer spent travelling along the coast of Portugal';
    const cuts = await coverTextCuts(
      cover({ title: long, texts: [{ assetId: 'spine', text: `${long} and back again, twice over; ${long}` }] }),
      geometry,
      format.dpi,
    );
    expect(cuts.map((c) => c.assetId)).toEqual(['title', 'spine']);
  });

  it('renders the spread shown in docs/architecture.md from the demo catalogue (docs/screenshots/cover-spread.png)', async () => {
    const { format, production } = productOf('PB-HC-A4-L').specifications;
    const screen: PrintFormat = { ...format, dpi: 60 };
    const geometry = coverGeometry(screen, production, 48);
    const rendered = await renderPrintCoverSheet({
      cover: {
        title: 'Summer in Provence',
        subtitle: 'June 2024',
        photoId: 'scene',
        texts: [
          { assetId: 'spine', text: 'Summer in Provence · 2024' },
          { assetId: 'backCover', text: 'Lavender fields, markets and long evenings: two weeks we will not forget.' },
        ],
      },
      geometry,
      format: screen,
      loadPhoto,
      colorCorrection: false,
    });
    // Guides an operator reads the sheet by: the trim (cyan) and the panels' edges (magenta).
    const px = (mm: number) => (mm / 25.4) * screen.dpi;
    const rect = (b: { xMm: number; yMm: number; widthMm: number; heightMm: number }, colour: string) =>
      `<rect x="${px(b.xMm)}" y="${px(b.yMm)}" width="${px(b.widthMm)}" height="${px(b.heightMm)}" fill="none" stroke="${colour}" stroke-width="1" stroke-dasharray="4 3"/>`;
    const guides = `<svg xmlns="http://www.w3.org/2000/svg" width="${rendered.widthPx}" height="${rendered.heightPx}">${rect(geometry.trim, '#00e5ff')}${[geometry.back, geometry.spine, geometry.front].map((b) => rect(b, '#ff00c8')).join('')}</svg>`;
    await sharp(rendered.jpeg)
      .composite([{ input: Buffer.from(guides) }])
      .png()
      .toFile(path.join(ROOT, 'docs/screenshots/cover-spread.png'));
    expect(rendered.widthPx).toBeGreaterThan(rendered.heightPx * 2);
  });
});
