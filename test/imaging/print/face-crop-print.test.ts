import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import type { BookPage, PhotoSlot } from '../../../src/domain/book';
import type { FaceBox } from '../../../src/domain/face-box';
import { GUTTER_SAFE_MM, pageSide, SAFE_MARGIN_MM, slotSafeArea } from '../../../src/domain/print-safe-area';
import { automaticCrop, cropRect } from '../../../src/domain/slot-crop';
import { detectFaces } from '../../../src/imaging/faces/face-detector';
import { pagePixels, trimPixels, type PrintFormat } from '../../../src/imaging/print/print-geometry';
import { renderPrintPage } from '../../../src/imaging/print/render-page';
import { makeThumbnail } from '../../../src/imaging/thumbnail';
import { faceOnLandscape, type PixelBox } from '../../support/face-photos';

/**
 * A real face (face-api's demo photo sample1.jpg, MIT, test/support/face-photos.ts) placed by sharp
 * near the right edge of a wide landscape, printed in a portrait slot that touches the binding edge
 * of a left-hand page: the centred crop would lose the face to the crop and the gutter; the automatic
 * crop keeps it inside the safe area of the rendered page.
 */
const FORMAT: PrintFormat = { widthMm: 210, heightMm: 297, bleedMm: 3, dpi: 150 };
const PHOTO = { width: 3600, height: 1800 };
/** The right half of page 2, running into the bleed at the right edge (the binding edge of a left-hand page) and the bottom. */
const SLOT: Omit<PhotoSlot, 'photoId'> = { x: 0.5, y: 0.06, width: 0.51, height: 0.96 };

let photo: Buffer;
let face: PixelBox;
let faces: FaceBox[];

function page(): BookPage {
  return { number: 2, layout: 'full', photos: [{ photoId: 'face', ...SLOT }], texts: [] };
}

/** The page's safe area in page pixels: the trim less 4 mm outside, less 12 mm at the binding (right) edge of page 2. */
function safeAreaPx() {
  const trim = trimPixels(FORMAT);
  const px = (mm: number) => (mm / 25.4) * FORMAT.dpi;
  expect(pageSide(2)).toBe('left');
  return {
    left: trim.left + px(SAFE_MARGIN_MM),
    top: trim.top + px(SAFE_MARGIN_MM),
    right: trim.left + trim.width - px(GUTTER_SAFE_MM),
    bottom: trim.top + trim.height - px(SAFE_MARGIN_MM),
  };
}

/** The slot in page pixels, as the render places it. */
function slotPx() {
  const trim = trimPixels(FORMAT);
  return {
    left: trim.left + Math.round(SLOT.x * trim.width),
    top: trim.top + Math.round(SLOT.y * trim.height),
    width: Math.round(SLOT.width * trim.width),
    height: Math.round(SLOT.height * trim.height),
  };
}

/** Where a box of the photo lands on the page through a crop rect. */
function onPage(rect: ReturnType<typeof cropRect>, box: PixelBox) {
  const slot = slotPx();
  const scale = slot.width / (rect.width * PHOTO.width);
  return {
    left: slot.left + (box.x - rect.left * PHOTO.width) * scale,
    top: slot.top + (box.y - rect.top * PHOTO.height) * scale,
    right: slot.left + (box.x + box.width - rect.left * PHOTO.width) * scale,
    bottom: slot.top + (box.y + box.height - rect.top * PHOTO.height) * scale,
  };
}

function inside(box: { left: number; top: number; right: number; bottom: number }, area: typeof box, slack = 0) {
  return (
    box.left >= area.left - slack &&
    box.top >= area.top - slack &&
    box.right <= area.right + slack &&
    box.bottom <= area.bottom + slack
  );
}

beforeAll(async () => {
  ({ photo, face } = await faceOnLandscape({ ...PHOTO, index: 0, faceHeight: 420, faceLeft: 3050, faceTop: 520 }));
  faces = await detectFaces(await makeThumbnail(photo));
});

describe('the print render keeps faces inside the safe area (automatic crop)', () => {
  it('the detector finds the face placed near the edge', () => {
    expect(faces).toHaveLength(1);
    const [f] = faces;
    expect(f.x * PHOTO.width).toBeGreaterThan(face.x - face.width / 2);
    expect((f.x + f.width) * PHOTO.width).toBeLessThan(face.x + face.width * 1.5);
  });

  it('without faces, the centred crop loses the face (what this test guards against)', () => {
    const centred = cropRect(PHOTO, slotPx());
    expect(inside(onPage(centred, face), safeAreaPx())).toBe(false);
  });

  it('on the rendered page the face lies inside the safe area, out of the gutter, the trim and the bleed', async () => {
    const rendered = await renderPrintPage({
      page: page(),
      format: FORMAT,
      loadPhoto: async () => photo,
      colorCorrection: false,
      photoFaces: { face: faces },
    });
    const size = pagePixels(FORMAT);
    expect([rendered.widthPx, rendered.heightPx]).toEqual([size.width, size.height]);
    const safe = safeAreaPx();

    // By the numbers the editor draws with too: the labelled box through the automatic crop.
    const crop = automaticCrop(PHOTO, slotPx(), faces, slotSafeArea(SLOT, FORMAT, pageSide(2)));
    expect(inside(onPage(cropRect(PHOTO, slotPx(), crop), face), safe)).toBe(true);

    // On the printed pixels: the detector, run on the rendered page, finds the face there.
    const found = await detectFaces(rendered.jpeg);
    expect(found.length).toBeGreaterThanOrEqual(1);
    const printed = found.map((f) => ({
      left: f.x * size.width,
      top: f.y * size.height,
      right: (f.x + f.width) * size.width,
      bottom: (f.y + f.height) * size.height,
    }));
    // The detector's box is looser than the labelled one: a few pixels of slack at 150 DPI (1 mm is 6 px).
    expect(printed.some((box) => inside(box, safe, 6))).toBe(true);

    // And the same page with no faces known prints the centred crop: no face in the safe area.
    const blind = await renderPrintPage({
      page: page(),
      format: FORMAT,
      loadPhoto: async () => photo,
      colorCorrection: false,
    });
    const blindFaces = await detectFaces(blind.jpeg);
    expect(
      blindFaces.some((f) =>
        inside(
          {
            left: f.x * size.width,
            top: f.y * size.height,
            right: (f.x + f.width) * size.width,
            bottom: (f.y + f.height) * size.height,
          },
          safe,
        ),
      ),
    ).toBe(false);
  });

  it('a photo without faces prints as before: the centred crop', async () => {
    const plain = await renderPrintPage({
      page: page(),
      format: FORMAT,
      loadPhoto: async () => photo,
      colorCorrection: false,
    });
    const none = await renderPrintPage({
      page: page(),
      format: FORMAT,
      loadPhoto: async () => photo,
      colorCorrection: false,
      photoFaces: { face: [] },
    });
    const [a, b] = await Promise.all([sharp(plain.jpeg).raw().toBuffer(), sharp(none.jpeg).raw().toBuffer()]);
    expect(a.equals(b)).toBe(true);
  });
});
