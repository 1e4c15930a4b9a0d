import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import type { BookCover } from '../../../src/domain/book';
import type { FaceBox } from '../../../src/domain/face-box';
import { coverSafeArea, SAFE_MARGIN_MM } from '../../../src/domain/print-safe-area';
import { renderCoverPreview, titleBandHeight } from '../../../src/imaging/cover-preview';
import { detectFaces } from '../../../src/imaging/faces/face-detector';
import { boxPixels, coverGeometry, type CoverGeometry } from '../../../src/imaging/print/cover-geometry';
import { renderPrintCoverSheet } from '../../../src/imaging/print/cover-sheet';
import type { PrintFormat } from '../../../src/imaging/print/print-geometry';
import { makeThumbnail } from '../../../src/imaging/thumbnail';
import type { CatalogueFile } from '../../../src/services/catalogue/catalogue-file';
import { faceOnLandscape, landscape } from '../../support/face-photos';

/**
 * The cover keeps its faces: a real face (face-api's demo photo sample1.jpg, MIT,
 * test/support/face-photos.ts) placed by sharp near the left edge of a wide landscape, the cover
 * photo of an A4 portrait hardcover, with bright flags on the photo's right that draw libvips'
 * attention crop away from the face. On the printed cover sheet and on the cover preview, the
 * detector run on the rendered pixels finds the face inside the front's safe area (4 mm inside the
 * spine's fold and the trim, above the title band), off the spine, hinge and wrap. Without faces the
 * cover is the attention crop it was.
 */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const PHOTO = { width: 3600, height: 1800 };
const DPI = 120;
const COVER: BookCover = { title: 'Summer at the lake', subtitle: '2026', photoId: 'face', texts: [] };

let photo: Buffer;
let faces: FaceBox[];
let format: PrintFormat;
let geometry: CoverGeometry;

interface Box {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

function inside(box: Box, area: Box, slack: number) {
  return (
    box.left >= area.left - slack &&
    box.top >= area.top - slack &&
    box.right <= area.right + slack &&
    box.bottom <= area.bottom + slack
  );
}

/** The faces the detector finds in `region` of a rendered image, in that image's pixels. */
async function facesOnRendered(image: Buffer, region: { left: number; top: number; width: number; height: number }) {
  const found = await detectFaces(await sharp(image).extract(region).png().toBuffer());
  return found.map((f) => ({
    left: region.left + f.x * region.width,
    top: region.top + f.y * region.height,
    right: region.left + (f.x + f.width) * region.width,
    bottom: region.top + (f.y + f.height) * region.height,
  }));
}

/**
 * The landscape with bright saturated flags on its right: more salient for libvips' attention
 * strategy than a face, so the attention crop goes there and leaves the face out.
 */
async function distractingLandscape(): Promise<Buffer> {
  const colours = ['#ff0000', '#ffdd00', '#00c8ff', '#ff00aa'];
  const flags = colours.map((background, i) => ({
    input: { create: { width: 220, height: 900, channels: 3 as const, background } },
    left: 2500 + i * 260,
    top: 450,
  }));
  return landscape(PHOTO.width, PHOTO.height).composite(flags).png().toBuffer();
}

beforeAll(async () => {
  const demo = JSON.parse(await readFile(path.join(ROOT, 'catalogue/demo.json'), 'utf8')) as CatalogueFile;
  const { specifications } = demo.products.find((p) => p.sku === 'PB-HC-A4-P')!;
  format = { ...specifications.format, dpi: DPI };
  geometry = coverGeometry(format, specifications.production, 24);
  ({ photo } = await faceOnLandscape({
    ...PHOTO,
    index: 0,
    faceHeight: 420,
    faceLeft: 200,
    faceTop: 700,
    background: await distractingLandscape(),
  }));
  faces = await detectFaces(await makeThumbnail(photo));
  expect(faces).toHaveLength(1);
});

describe('the cover keeps the face-aware automatic crop', () => {
  it('on the printed cover sheet the face lies inside the front panel, 4 mm in from its edges and above the title band', async () => {
    const sheet = await renderPrintCoverSheet({
      cover: COVER,
      geometry,
      format,
      loadPhoto: async () => photo,
      colorCorrection: false,
      photoFaces: { face: faces },
    });
    const front = boxPixels(geometry.front, DPI);
    const safe = Math.round((SAFE_MARGIN_MM / 25.4) * DPI);
    const band = await titleBandHeight(front.width, front.height, COVER.title, COVER.subtitle, safe);
    const area = {
      left: front.left + safe,
      top: front.top + safe,
      right: front.left + front.width - safe,
      bottom: front.top + front.height - band,
    };
    // Looked for over the whole photo's part of the sheet, spine edge to sheet edge, wrap and bleed included.
    const spine = boxPixels(geometry.spine, DPI);
    const photoPart = {
      left: spine.left + spine.width,
      top: 0,
      width: sheet.widthPx - spine.left - spine.width,
      height: sheet.heightPx,
    };
    const found = await facesOnRendered(sheet.jpeg, photoPart);
    expect(found).toHaveLength(1);
    // The detector's box is a little looser than the face: 1 mm of slack (about 5 px at 120 DPI).
    expect(inside(found[0], area, 5), JSON.stringify({ found, area })).toBe(true);

    // Without the faces, the sheet is what it was before faces reached the cover: the attention crop,
    // whether the detector found none or did not run.
    const render = (photoFaces?: Record<string, FaceBox[] | null>) =>
      renderPrintCoverSheet({
        cover: COVER,
        geometry,
        format,
        loadPhoto: async () => photo,
        colorCorrection: false,
        ...(photoFaces ? { photoFaces } : {}),
      });
    const [before, none, unknown] = await Promise.all([render(), render({ face: [] }), render({ face: null })]);
    expect(none.jpeg.equals(before.jpeg)).toBe(true);
    expect(unknown.jpeg.equals(before.jpeg)).toBe(true);
    expect(before.jpeg.equals(sheet.jpeg)).toBe(false);
    // What this guards against: the attention crop goes to the flags and leaves the face out.
    expect((await facesOnRendered(before.jpeg, photoPart)).some((f) => inside(f, area, 5))).toBe(false);
  });

  it('on the cover preview the face lies inside the same safe area, above the title band', async () => {
    const widthPx = 566;
    const heightPx = Math.round((widthPx * format.heightMm) / format.widthMm);
    const safe = coverSafeArea(format);
    const preview = await renderCoverPreview({
      widthPx,
      heightPx,
      photo,
      title: COVER.title,
      subtitle: COVER.subtitle,
      faces: { boxes: faces, safe },
    });
    const band = await titleBandHeight(widthPx, heightPx, COVER.title, COVER.subtitle);
    const area = {
      left: safe.left * widthPx,
      top: safe.top * heightPx,
      right: safe.right * widthPx,
      bottom: heightPx - band,
    };
    const found = await facesOnRendered(preview, { left: 0, top: 0, width: widthPx, height: heightPx });
    expect(found).toHaveLength(1);
    expect(inside(found[0], area, 3), JSON.stringify({ found, area })).toBe(true);

    const plain = { widthPx, heightPx, photo, title: COVER.title, subtitle: COVER.subtitle };
    const before = await renderCoverPreview(plain);
    expect((await renderCoverPreview({ ...plain, faces: { boxes: [], safe } })).equals(before)).toBe(true);
    expect((await renderCoverPreview({ ...plain, faces: { boxes: null, safe } })).equals(before)).toBe(true);
    expect(before.equals(preview)).toBe(false);
    const blind = await facesOnRendered(before, { left: 0, top: 0, width: widthPx, height: heightPx });
    expect(blind.some((f) => inside(f, area, 3))).toBe(false);
  });
});
