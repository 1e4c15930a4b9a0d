import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { measureColourCorrection } from '../../../src/imaging/print/color-correction';
import { autoCorrectColour } from '../../support/colour-correction';
import { channelMeans, neutralPhoto, spread } from './print-images';

let neutral: Buffer;
let blueCast: Buffer;

beforeAll(async () => {
  neutral = await neutralPhoto();
  // Shade on a cloudy day, exaggerated: red and green pulled down, blue lifted (and clipped).
  blueCast = await sharp(neutral).linear([0.6, 0.68, 0.95], [5, 5, 60]).jpeg({ quality: 95 }).toBuffer();
});

async function meanAbsoluteDifference(a: Buffer, b: Buffer): Promise<number> {
  const [x, y] = await Promise.all([a, b].map((image) => sharp(image).removeAlpha().raw().toBuffer()));
  let sum = 0;
  for (let i = 0; i < x.length; i++) sum += Math.abs(x[i] - y[i]);
  return sum / x.length;
}

describe('automatic colour correction (levels + grey world)', () => {
  it('pulls the channel means of a strongly blue photo together', async () => {
    const before = await channelMeans(blueCast);
    expect(before[0]).toBeGreaterThan(70);
    expect(before[0]).toBeLessThan(90);
    expect(before[2]).toBeGreaterThan(170); // the fixture really is tinted: R ~80, G ~90, B ~180
    const after = await channelMeans(await autoCorrectColour(blueCast));
    expect(spread(after)).toBeLessThan(spread(before) * 0.5);
    expect(after[2]).toBeLessThan(before[2] - 30); // blue came down, not only red and green up
  });

  it('gives a low-contrast photo a wider histogram', async () => {
    const flat = await sharp(neutral).linear(0.35, 83).jpeg({ quality: 95 }).toBuffer();
    const before = (await sharp(flat).stats()).channels.slice(0, 3);
    const after = (await sharp(await autoCorrectColour(flat)).stats()).channels.slice(0, 3);
    for (let c = 0; c < 3; c++) {
      // 0.35 x 255 = 89 levels, plus a few of JPEG ringing around the random grain.
      expect(before[c].max - before[c].min).toBeLessThanOrEqual(100);
      expect(after[c].stdev).toBeGreaterThan(before[c].stdev * 2.2);
      expect(after[c].max - after[c].min).toBeGreaterThan(200);
    }
  });

  it('leaves a neutral, full-range photo nearly as it was', async () => {
    const corrected = await autoCorrectColour(neutral);
    const [before, after] = await Promise.all([channelMeans(neutral), channelMeans(corrected)]);
    after.forEach((mean, c) => expect(Math.abs(mean - before[c])).toBeLessThan(4));
    // Re-encoding alone costs ~1 level; the correction may add a little more, not a visible shift.
    expect(await meanAbsoluteDifference(neutral, corrected)).toBeLessThan(4);
    const { a, b } = await measureColourCorrection(neutral);
    for (const gain of a) {
      expect(gain).toBeGreaterThan(0.95);
      expect(gain).toBeLessThan(1.06);
    }
    b.forEach((offset) => expect(Math.abs(offset)).toBeLessThan(6));
  });

  it('keeps the hues of a bright, colourful photo without a true black (no invented cast)', async () => {
    // An orange-to-blue sky with a white sun: no channel reaches 0, green spans only 136..255.
    const svg =
      '<svg xmlns="http://www.w3.org/2000/svg" width="600" height="400"><defs><linearGradient id="g"><stop offset="0" stop-color="#ffaa55"/>' +
      '<stop offset="1" stop-color="#3388cc"/></linearGradient></defs><rect width="600" height="400" fill="url(#g)"/><circle cx="300" cy="200" r="100" fill="#fff"/></svg>';
    const sky = await sharp(Buffer.from(svg)).jpeg({ quality: 95 }).toBuffer();
    const corrected = await autoCorrectColour(sky);
    const pixel = async (x: number, y: number) =>
      Array.from(await sharp(corrected).extract({ left: x, top: y, width: 1, height: 1 }).raw().toBuffer());
    const sun = await pixel(300, 200);
    expect(spread(sun)).toBeLessThan(20); // still white, not cyan
    expect(Math.min(...sun)).toBeGreaterThan(225);
    const [r1, g1, b1] = await pixel(20, 20);
    expect(r1).toBeGreaterThan(g1 + 50); // still orange
    expect(g1).toBeGreaterThan(b1 + 50);
    const [r2, g2, b2] = await pixel(580, 20);
    expect(b2).toBeGreaterThan(g2 + 40); // still blue
    expect(g2).toBeGreaterThan(r2 + 40);
  });

  it('does not turn a nearly flat photo into noise: the stretch is capped and a dark photo stays dark', async () => {
    const night = await sharp({
      create: {
        width: 200,
        height: 200,
        channels: 3,
        background: '#101418',
        noise: { type: 'gaussian', mean: 20, sigma: 3 },
      },
    })
      .jpeg()
      .toBuffer();
    const { a } = await measureColourCorrection(night);
    a.forEach((gain) => expect(gain).toBeLessThanOrEqual(4 * 1.5));
    const after = await channelMeans(await autoCorrectColour(night));
    after.forEach((mean) => expect(mean).toBeLessThan(90));
  });

  it('corrects a 16-bit photo the same as its 8-bit twin (offsets scaled to the 16-bit range)', async () => {
    const sixteen = await sharp(blueCast).toColourspace('rgb16').png().toBuffer();
    expect((await sharp(sixteen).metadata()).depth).toBe('ushort');
    const [from8, from16] = await Promise.all([autoCorrectColour(blueCast), autoCorrectColour(sixteen)]);
    const [m8, m16] = await Promise.all([channelMeans(from8), channelMeans(from16)]);
    m16.forEach((mean, c) => expect(Math.abs(mean - m8[c])).toBeLessThan(3));
  });

  it('stretches a greyscale photo (levels only, one channel)', async () => {
    const grey = await sharp(neutral).linear(0.4, 70).toColourspace('b-w').jpeg().toBuffer();
    expect((await sharp(grey).metadata()).channels).toBe(1);
    expect((await measureColourCorrection(grey)).a).toHaveLength(1);
    const before = (await sharp(grey).stats()).channels[0];
    const after = (await sharp(await autoCorrectColour(grey)).stats()).channels[0];
    expect(after.stdev).toBeGreaterThan(before.stdev * 2);
  });

  it('returns the photo upright (EXIF orientation applied)', async () => {
    const sideways = await sharp(neutral).withMetadata({ orientation: 6 }).jpeg().toBuffer();
    const meta = await sharp(await autoCorrectColour(sideways)).metadata();
    expect([meta.width, meta.height]).toEqual([400, 600]);
  });
});
