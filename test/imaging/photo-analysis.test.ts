import exifReader from 'exif-reader';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import {
  analyzePhoto,
  capturedAtFromExif,
  combineQuality,
  exposureScore,
  NotAnImageError,
  resolutionScore,
  sharpnessFromLaplacianVariance,
  varianceOfLaplacian,
} from '../../src/imaging/photo-analysis';
import { MAX_INPUT_PIXELS } from '../../src/imaging/decode';
import { jpegDeclaring, noise, pseudoRandomBytes, scene, solid } from './images';

async function expectNotAnImage(input: Buffer, reason: NotAnImageError['reason'], message: RegExp) {
  const error = await analyzePhoto(input).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(NotAnImageError);
  const notAnImage = error as NotAnImageError;
  expect(notAnImage.name).toBe('NotAnImageError');
  expect(notAnImage.reason).toBe(reason);
  expect(notAnImage.message).toMatch(message);
  // Our own wording, not libvips' ("VipsJpeg: premature end of JPEG image", "Input buffer ...").
  expect(notAnImage.message).not.toMatch(/vips|Input buffer/i);
}

describe('analyzePhoto: size and orientation', () => {
  it('applies EXIF orientation 6 to a 1200x800 JPEG: displayed 800x1200, portrait', async () => {
    const jpeg = await scene(1200, 800).jpeg().withMetadata({ orientation: 6 }).toBuffer();
    const stored = await sharp(jpeg).metadata();
    expect([stored.width, stored.height, stored.orientation]).toEqual([1200, 800, 6]); // the file really is landscape

    const analysis = await analyzePhoto(jpeg);
    expect(analysis).toMatchObject({
      format: 'jpeg',
      width: 800,
      height: 1200,
      orientation: 'portrait',
      exifOrientation: 6,
    });
  });

  it.each([
    [1, 1200, 800, 'landscape'],
    [3, 1200, 800, 'landscape'],
    [5, 800, 1200, 'portrait'],
    [8, 800, 1200, 'portrait'],
  ] as const)('orientation %i gives %ix%i', async (orientation, width, height, shape) => {
    const jpeg = await scene(1200, 800).jpeg().withMetadata({ orientation }).toBuffer();
    expect(await analyzePhoto(jpeg)).toMatchObject({ width, height, orientation: shape, exifOrientation: orientation });
  });

  it('reports square images as square', async () => {
    expect((await analyzePhoto(await scene(640, 640).png().toBuffer())).orientation).toBe('square');
  });

  it('reads a photo without EXIF: capturedAt null, exifOrientation 1', async () => {
    const jpeg = await scene(600, 400).jpeg().toBuffer();
    expect((await sharp(jpeg).metadata()).exif).toBeUndefined();
    const analysis = await analyzePhoto(jpeg);
    expect(analysis).toMatchObject({
      format: 'jpeg',
      width: 600,
      height: 400,
      orientation: 'landscape',
      exifOrientation: 1,
      capturedAt: null,
    });
  });

  it('analyses PNG (with alpha) and WebP, including their EXIF', async () => {
    const exif = { IFD2: { DateTimeOriginal: '2021:02:03 04:05:06' } };
    const png = await scene(300, 200).ensureAlpha(0.6).png().withExif(exif).withMetadata({ orientation: 8 }).toBuffer();
    const webp = await scene(300, 200).webp().withExif(exif).withMetadata({ orientation: 5 }).toBuffer();
    for (const [input, format] of [
      [png, 'png'],
      [webp, 'webp'],
    ] as const) {
      const analysis = await analyzePhoto(input);
      expect(analysis).toMatchObject({
        format,
        width: 200,
        height: 300,
        orientation: 'portrait',
        capturedAt: new Date('2021-02-03T04:05:06Z'),
      });
      expect(analysis.sharpness).toBeGreaterThan(0.5);
    }
  });
});

describe('analyzePhoto: capture time from EXIF', () => {
  it('reads a real DateTimeOriginal from the Exif sub-IFD as UTC, ahead of DateTimeDigitized and DateTime', async () => {
    const jpeg = await scene(400, 300)
      .jpeg()
      .withExif({
        IFD0: { DateTime: '2020:01:01 00:00:00' },
        IFD2: { DateTimeOriginal: '2023:07:14 18:30:05', DateTimeDigitized: '2022:02:02 02:02:02' },
      })
      .toBuffer();
    // The file carries DateTimeOriginal in the Exif sub-IFD (tag 0x9003), as cameras write it.
    const raw = exifReader((await sharp(jpeg).metadata()).exif!);
    expect(raw.Photo?.DateTimeOriginal).toEqual(new Date('2023-07-14T18:30:05Z'));

    const { capturedAt } = await analyzePhoto(jpeg);
    expect(capturedAt).toBeInstanceOf(Date);
    expect(capturedAt!.toISOString()).toBe('2023-07-14T18:30:05.000Z');
  });

  it('falls back to DateTimeDigitized, then to DateTime in IFD0', async () => {
    const digitized = await scene(200, 100)
      .jpeg()
      .withExif({ IFD0: { DateTime: '2020:01:01 00:00:00' }, IFD2: { DateTimeDigitized: '2022:02:02 02:02:02' } })
      .toBuffer();
    expect((await analyzePhoto(digitized)).capturedAt?.toISOString()).toBe('2022-02-02T02:02:02.000Z');
    const modified = await scene(200, 100)
      .jpeg()
      .withExif({ IFD0: { DateTime: '2020:01:01 10:11:12' } })
      .toBuffer();
    expect((await analyzePhoto(modified)).capturedAt?.toISOString()).toBe('2020-01-01T10:11:12.000Z');
  });

  it('applies OffsetTimeOriginal and SubSecTimeOriginal when present', async () => {
    const jpeg = await scene(200, 100)
      .jpeg()
      .withExif({
        IFD2: { DateTimeOriginal: '2023:07:14 18:30:05', OffsetTimeOriginal: '+02:00', SubSecTimeOriginal: '25' },
      })
      .toBuffer();
    expect((await analyzePhoto(jpeg)).capturedAt?.toISOString()).toBe('2023-07-14T16:30:05.250Z');
    const west = await scene(200, 100)
      .jpeg()
      .withExif({ IFD2: { DateTimeOriginal: '2023:07:14 18:30:05', OffsetTimeOriginal: '-05:30' } })
      .toBuffer();
    expect((await analyzePhoto(west)).capturedAt?.toISOString()).toBe('2023-07-15T00:00:05.000Z');
  });

  it('ignores placeholder and malformed dates', async () => {
    const blank = await scene(200, 100)
      .jpeg()
      .withExif({ IFD2: { DateTimeOriginal: '0000:00:00 00:00:00' }, IFD0: { DateTime: '    :  :     :  :  ' } })
      .toBuffer();
    expect((await analyzePhoto(blank)).capturedAt).toBeNull();
    const placeholderThenValid = await scene(200, 100)
      .jpeg()
      .withExif({ IFD2: { DateTimeOriginal: '0000:00:00 00:00:00' }, IFD0: { DateTime: '2019:05:06 07:08:09' } })
      .toBuffer();
    expect((await analyzePhoto(placeholderThenValid)).capturedAt?.toISOString()).toBe('2019-05-06T07:08:09.000Z');
  });

  it('treats an unreadable EXIF block as no EXIF', () => {
    expect(capturedAtFromExif(Buffer.from('Exif\0\0garbage'))).toBeNull();
    expect(capturedAtFromExif(Buffer.alloc(0))).toBeNull();
  });
});

describe('analyzePhoto: sharpness and quality', () => {
  it('scores random noise far sharper than the same noise blurred', async () => {
    const crisp = await noise(1000, 750).jpeg({ quality: 92 }).toBuffer();
    const blurred = await sharp(crisp).blur(8).jpeg({ quality: 92 }).toBuffer();
    const [a, b] = await Promise.all([analyzePhoto(crisp), analyzePhoto(blurred)]);
    expect(a.sharpness).toBeGreaterThan(0.9);
    expect(b.sharpness).toBeLessThan(0.2);
    expect(a.quality).toBeGreaterThan(b.quality);
  });

  it('scores a detailed scene far sharper than the same scene blurred', async () => {
    const crisp = await scene(1200, 900).jpeg({ quality: 92 }).toBuffer();
    const blurred = await sharp(crisp).blur(8).jpeg({ quality: 92 }).toBuffer();
    const [a, b] = await Promise.all([analyzePhoto(crisp), analyzePhoto(blurred)]);
    expect(a.sharpness).toBeGreaterThan(0.9);
    expect(a.sharpness - b.sharpness).toBeGreaterThan(0.4);
    expect(a.quality - b.quality).toBeGreaterThan(0.1);
  });

  it('gives a 300x200 copy a lower quality than the 4000x3000 original of the same content', async () => {
    const large = await scene(4000, 3000).jpeg({ quality: 90 }).toBuffer();
    const small = await sharp(large).resize(300, 200, { fit: 'fill' }).jpeg({ quality: 90 }).toBuffer();
    const [big, tiny] = await Promise.all([analyzePhoto(large), analyzePhoto(small)]);
    expect([big.width, big.height, tiny.width, tiny.height]).toEqual([4000, 3000, 300, 200]);
    expect(tiny.sharpness).toBeGreaterThan(0.5); // not blurred: it loses on resolution
    expect(big.quality).toBeGreaterThan(0.9);
    expect(big.quality - tiny.quality).toBeGreaterThan(0.3);
  });

  it('penalises very dark and very bright exposures', async () => {
    const normal = await scene(1200, 900).jpeg().toBuffer();
    const dark = await scene(1200, 900).linear(0.12, 0).jpeg().toBuffer();
    const bright = await scene(1200, 900).linear(0.15, 225).jpeg().toBuffer();
    const [n, d, b] = await Promise.all([analyzePhoto(normal), analyzePhoto(dark), analyzePhoto(bright)]);
    expect(d.quality).toBeLessThan(n.quality);
    expect(b.quality).toBeLessThan(n.quality);
  });

  it('gives flat and black images zero sharpness and quality', async () => {
    const grey = await analyzePhoto(await solid(800, 600, '#808080').png().toBuffer());
    expect(grey.sharpness).toBe(0);
    expect(grey.quality).toBe(0);
    expect((await analyzePhoto(await solid(800, 600, '#000000').jpeg().toBuffer())).quality).toBe(0);
  });

  it('keeps sharpness and quality within 0..1', async () => {
    for (const input of [
      await noise(64, 64).png().toBuffer(),
      await solid(2, 1, '#ffffff').png().toBuffer(),
      await scene(10, 10).webp().toBuffer(),
    ]) {
      const { sharpness, quality } = await analyzePhoto(input);
      for (const value of [sharpness, quality]) {
        expect(value).toBeGreaterThanOrEqual(0);
        expect(value).toBeLessThanOrEqual(1);
      }
    }
  });

  it('computes the parts as documented', () => {
    // Laplacian of a single bright pixel on black: -4*255 at the centre, 255 at its 4 neighbours.
    const grey = new Uint8Array(25);
    grey[12] = 255;
    const l = [-1020, 255, 255, 255, 255, 0, 0, 0, 0];
    const m = l.reduce((s, v) => s + v, 0) / 9;
    expect(varianceOfLaplacian(grey, 5, 5)).toBeCloseTo(l.reduce((s, v) => s + (v - m) ** 2, 0) / 9, 6);
    expect(varianceOfLaplacian(new Uint8Array(25).fill(77), 5, 5)).toBe(0);
    expect(sharpnessFromLaplacianVariance(0)).toBe(0);
    expect(sharpnessFromLaplacianVariance(100)).toBe(0.5);
    expect(sharpnessFromLaplacianVariance(900)).toBeCloseTo(0.9, 10);
    expect(resolutionScore(12)).toBe(1);
    expect(resolutionScore(48)).toBe(1);
    expect(resolutionScore(3)).toBe(0.5);
    expect(exposureScore(0.5)).toBe(1);
    expect(exposureScore(0.1)).toBeCloseTo(0.5, 10);
    expect(exposureScore(1)).toBe(0);
    expect(combineQuality({ sharpness: 1, megapixels: 12, meanLuminance: 0.5 })).toBe(1);
    expect(combineQuality({ sharpness: 0.25, megapixels: 12, meanLuminance: 0.5 })).toBeCloseTo(0.5, 10);
    expect(combineQuality({ sharpness: 1, megapixels: 3, meanLuminance: 0.5 })).toBeCloseTo(0.5 ** 0.3, 10);
  });
});

describe('analyzePhoto: inputs that are not images', () => {
  it('rejects random bytes', async () => {
    await expectNotAnImage(pseudoRandomBytes(50_000, 7), 'unsupported-format', /not an image/);
  });

  it('rejects an empty buffer', async () => {
    await expectNotAnImage(Buffer.alloc(0), 'empty', /empty/);
  });

  it('rejects a text file', async () => {
    await expectNotAnImage(
      Buffer.from('Dear customer,\nhere are my holiday photos!\n'.repeat(50)),
      'unsupported-format',
      /not an image/,
    );
  });

  it('rejects a JPEG truncated to half its length, although its header is intact', async () => {
    const jpeg = await noise(800, 600).jpeg().toBuffer();
    const truncated = jpeg.subarray(0, Math.floor(jpeg.length / 2));
    // sharp reads the header happily: only decoding the pixels with failOn shows the damage.
    expect((await sharp(truncated).metadata()).width).toBe(800);
    await expectNotAnImage(truncated, 'corrupt', /truncated or corrupt/);
  });

  it('rejects a truncated PNG and WebP', async () => {
    for (const image of [await noise(400, 300).png().toBuffer(), await noise(400, 300).webp().toBuffer()]) {
      await expectNotAnImage(image.subarray(0, Math.floor(image.length / 2)), 'corrupt', /truncated or corrupt/);
    }
  });

  it('rejects SVG: not a photo', async () => {
    const svg = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100"><rect width="100" height="100"/></svg>',
    );
    await expectNotAnImage(svg, 'unsupported-format', /svg/);
  });

  it(`rejects images declaring more than ${MAX_INPUT_PIXELS} pixels, saying it is too large`, async () => {
    await expectNotAnImage(await jpegDeclaring(20_000, 10_000), 'too-large', /too large.*20000x10000/);
    // The limit is on pixels, not on a side: exactly 100 MP passes the size check. (Its scan data is
    // that of a 16x16 image, which libjpeg only warns about, so at failOn 'error' it decodes, grey.)
    expect(await analyzePhoto(await jpegDeclaring(10_000, 10_000))).toMatchObject({ width: 10_000, height: 10_000 });
    await expectNotAnImage(await jpegDeclaring(65_000, 2_000), 'too-large', /too large/);
  });

  it('refuses non-buffers as a programming error', async () => {
    await expect(analyzePhoto('photo.jpg' as unknown as Buffer)).rejects.toThrow(TypeError);
  });
});
