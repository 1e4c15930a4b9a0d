import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { NotAnImageError } from '../../../src/imaging/errors';
import { renderPrintPage } from '../../../src/imaging/print/render-page';
import type { BookPage, PhotoSlot } from '../../../src/domain/book';
import { A4, darkPixels, neutralPhoto, regionMeans, sampleAt, solidJpeg, spread } from './print-images';

const RED = [255, 0, 0];
const BLUE = [0, 0, 255];
const WHITE = [255, 255, 255];
/** The book builder's two-side-by-side layout: 6% margins, 3% gutter. */
const LEFT: Omit<PhotoSlot, 'photoId'> = { x: 0.06, y: 0.06, width: 0.425, height: 0.88 };
const RIGHT: Omit<PhotoSlot, 'photoId'> = { x: 0.515, y: 0.06, width: 0.425, height: 0.88 };
const FULL: Omit<PhotoSlot, 'photoId'> = { x: 0.06, y: 0.06, width: 0.88, height: 0.88 };
/** A4 + 3 mm bleed at 300 DPI: the trim box starts 35 px in and is 2481 x 3509 px. */
const BLEED = 35;
const TRIM = { width: 2481, height: 3509 };

const photos = new Map<string, Buffer>();
const loadPhoto = async (id: string) => {
  const photo = photos.get(id);
  if (!photo) throw new Error(`no photo ${id}`);
  return photo;
};

function page(layout: BookPage['layout'], slots: PhotoSlot[], texts: string[] = []): BookPage {
  return { number: 1, layout, photos: slots, texts: texts.map((text) => ({ assetId: 'dedication', text })) };
}

/** Centre of a slot on the rendered page, in pixels. */
function centreOf(slot: Omit<PhotoSlot, 'photoId'>): [number, number] {
  return [BLEED + (slot.x + slot.width / 2) * TRIM.width, BLEED + (slot.y + slot.height / 2) * TRIM.height];
}

beforeAll(async () => {
  photos.set('red', await solidJpeg(2000, 3000, '#ff0000'));
  photos.set('blue', await solidJpeg(2000, 3000, '#0000ff'));
  photos.set('green', await solidJpeg(3000, 4000, '#00c000'));
  photos.set('tiny', await solidJpeg(300, 200, '#ff0000'));
  // Stored 400 x 300, left half red, right half blue, EXIF orientation 6: upright, red on top.
  photos.set(
    'sideways',
    await sharp({ create: { width: 400, height: 300, channels: 3, background: '#0000ff' } })
      .composite([
        { input: { create: { width: 200, height: 300, channels: 3, background: '#ff0000' } }, left: 0, top: 0 },
      ])
      .withMetadata({ orientation: 6 })
      .jpeg()
      .toBuffer(),
  );
  const neutral = await neutralPhoto(1600, 2400);
  photos.set('blue-cast', await sharp(neutral).linear([0.6, 0.68, 0.95], [5, 5, 60]).jpeg({ quality: 95 }).toBuffer());
  photos.set('broken', Buffer.from('this is not an image'));
});

describe('renderPrintPage', () => {
  it('renders an A4 two-side-by-side page at 2551 x 3579 px, 300 DPI, with each photo in its slot', async () => {
    const rendered = await renderPrintPage({
      page: page('two-side-by-side', [
        { photoId: 'red', ...LEFT },
        { photoId: 'blue', ...RIGHT },
      ]),
      format: A4,
      loadPhoto,
      colorCorrection: false,
    });
    expect([rendered.widthPx, rendered.heightPx]).toEqual([2551, 3579]);
    const meta = await sharp(rendered.jpeg).metadata();
    expect(meta).toMatchObject({ format: 'jpeg', width: 2551, height: 3579, density: 300, chromaSubsampling: '4:4:4' });
    expect(meta.icc).toBeDefined(); // tagged sRGB for the printer's colour management

    const [lx, ly] = centreOf(LEFT);
    const [rx, ry] = centreOf(RIGHT);
    expect(await sampleAt(rendered.jpeg, lx, ly)).toBeNear(RED);
    expect(await sampleAt(rendered.jpeg, rx, ry)).toBeNear(BLUE);
    // Each photo fills its slot to the edges (cropped to fill), and stops there.
    const leftPx = BLEED + LEFT.x * TRIM.width;
    const rightEdgePx = BLEED + (LEFT.x + LEFT.width) * TRIM.width;
    expect(await sampleAt(rendered.jpeg, leftPx + 8, ly, 8)).toBeNear(RED);
    expect(await sampleAt(rendered.jpeg, rightEdgePx - 8, BLEED + LEFT.y * TRIM.height + 8, 8)).toBeNear(RED);
    expect(await sampleAt(rendered.jpeg, leftPx - 12, ly, 8)).toBeNear(WHITE);
    // Margins, gutter and bleed stay white.
    expect(await sampleAt(rendered.jpeg, BLEED + 0.03 * TRIM.width, ly)).toBeNear(WHITE);
    expect(await sampleAt(rendered.jpeg, BLEED + 0.5 * TRIM.width, ly)).toBeNear(WHITE);
    expect(await sampleAt(rendered.jpeg, lx, BLEED + 0.03 * TRIM.height)).toBeNear(WHITE);
    expect(await sampleAt(rendered.jpeg, 10, 10)).toBeNear(WHITE);

    // 2000 x 3000 px over 1054 x 3088 px at 300 DPI: the height limits, 291 px per inch.
    expect(rendered.placements.map((p) => p.photoId)).toEqual(['red', 'blue']);
    expect(rendered.placements[0].effectiveDpi).toBeCloseTo(3000 / (3088 / 300), 3);
    expect(rendered.placements[0].warning).toBeUndefined();
  });

  it('turns a photo upright by its EXIF orientation, and warns that 300 px across a page is too few', async () => {
    const rendered = await renderPrintPage({
      page: page('full', [{ photoId: 'sideways', ...FULL }]),
      format: A4,
      loadPhoto,
      colorCorrection: false,
    });
    const [x] = centreOf(FULL);
    const top = BLEED + (FULL.y + FULL.height * 0.2) * TRIM.height;
    const bottom = BLEED + (FULL.y + FULL.height * 0.8) * TRIM.height;
    expect(await sampleAt(rendered.jpeg, x, top)).toBeNear(RED);
    expect(await sampleAt(rendered.jpeg, x, bottom)).toBeNear(BLUE);
    const [placement] = rendered.placements;
    // Upright 300 x 400 px over 184.8 x 261.4 mm: min(300 / 7.28 in, 400 / 10.29 in) = 39 DPI.
    expect(Math.round(placement.effectiveDpi)).toBe(39);
    expect(placement.warning).toMatch(/^low resolution/);
  });

  it('runs a slot that reaches past the trim box into the bleed and clips it at the page edge', async () => {
    const rendered = await renderPrintPage({
      page: page('full', [{ photoId: 'green', x: -0.02, y: -0.02, width: 1.04, height: 1.04 }]),
      format: A4,
      loadPhoto,
      colorCorrection: false,
    });
    for (const [x, y] of [
      [4, 4],
      [2546, 4],
      [4, 3574],
      [2546, 3574],
    ])
      expect(await sampleAt(rendered.jpeg, x, y, 6)).toBeNear([0, 192, 0]);
  });

  it('colour-corrects the photos only when asked', async () => {
    const slot = page('full', [{ photoId: 'blue-cast', ...FULL }]);
    const inner = { left: 400, top: 400, width: 1700, height: 2700 };
    const plain = await renderPrintPage({ page: slot, format: A4, loadPhoto, colorCorrection: false });
    const corrected = await renderPrintPage({ page: slot, format: A4, loadPhoto, colorCorrection: true });
    const before = spread(await regionMeans(plain.jpeg, inner));
    const after = spread(await regionMeans(corrected.jpeg, inner));
    expect(before).toBeGreaterThan(60);
    expect(after).toBeLessThan(before * 0.5);
  });

  it('sets a dedication on a blank page, centred, XML special characters and all', async () => {
    const rendered = await renderPrintPage({
      page: page('blank', [], ['For Ada & Charles <3, "always"']),
      format: A4,
      loadPhoto,
      colorCorrection: false,
    });
    const middle = { left: BLEED, top: 1500, width: TRIM.width, height: 580 };
    expect(await darkPixels(rendered.jpeg, middle)).toBeGreaterThan(500);
    expect(await darkPixels(rendered.jpeg, { left: 0, top: 0, width: 2551, height: 1400 })).toBe(0);
    expect(rendered.placements).toEqual([]);
  });

  it('sets a dedication in the margin below the photo, not over it', async () => {
    const slots = [{ photoId: 'green', ...FULL }];
    const bottomMargin = {
      left: BLEED,
      top: Math.ceil(BLEED + (FULL.y + FULL.height) * TRIM.height) + 2,
      width: TRIM.width,
      height: 200,
    };
    const withText = await renderPrintPage({
      page: page('full', slots, ['For Ada']),
      format: A4,
      loadPhoto,
      colorCorrection: false,
    });
    const without = await renderPrintPage({ page: page('full', slots), format: A4, loadPhoto, colorCorrection: false });
    expect(await darkPixels(without.jpeg, bottomMargin)).toBe(0);
    expect(await darkPixels(withText.jpeg, bottomMargin)).toBeGreaterThan(200);
    const photoArea = { left: 400, top: 400, width: 1700, height: 2700 };
    expect(await darkPixels(withText.jpeg, photoArea, 100)).toBe(0);
  });

  it('wraps a long dedication inside the page', async () => {
    const long =
      'A very long dedication that could never fit on a single line of an A4 page at fourteen points, so it wraps. '.repeat(
        3,
      );
    const rendered = await renderPrintPage({
      page: page('blank', [], [long]),
      format: A4,
      loadPhoto,
      colorCorrection: false,
    });
    // Nothing within 4 mm of the trim edge (47 px) on either side, plenty of text in between.
    expect(await darkPixels(rendered.jpeg, { left: 0, top: 0, width: BLEED + 40, height: 3579 })).toBe(0);
    expect(await darkPixels(rendered.jpeg, { left: 2551 - BLEED - 40, top: 0, width: BLEED + 40, height: 3579 })).toBe(
      0,
    );
    expect(
      await darkPixels(rendered.jpeg, { left: BLEED, top: 1200, width: TRIM.width, height: 1200 }),
    ).toBeGreaterThan(3000);
  });

  it('uses the page colour given, and refuses one that is not a colour', async () => {
    const rendered = await renderPrintPage({
      page: page('blank', []),
      format: A4,
      loadPhoto,
      colorCorrection: false,
      background: '#ffeedd',
    });
    expect(await sampleAt(rendered.jpeg, 1275, 1789)).toBeNear([255, 238, 221], 3);
    await expect(
      renderPrintPage({ page: page('blank', []), format: A4, loadPhoto, colorCorrection: false, background: 'red;' }),
    ).rejects.toThrow(RangeError);
  });

  it('fails on a photo that is not an image', async () => {
    await expect(
      renderPrintPage({
        page: page('full', [{ photoId: 'broken', ...FULL }]),
        format: A4,
        loadPhoto,
        colorCorrection: false,
      }),
    ).rejects.toBeInstanceOf(NotAnImageError);
  });
});

interface NearMatchers<R = unknown> {
  toBeNear(expected: number[], tolerance?: number): R;
}
declare module 'vitest' {
  interface Matchers<T = any> extends NearMatchers<T> {}
}
expect.extend({
  toBeNear(received: number[], expected: number[], tolerance = 12) {
    const pass =
      received.length === expected.length && received.every((v, i) => Math.abs(v - expected[i]) <= tolerance);
    return {
      pass,
      message: () =>
        `expected [${received.map((v) => v.toFixed(1))}] ${pass ? 'not ' : ''}to be within ${tolerance} of [${expected}]`,
    };
  },
});
