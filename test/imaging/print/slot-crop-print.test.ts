import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { renderPrintPage } from '../../../src/imaging/print/render-page';
import { cropRect, type SlotCrop } from '../../../src/domain/slot-crop';
import type { BookPage, PageCaption, PhotoSlot } from '../../../src/domain/book';
import { A4, darkPixels } from './print-images';

/** A4 + 3 mm bleed at 300 DPI: the trim box starts 35 px in and is 2481 x 3509 px. */
const BLEED = 35;
const TRIM = { width: 2481, height: 3509 };
/** A landscape slot on a portrait page: a 3:2 photo of another shape must be cropped to fill it. */
const SLOT: Omit<PhotoSlot, 'photoId'> = { x: 0.06, y: 0.1, width: 0.88, height: 0.4 };
/** The marker: a red square off-centre in a light grey 3000 x 2000 photo. */
const PHOTO = { width: 3000, height: 2000 };
const MARKER = { left: 2100, top: 500, side: 300 };

let photo: Buffer;
const loadPhoto = async () => photo;

function page(slot: PhotoSlot, captions?: PageCaption[]): BookPage {
  return { number: 1, layout: 'full', photos: [slot], texts: [], ...(captions ? { captions } : {}) };
}

/** The bounding box of the red pixels of a rendered page. */
async function redBox(jpeg: Buffer) {
  const { data, info } = await sharp(jpeg).raw().toBuffer({ resolveWithObject: true });
  let [left, top, right, bottom] = [Infinity, Infinity, -1, -1];
  for (let y = 0; y < info.height; y++)
    for (let x = 0; x < info.width; x++) {
      const i = (y * info.width + x) * info.channels;
      if (data[i] > 200 && data[i + 1] < 60 && data[i + 2] < 60) {
        left = Math.min(left, x);
        right = Math.max(right, x);
        top = Math.min(top, y);
        bottom = Math.max(bottom, y);
      }
    }
  return { left, top, right, bottom };
}

/** Where the marker must land on the page, from the crop rectangle the editor draws with too. */
function expectedBox(crop?: SlotCrop) {
  const slotPx = {
    left: BLEED + Math.round(SLOT.x * TRIM.width),
    top: BLEED + Math.round(SLOT.y * TRIM.height),
    width: Math.round(SLOT.width * TRIM.width),
    height: Math.round(SLOT.height * TRIM.height),
  };
  const rect = cropRect(PHOTO, slotPx, crop);
  const scale = slotPx.width / (rect.width * PHOTO.width);
  const at = (photoX: number, photoY: number) => ({
    x: slotPx.left + (photoX - rect.left * PHOTO.width) * scale,
    y: slotPx.top + (photoY - rect.top * PHOTO.height) * scale,
  });
  const start = at(MARKER.left, MARKER.top);
  const end = at(MARKER.left + MARKER.side, MARKER.top + MARKER.side);
  return { left: start.x, top: start.y, right: end.x, bottom: end.y };
}

beforeAll(async () => {
  photo = await sharp({ create: { ...PHOTO, channels: 3, background: '#dddddd' } })
    .composite([
      {
        input: { create: { width: MARKER.side, height: MARKER.side, channels: 3, background: '#ff0000' } },
        left: MARKER.left,
        top: MARKER.top,
      },
    ])
    .jpeg({ quality: 95 })
    .toBuffer();
});

describe('print places a photo in its slot by the stored crop, as the editor draws it', () => {
  for (const [name, crop] of [
    ['the automatic crop (none stored)', undefined],
    ['a crop centred on the marker at zoom 2', { x: 0.75, y: 0.3, zoom: 2 }],
    ['a crop panned to the top edge at zoom 1.5', { x: 0.6, y: 0.2, zoom: 1.5 }],
  ] as const) {
    it(`puts the marker where cropRect says, within 3 px: ${name}`, async () => {
      const rendered = await renderPrintPage({
        page: page({ photoId: 'marker', ...SLOT, ...(crop ? { crop } : {}) }),
        format: A4,
        loadPhoto,
        colorCorrection: false,
      });
      const found = await redBox(rendered.jpeg);
      const expected = expectedBox(crop);
      for (const side of ['left', 'top', 'right', 'bottom'] as const)
        expect(Math.abs(found[side] - expected[side]), `${side}: ${found[side]} vs ${expected[side]}`).toBeLessThan(4);
    });
  }

  it('counts the zoom in the effective DPI it reports', async () => {
    const render = (crop?: SlotCrop) =>
      renderPrintPage({
        page: page({ photoId: 'marker', ...SLOT, ...(crop ? { crop } : {}) }),
        format: A4,
        loadPhoto,
        colorCorrection: false,
      });
    const [plain, zoomed] = await Promise.all([render(), render({ x: 0.5, y: 0.5, zoom: 2 })]);
    expect(zoomed.placements[0].effectiveDpi).toBeCloseTo(plain.placements[0].effectiveDpi / 2, 6);
  });
});

describe('print sets the captions of a page', () => {
  it('draws a caption inside its box, at its size, and nothing where there is no caption', async () => {
    const caption: PageCaption = { text: 'At the lake, summer', font: 'Lora', sizePt: 24, x: 0.1, y: 0.7, width: 0.8 };
    const rendered = await renderPrintPage({
      page: page({ photoId: 'marker', ...SLOT }, [caption]),
      format: A4,
      loadPhoto,
      colorCorrection: false,
    });
    // 24 pt at 300 DPI is 100 px: one line within about 1.25 em of the box's top.
    const box = {
      left: BLEED + Math.round(caption.x * TRIM.width),
      top: BLEED + Math.round(caption.y * TRIM.height),
      width: Math.round(caption.width * TRIM.width),
      height: 130,
    };
    expect(await darkPixels(rendered.jpeg, box)).toBeGreaterThan(1500);
    expect(await darkPixels(rendered.jpeg, { ...box, top: box.top + 200 })).toBe(0);
    expect(await darkPixels(rendered.jpeg, { ...box, top: box.top - 200, height: 190 })).toBe(0);
    // The text starts at the box's left edge: nothing dark left of it.
    expect(
      await darkPixels(rendered.jpeg, { left: BLEED, top: box.top, width: box.left - BLEED - 2, height: 130 }),
    ).toBe(0);
  });

  it('wraps a long caption to the width of its box', async () => {
    const caption: PageCaption = {
      text: 'A long caption that cannot fit on one line of a narrow box and wraps',
      font: 'Source Sans 3',
      sizePt: 20,
      x: 0.1,
      y: 0.6,
      width: 0.3,
    };
    const rendered = await renderPrintPage({
      page: page({ photoId: 'marker', ...SLOT }, [caption]),
      format: A4,
      loadPhoto,
      colorCorrection: false,
    });
    const right = BLEED + Math.round((caption.x + caption.width) * TRIM.width);
    expect(await darkPixels(rendered.jpeg, { left: right + 4, top: 2000, width: 2500 - right, height: 1400 })).toBe(0);
    // Several lines: dark pixels well below the first line.
    const top = BLEED + Math.round(caption.y * TRIM.height);
    expect(
      await darkPixels(rendered.jpeg, { left: BLEED + 200, top: top + 200, width: 700, height: 300 }),
    ).toBeGreaterThan(500);
  });
});
