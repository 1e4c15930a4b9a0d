import { describe, expect, it } from 'vitest';
import { AUTOMATIC_CROP, automaticCrop, cropRect } from '../../src/domain/slot-crop';
import { GUTTER_SAFE_MM, pageSide, SAFE_MARGIN_MM, slotSafeArea } from '../../src/domain/print-safe-area';
import type { FaceBox } from '../../src/domain/face-box';

const PHOTO = { width: 3000, height: 2000 };
/** A portrait slot: a 3:2 photo loses most of its width to the crop. */
const SLOT = { width: 100, height: 200 };
const WHOLE = { left: 0, top: 0, right: 1, bottom: 1 };
const face = (x: number, y: number, width = 0.08, height = 0.12): FaceBox => ({ x, y, width, height, score: 0.9 });

/** Where a face lies in the slot, 0..1 of the slot, through the crop rect the print and the editor use. */
function inSlot(rect: ReturnType<typeof cropRect>, f: FaceBox) {
  return {
    left: (f.x - rect.left) / rect.width,
    right: (f.x + f.width - rect.left) / rect.width,
    top: (f.y - rect.top) / rect.height,
    bottom: (f.y + f.height - rect.top) / rect.height,
  };
}

describe('automatic crop with faces (domain/slot-crop.ts)', () => {
  it('is the centred crop without faces', () => {
    expect(automaticCrop(PHOTO, SLOT, [], WHOLE)).toEqual(AUTOMATIC_CROP);
    expect(automaticCrop(PHOTO, SLOT, null, WHOLE)).toEqual(AUTOMATIC_CROP);
  });

  it('moves just enough to keep a face near the edge inside the safe area, zoom 1', () => {
    const safe = { left: 0.1, top: 0.05, right: 0.9, bottom: 0.95 };
    const f = face(0.8, 0.3);
    const centred = inSlot(cropRect(PHOTO, SLOT, AUTOMATIC_CROP), f);
    expect(centred.left).toBeGreaterThan(1); // the centred crop loses the face entirely
    const crop = automaticCrop(PHOTO, SLOT, [f], safe);
    expect(crop.zoom).toBe(1);
    const placed = inSlot(cropRect(PHOTO, SLOT, crop), f);
    expect(placed.left).toBeGreaterThanOrEqual(safe.left);
    expect(placed.right).toBeLessThanOrEqual(safe.right + 1e-9);
    // ...with the face's margin, and no further: the margin's edge sits on the safe area's edge.
    expect((f.x + f.width * 1.5 - cropRect(PHOTO, SLOT, crop).left) / cropRect(PHOTO, SLOT, crop).width).toBeCloseTo(
      safe.right,
      6,
    );
  });

  it('keeps the largest faces when not all fit, and leaves a centred face where it is', () => {
    const big = face(0.02, 0.3, 0.12, 0.18);
    const small = face(0.9, 0.3, 0.05, 0.07);
    const crop = automaticCrop(PHOTO, SLOT, [small, big], WHOLE);
    const placed = inSlot(cropRect(PHOTO, SLOT, crop), big);
    expect(placed.left).toBeGreaterThanOrEqual(0);
    expect(placed.right).toBeLessThanOrEqual(1);
    expect(inSlot(cropRect(PHOTO, SLOT, crop), small).left).toBeGreaterThan(1);
    expect(automaticCrop(PHOTO, SLOT, [face(0.46, 0.44)], WHOLE)).toEqual({ ...AUTOMATIC_CROP, x: 0.5, y: 0.5 });
  });

  it('shows the largest face as far in as the photo allows when it cannot fit', () => {
    // At the photo's very edge: no crop keeps it out of the safe area's margin, the crop goes to that edge.
    const crop = automaticCrop(PHOTO, SLOT, [face(0.93, 0.3)], { left: 0.1, top: 0.05, right: 0.9, bottom: 0.95 });
    expect(cropRect(PHOTO, SLOT, crop).left + cropRect(PHOTO, SLOT, crop).width).toBeCloseTo(1, 9);
  });

  it('centres a face wider than the safe area on it, not at the far end of the photo', () => {
    // The window is a third of the photo's width; the box 0.4 wide, near the photo's left edge.
    const wide = face(0.05, 0.3, 0.4, 0.12);
    const safe = { left: 0.1, top: 0.05, right: 0.9, bottom: 0.95 };
    const rect = cropRect(PHOTO, SLOT, automaticCrop(PHOTO, SLOT, [wide], safe));
    expect(rect.left).toBeCloseTo(0.25 - 0.5 / 3, 9);
    const placed = inSlot(rect, wide);
    expect((placed.left + placed.right) / 2).toBeCloseTo((safe.left + safe.right) / 2, 9);
  });

  it('gives a face in a narrow slot as much of its margin as fits, the same share on each side', () => {
    const safe = { left: 0.05, top: 0.05, right: 0.95, bottom: 0.95 };
    // Portrait slot, a third of the photo wide: 0.05 of the photo's width to spare around a box 0.25
    // wide, a fifth of its margin (0.5 of its width each side): the face centred, not against an edge.
    const f = face(0.6, 0.3, 0.25, 0.12);
    const rect = cropRect(PHOTO, SLOT, automaticCrop(PHOTO, SLOT, [f], safe));
    expect(rect.left).toBeCloseTo(0.725 - 1 / 6, 6);
    // A long landscape slot, 0.375 of the photo tall: 0.0375 to spare around a box 0.3 tall, a
    // quarter of its margin, 0.2 of its height above and 0.3 below.
    const wideSlot = { width: 200, height: 50 };
    const tall = face(0.4, 0.5, 0.1, 0.3);
    const low = cropRect(PHOTO, wideSlot, automaticCrop(PHOTO, wideSlot, [tall], safe));
    expect(low.height).toBeCloseTo(0.375, 9);
    expect(low.top).toBeCloseTo(0.5 - 0.25 * 0.2 * 0.3 - 0.05 * 0.375, 6);
    expect(inSlot(low, tall).bottom + (0.25 * 0.3 * 0.3) / 0.375).toBeCloseTo(safe.bottom, 6);
  });

  it('keeps two faces that fit together only without their margins, each with the share that fits', () => {
    const safe = { left: 0.05, top: 0.05, right: 0.95, bottom: 0.95 };
    const big = face(0.4, 0.3, 0.12, 0.12);
    const small = face(0.6, 0.3, 0.05, 0.05);
    const rect = cropRect(PHOTO, SLOT, automaticCrop(PHOTO, SLOT, [small, big], safe));
    for (const f of [big, small]) {
      const placed = inSlot(rect, f);
      expect(placed.left).toBeGreaterThanOrEqual(safe.left);
      expect(placed.right).toBeLessThanOrEqual(safe.right + 1e-9);
    }
    // 0.05 of the photo to spare between the big face's left and the small one's right: shared in
    // proportion to their margins, that is to their widths (0.12 and 0.05).
    expect(rect.left).toBeCloseTo(0.4 - (0.05 * 0.12) / 0.17 - safe.left / 3, 6);
  });

  it('keeps a face inside a three-rows slot of a landscape A4 page (a case of the faces bench that the crop used to cut)', () => {
    // Photo 6 of test/bench/faces.ts: 2400 x 3200, the face (labelled by hand) low in the photo, and
    // the box the detector stores for it; the top slot of `three-rows` on a right-hand page.
    const photo = { width: 2400, height: 3200 };
    const labelled = { x: 199 / 2400, y: 2480 / 3200, width: 321 / 2400, height: 480 / 3200, score: 1 };
    const detected = { x: 0.0828, y: 0.7749, width: 0.1352, height: 0.1445, score: 0.8246 };
    const trim = { widthMm: 297, heightMm: 210 };
    const slot = { x: 0.06, y: 0.06, width: 0.88, height: 0.2733 };
    const slotMm = { width: slot.width * trim.widthMm, height: slot.height * trim.heightMm };
    const safe = slotSafeArea(slot, trim, 'right');
    const placed = inSlot(cropRect(photo, slotMm, automaticCrop(photo, slotMm, [detected], safe)), labelled);
    expect(placed.top).toBeGreaterThanOrEqual(safe.top);
    expect(placed.bottom).toBeLessThanOrEqual(safe.bottom);
    expect(placed.left).toBeGreaterThanOrEqual(safe.left);
    expect(placed.right).toBeLessThanOrEqual(safe.right);
  });

  it('the safe area of a slot: the trim less 4 mm outside and 12 mm at the binding edge, which depends on the page side', () => {
    const trim = { widthMm: 200, heightMm: 300 };
    expect(pageSide(1)).toBe('right');
    expect(pageSide(2)).toBe('left');
    const fullPage = { x: 0, y: 0, width: 1, height: 1 };
    const right = slotSafeArea(fullPage, trim, 'right');
    expect(right.left).toBeCloseTo(GUTTER_SAFE_MM / 200, 9);
    expect(right.right).toBeCloseTo(1 - SAFE_MARGIN_MM / 200, 9);
    const left = slotSafeArea(fullPage, trim, 'left');
    expect(left.left).toBeCloseTo(SAFE_MARGIN_MM / 200, 9);
    expect(left.right).toBeCloseTo(1 - GUTTER_SAFE_MM / 200, 9);
    // A slot running into the bleed: the part past the trim is out of the safe area.
    const bleeding = slotSafeArea({ x: -0.02, y: 0.5, width: 0.52, height: 0.52 }, trim, 'left');
    expect(bleeding.left).toBeCloseTo((0.02 + SAFE_MARGIN_MM / 200) / 0.52, 9);
    expect(bleeding.bottom).toBeCloseTo((1 - SAFE_MARGIN_MM / 300 - 0.5) / 0.52, 9);
    // A slot well inside the page is safe all over.
    const inside = slotSafeArea({ x: 0.2, y: 0.2, width: 0.5, height: 0.5 }, trim, 'right');
    for (const side of ['left', 'top', 'right', 'bottom'] as const) expect(inside[side]).toBeCloseTo(WHOLE[side], 9);
  });
});
