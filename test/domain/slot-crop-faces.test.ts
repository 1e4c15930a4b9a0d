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
