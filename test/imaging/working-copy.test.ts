import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { analyzePhoto, NotAnImageError } from '../../src/imaging/photo-analysis';
import { makeThumbnail, thumbnailOfWorkingCopy } from '../../src/imaging/thumbnail';
import { decodeWorkingCopy } from '../../src/imaging/working-copy';

/** A 1200x800 JPEG, red in its top-left quarter and blue elsewhere, stored with EXIF `orientation`. */
function marked(orientation: number): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="800"><rect width="100%" height="100%" fill="#2040c0"/><rect width="600" height="400" fill="#e02020"/></svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 90 }).withMetadata({ orientation }).toBuffer();
}

async function rgb(jpeg: Buffer) {
  return sharp(jpeg).raw().toBuffer({ resolveWithObject: true });
}

describe('the working copy: one decode per photo for analysis and thumbnail', () => {
  it.each([1, 2, 3, 4, 5, 6, 7, 8])(
    'turns orientation %i upright as sharp does for the photo itself',
    async (orientation) => {
      const photo = await marked(orientation);
      const copy = await decodeWorkingCopy(photo);
      expect(Math.max(copy.width, copy.height)).toBe(512);
      const [ours, sharps] = await Promise.all([
        rgb(await thumbnailOfWorkingCopy(copy)),
        rgb(await makeThumbnail(photo)),
      ]);
      expect([ours.info.width, ours.info.height]).toEqual([sharps.info.width, sharps.info.height]);
      let difference = 0;
      for (let i = 0; i < ours.data.length; i++) difference += Math.abs(ours.data[i] - sharps.data[i]);
      // The same picture: only JPEG noise along the red quarter's edges differs.
      expect(difference / ours.data.length).toBeLessThan(3);
    },
  );

  it('is shrunk while decoding: a 12 MP photo gives a 512 px copy with its full size and EXIF kept', async () => {
    const photo = await sharp({ create: { width: 4000, height: 3000, channels: 3, background: '#808080' } })
      .jpeg()
      .withExifMerge({ IFD2: { DateTimeOriginal: '2025:07:01 10:00:00' } })
      .toBuffer();
    const copy = await decodeWorkingCopy(photo);
    expect([copy.width, copy.height, copy.storedWidth, copy.storedHeight]).toEqual([512, 384, 4000, 3000]);
    expect((await analyzePhoto(photo)).capturedAt?.toISOString()).toBe('2025-07-01T10:00:00.000Z');
  });

  it('refuses what is no photo with NotAnImageError', async () => {
    await expect(decodeWorkingCopy(Buffer.from('not an image'))).rejects.toBeInstanceOf(NotAnImageError);
  });
});
