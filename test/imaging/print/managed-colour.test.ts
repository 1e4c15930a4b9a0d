import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { renderPrintPage } from '../../../src/imaging/print/render-page';
import type { PrintFormat } from '../../../src/imaging/print/print-geometry';
import { deltaE76, p3ToSrgb } from '../../support/colour';

/**
 * Managed colour: a photo is converted from its embedded profile to the output profile by libvips
 * (lcms2). The tolerance is ΔE*ab 1976 (CIE76, Euclidean distance in CIELAB, D65) of at most 2 between
 * the printed colour and the colour the Display P3 value denotes in sRGB (computed from the published
 * primaries, test/support/colour.ts): below what an observer tells apart side by side, above the
 * rounding of 8-bit values and of a quality-92 JPEG. Read unmanaged (the P3 numbers taken as sRGB),
 * the in-gamut colours land 7 to 11 ΔE away, so the test tells the two apart.
 */
const MAX_DELTA_E76 = 2;
const SMALL: PrintFormat = { widthMm: 50, heightMm: 50, bleedMm: 3, dpi: 100 };

type Rgb = [number, number, number];

/** A photo whose pixels are `p3` in Display P3, tagged with libvips's Display P3 profile (CC0). */
async function displayP3Photo(p3: Rgb): Promise<Buffer> {
  const tagged = await sharp({ create: { width: 300, height: 300, channels: 3, background: '#ffffff' } })
    .withIccProfile('p3')
    .png()
    .toBuffer();
  // keepIccProfile: the pixels are set to the P3 numbers as they are, the P3 profile stays attached.
  return sharp(tagged).keepIccProfile().linear([0, 0, 0], p3).png().toBuffer();
}

/** The mean colour of the middle of the page (inside the photo's slot), as printed. */
async function printedColour(photo: Buffer, colorCorrection = false): Promise<Rgb> {
  const { jpeg } = await renderPrintPage({
    page: { number: 1, layout: 'full', photos: [{ photoId: 'p', x: 0, y: 0, width: 1, height: 1 }], texts: [] },
    format: SMALL,
    loadPhoto: async () => photo,
    colorCorrection,
  });
  const { data } = await sharp(jpeg)
    .extract({ left: 80, top: 80, width: 60, height: 60 })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const sums = [0, 0, 0];
  for (let i = 0; i < data.length; i += 3) for (let c = 0; c < 3; c++) sums[c] += data[i + c];
  return sums.map((sum) => sum / (data.length / 3)) as Rgb;
}

const CASES: { name: string; p3: Rgb }[] = [
  // Pure P3 red lies outside sRGB: relative colorimetric clips it to sRGB's red (so it alone would not
  // tell managed from unmanaged; the in-gamut colours below do).
  { name: 'pure Display P3 red', p3: [255, 0, 0] },
  { name: 'a brick red inside sRGB', p3: [180, 80, 60] },
  { name: 'a leaf green inside sRGB', p3: [40, 160, 90] },
];

describe('managed colour: a Display P3 photo printed to the sRGB output profile', () => {
  const photos = new Map<string, Buffer>();
  beforeAll(async () => {
    for (const { name, p3 } of CASES) photos.set(name, await displayP3Photo(p3));
  });

  for (const { name, p3 } of CASES) {
    it(`${name} lands within ΔE76 ${MAX_DELTA_E76} of its sRGB value`, async () => {
      expect((await sharp(photos.get(name)!).metadata()).icc).toBeDefined();
      const expected = p3ToSrgb(p3);
      const printed = await printedColour(photos.get(name)!);
      expect(deltaE76(printed, expected)).toBeLessThanOrEqual(MAX_DELTA_E76);
    });
  }

  it('the in-gamut colours read unmanaged would miss by far more than the tolerance', () => {
    for (const { p3 } of CASES.slice(1)) expect(deltaE76(p3, p3ToSrgb(p3))).toBeGreaterThan(3 * MAX_DELTA_E76);
  });

  it('an untagged photo is taken as sRGB and passes through unchanged without colour correction', async () => {
    const untagged = await sharp({ create: { width: 300, height: 300, channels: 3, background: '#b45a3c' } })
      .png()
      .toBuffer();
    expect(deltaE76(await printedColour(untagged), [0xb4, 0x5a, 0x3c])).toBeLessThanOrEqual(1);
  });

  it('colour correction (metadata.colorCorrection) works before the conversion, on the photo in sRGB', async () => {
    // A flat photo has no range to stretch: the correction's white balance pulls it towards grey.
    const photo = photos.get('a brick red inside sRGB')!;
    const corrected = await printedColour(photo, true);
    expect(deltaE76(corrected, p3ToSrgb([180, 80, 60]))).toBeGreaterThan(MAX_DELTA_E76);
  });
});
