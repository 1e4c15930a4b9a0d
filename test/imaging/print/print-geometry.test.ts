import { describe, expect, it } from 'vitest';
import { mmToPt, pageBoxes, pagePixels, trimPixels } from '../../../src/imaging/print/print-geometry';
import { A4 } from './print-images';

describe('print geometry', () => {
  it('sizes an A4 page with 3 mm bleed at 300 DPI as 2551 x 3579 px, bleed 35 px', () => {
    // (210 + 6) / 25.4 * 300 = 2551.18, (297 + 6) / 25.4 * 300 = 3578.74, 3 / 25.4 * 300 = 35.43
    expect(pagePixels(A4)).toEqual({ width: 2551, height: 3579, bleed: 35 });
    expect(trimPixels(A4)).toEqual({ left: 35, top: 35, width: 2481, height: 3509 });
  });

  it('scales with the DPI and the format', () => {
    expect(pagePixels({ ...A4, dpi: 150 })).toEqual({ width: 1276, height: 1789, bleed: 18 });
    expect(pagePixels({ widthMm: 200, heightMm: 200, bleedMm: 0, dpi: 254 })).toEqual({
      width: 2000,
      height: 2000,
      bleed: 0,
    });
  });

  it('gives the PDF boxes in points: MediaBox with bleed, TrimBox the finished A4 inside it', () => {
    const boxes = pageBoxes(A4);
    expect(boxes.mediaBox.widthPt).toBeCloseTo(612.283, 2); // 216 mm
    expect(boxes.mediaBox.heightPt).toBeCloseTo(858.898, 2); // 303 mm
    expect(boxes.trimBox.widthPt).toBeCloseTo(595.276, 2); // 210 mm: A4's 595.28 pt
    expect(boxes.trimBox.heightPt).toBeCloseTo(841.89, 2); // 297 mm
    expect(boxes.trimBox.leftPt).toBeCloseTo(8.504, 2);
    expect(boxes.trimBoxArray[2] - boxes.trimBoxArray[0]).toBeCloseTo(boxes.trimBox.widthPt, 6);
    expect(boxes.trimBoxArray[3] - boxes.trimBoxArray[1]).toBeCloseTo(boxes.trimBox.heightPt, 6);
    expect(boxes.bleedBoxArray).toEqual(boxes.mediaBoxArray);
    expect(mmToPt(25.4)).toBe(72);
  });

  it('refuses a format without a positive size or DPI', () => {
    expect(() => pagePixels({ ...A4, dpi: 0 })).toThrow(RangeError);
    expect(() => pageBoxes({ ...A4, widthMm: -1 })).toThrow(RangeError);
    expect(() => pagePixels({ ...A4, heightMm: Number.NaN })).toThrow(RangeError);
  });
});
