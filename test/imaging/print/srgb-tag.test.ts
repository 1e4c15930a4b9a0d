import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { compose } from '../../../src/imaging/print/render-page';
import { tagSrgb } from '../../../src/imaging/print/srgb-tag';

/** A page of coloured noise and a flat photo, as raw sRGB: every value of every channel occurs. */
async function page() {
  const size = { width: 640, height: 480 };
  const background = await sharp({
    create: { ...size, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 90 } },
  })
    .raw()
    .toBuffer();
  const photo = { pixels: Buffer.alloc(200 * 100 * 3, 0x3c), left: 40, top: 60, width: 200, height: 100 };
  return { size, background, photo };
}

describe('pages tagged sRGB without a colour transform (srgb-tag.ts)', () => {
  it('are byte for byte the JPEG that sharp tags with withIccProfile("srgb")', async () => {
    const { size, background } = await page();
    const encode = () =>
      sharp(background, { raw: { ...size, channels: 3 } })
        .jpeg({ quality: 92, chromaSubsampling: '4:4:4', optimiseCoding: false })
        .withDensity(300);
    const bySharp = await encode().withIccProfile('srgb').toBuffer();
    const tagged = await tagSrgb(await encode().toBuffer());
    expect(tagged.equals(bySharp)).toBe(true);
    const metadata = await sharp(tagged).metadata();
    expect(metadata.icc?.length).toBeGreaterThan(0);
    expect(metadata.density).toBe(300);
  });

  it('give compose() the bytes it wrote with the transform, for a page with a photo on it', async () => {
    const { size, photo } = await page();
    const { jpeg } = await compose(size, [photo], [], 300, [], '#ffffff');
    const canvas = Buffer.alloc(size.width * size.height * 3, 0xff);
    for (let y = 0; y < photo.height; y++)
      photo.pixels.copy(
        canvas,
        ((photo.top + y) * size.width + photo.left) * 3,
        y * photo.width * 3,
        (y + 1) * photo.width * 3,
      );
    const bySharp = await sharp(canvas, { raw: { ...size, channels: 3 } })
      .jpeg({ quality: 92, chromaSubsampling: '4:4:4', optimiseCoding: false })
      .withIccProfile('srgb')
      .withDensity(300)
      .toBuffer();
    expect(jpeg.equals(bySharp)).toBe(true);
  });

  it('refuses what is not a JPEG', async () => {
    await expect(tagSrgb(Buffer.from('not a jpeg'))).rejects.toThrow('not a JPEG');
  });
});
