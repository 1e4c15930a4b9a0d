import { describe, expect, it } from 'vitest';
import { pageCanvas } from '../../../src/imaging/print/page-canvas';

const pixelAt = (canvas: Buffer, width: number, x: number, y: number) => [
  ...canvas.subarray((y * width + x) * 3, (y * width + x) * 3 + 3),
];

describe('pageCanvas', () => {
  it('fills the page with its colour, short form too, and copies each photo row by row to its place', () => {
    const photo = Buffer.from(Array.from({ length: 3 * 2 * 3 }, (_, i) => i + 1)); // 3 x 2, every byte distinct
    const canvas = pageCanvas({ width: 6, height: 4 }, '#f0a', [
      { pixels: photo, left: 2, top: 1, width: 3, height: 2 },
    ]);
    expect(canvas.length).toBe(6 * 4 * 3);
    expect(pixelAt(canvas, 6, 0, 0)).toEqual([0xff, 0x00, 0xaa]);
    expect(pixelAt(canvas, 6, 5, 3)).toEqual([0xff, 0x00, 0xaa]);
    expect(pixelAt(canvas, 6, 1, 1)).toEqual([0xff, 0x00, 0xaa]);
    for (let y = 0; y < 2; y++) {
      for (let x = 0; x < 3; x++)
        expect(pixelAt(canvas, 6, 2 + x, 1 + y)).toEqual([...photo.subarray((y * 3 + x) * 3, (y * 3 + x) * 3 + 3)]);
    }
    expect(pixelAt(canvas, 6, 5, 1)).toEqual([0xff, 0x00, 0xaa]);
  });

  it('refuses a photo that would reach past the page, a buffer of the wrong size and a colour that is not one', () => {
    const photo = Buffer.alloc(2 * 2 * 3);
    expect(() =>
      pageCanvas({ width: 4, height: 4 }, '#ffffff', [{ pixels: photo, left: 3, top: 0, width: 2, height: 2 }]),
    ).toThrow(RangeError);
    expect(() =>
      pageCanvas({ width: 4, height: 4 }, '#ffffff', [{ pixels: photo, left: 0, top: -1, width: 2, height: 2 }]),
    ).toThrow(RangeError);
    expect(() =>
      pageCanvas({ width: 4, height: 4 }, '#ffffff', [{ pixels: photo, left: 0, top: 0, width: 2, height: 1 }]),
    ).toThrow(/bytes/);
    expect(() => pageCanvas({ width: 4, height: 4 }, 'red', [])).toThrow(/background must be/);
  });
});
