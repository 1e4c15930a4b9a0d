import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { makeThumbnail, NotAnImageError } from '../../src/imaging/thumbnail';
import { pseudoRandomBytes, redLeftBlueRight, regionMeans, scene } from './images';

describe('makeThumbnail', () => {
  it('turns a 1200x800 JPEG with EXIF orientation 6 upright: 341x512 portrait JPEG, no EXIF left', async () => {
    const input = await redLeftBlueRight(1200, 800)
      .jpeg()
      .withMetadata({ orientation: 6 })
      .withExifMerge({ IFD0: { Artist: 'Someone' }, IFD2: { DateTimeOriginal: '2023:07:14 18:30:05' } })
      .toBuffer();
    expect((await sharp(input).metadata()).exif).toBeDefined();

    const thumbnail = await makeThumbnail(input);
    const metadata = await sharp(thumbnail).metadata();
    expect(metadata.format).toBe('jpeg');
    expect([metadata.width, metadata.height]).toEqual([341, 512]);
    expect(metadata.orientation).toBeUndefined();
    expect(metadata.exif).toBeUndefined();
    expect(metadata.icc).toBeUndefined();
    expect(metadata.xmp).toBeUndefined();

    // Rotated the right way: the stored left (red) half is now on top.
    const [topR, , topB] = await regionMeans(thumbnail, { left: 0, top: 20, width: 341, height: 200 });
    const [bottomR, , bottomB] = await regionMeans(thumbnail, { left: 0, top: 292, width: 341, height: 200 });
    expect(topR).toBeGreaterThan(200);
    expect(topB).toBeLessThan(50);
    expect(bottomB).toBeGreaterThan(200);
    expect(bottomR).toBeLessThan(50);
  });

  it('fits inside maxSide and keeps the aspect ratio', async () => {
    const input = await scene(4000, 3000).png().toBuffer();
    const metadata = await sharp(await makeThumbnail(input, 256)).metadata();
    expect([metadata.format, metadata.width, metadata.height]).toEqual(['jpeg', 256, 192]);
  });

  it('never enlarges a small image', async () => {
    const input = await scene(300, 200).webp().toBuffer();
    const metadata = await sharp(await makeThumbnail(input)).metadata();
    expect([metadata.format, metadata.width, metadata.height]).toEqual(['jpeg', 300, 200]);
  });

  it('uses quality ~80: smaller than the same thumbnail at quality 95', async () => {
    const input = await scene(1600, 1200).png().toBuffer();
    const thumbnail = await makeThumbnail(input);
    const atQuality95 = await sharp(input).resize(512, 512, { fit: 'inside' }).jpeg({ quality: 95 }).toBuffer();
    const atQuality80 = await sharp(input).resize(512, 512, { fit: 'inside' }).jpeg({ quality: 80 }).toBuffer();
    expect(thumbnail.length).toBeLessThan(atQuality95.length);
    expect(Math.abs(thumbnail.length - atQuality80.length) / atQuality80.length).toBeLessThan(0.1);
  });

  it('puts transparent areas on white, not black', async () => {
    const input = await sharp({
      create: { width: 100, height: 100, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } },
    })
      .png()
      .toBuffer();
    const [r, g, b] = await regionMeans(await makeThumbnail(input), { left: 0, top: 0, width: 100, height: 100 });
    expect(Math.min(r, g, b)).toBeGreaterThan(250);
  });

  it('throws NotAnImageError for undecodable input', async () => {
    const jpeg = await scene(800, 600).jpeg().toBuffer();
    for (const input of [
      Buffer.alloc(0),
      pseudoRandomBytes(1000),
      Buffer.from('hello'),
      jpeg.subarray(0, jpeg.length >> 1),
    ]) {
      await expect(makeThumbnail(input)).rejects.toBeInstanceOf(NotAnImageError);
    }
  });

  it('refuses a bad maxSide', async () => {
    const input = await scene(100, 100).png().toBuffer();
    for (const maxSide of [0, -5, 1.5, Number.NaN, 100_000]) {
      await expect(makeThumbnail(input, maxSide)).rejects.toThrow(RangeError);
    }
  });
});
