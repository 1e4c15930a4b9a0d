import { describe, expect, it } from 'vitest';
import { dpiWarning, effectiveDpi, LOW_DPI, SOFT_DPI } from '../../../src/imaging/print/effective-dpi';

/** A full A4 page in inches (the slot of a photo placed over the whole trim box). */
const A4_PAGE_IN = { width: 210 / 25.4, height: 297 / 25.4 };

describe('effective DPI', () => {
  it('a 600 x 400 photo over a full A4 page prints at 34 DPI and is warned as low resolution', () => {
    const dpi = effectiveDpi({ width: 600, height: 400 }, A4_PAGE_IN);
    expect(dpi).toBeCloseTo(400 / A4_PAGE_IN.height, 6); // the height limits: 34.2 px per inch
    expect(Math.round(dpi)).toBe(34);
    expect(dpiWarning(dpi)).toMatch(/^low resolution: 34 DPI/);
  });

  it('a 4000 x 6000 photo over a full A4 page prints at 484 DPI without a warning', () => {
    const dpi = effectiveDpi({ width: 4000, height: 6000 }, A4_PAGE_IN);
    expect(dpi).toBeCloseTo(4000 / A4_PAGE_IN.width, 6);
    expect(Math.round(dpi)).toBe(484);
    expect(dpiWarning(dpi)).toBeUndefined();
  });

  it('is decided by the side that is cropped least (cover fit)', () => {
    // A 6000 x 1000 panorama in a 4 x 4 in slot is scaled to 4 in high: 250 px per inch.
    expect(effectiveDpi({ width: 6000, height: 1000 }, { width: 4, height: 4 })).toBe(250);
    expect(effectiveDpi({ width: 1000, height: 6000 }, { width: 4, height: 4 })).toBe(250);
  });

  it('warns below 250 DPI as soft and below 150 as low resolution', () => {
    expect([LOW_DPI, SOFT_DPI]).toEqual([150, 250]);
    expect(dpiWarning(300)).toBeUndefined();
    expect(dpiWarning(250)).toBeUndefined();
    expect(dpiWarning(249.6)).toMatch(/^may look soft/);
    expect(dpiWarning(150)).toMatch(/^may look soft: 150 DPI/);
    expect(dpiWarning(149.9)).toMatch(/^low resolution/);
  });

  it('refuses empty sizes', () => {
    expect(() => effectiveDpi({ width: 0, height: 10 }, A4_PAGE_IN)).toThrow(RangeError);
    expect(() => effectiveDpi({ width: 10, height: 10 }, { width: 1, height: 0 })).toThrow(RangeError);
  });
});
