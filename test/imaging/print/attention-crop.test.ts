import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { attentionCoverCrop } from '../../../src/imaging/print/attention-crop';

const W = 4000;
const H = 3000;
const RADIUS = 300;

/** A grainy grey 4000 x 3000 photo with one red disc (what attention looks for) centred at (cx, cy). */
async function photoWithDisc(cx: number, cy: number, format: 'jpeg' | 'png'): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}"><rect width="100%" height="100%" fill="#777777"/><circle cx="${cx}" cy="${cy}" r="${RADIUS}" fill="#e03020"/></svg>`;
  const grain = await sharp({
    create: {
      width: W,
      height: H,
      channels: 3,
      background: '#808080',
      noise: { type: 'gaussian', mean: 128, sigma: 30 },
    },
  })
    .png()
    .toBuffer();
  const image = sharp(Buffer.from(svg)).composite([{ input: grain, blend: 'soft-light' }]);
  return format === 'jpeg' ? image.jpeg({ quality: 90 }).toBuffer() : image.png({ compressionLevel: 1 }).toBuffer();
}

/** Where sharp's own attention strategy starts the crop, on the full cover-sized image. */
async function sharpsOwnCrop(photo: Buffer, slot: { width: number; height: number }) {
  const { info } = await sharp(photo)
    .resize(slot.width, slot.height, { fit: 'cover', position: sharp.strategy.attention })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { left: -(info.cropOffsetLeft ?? 0), top: -(info.cropOffsetTop ?? 0) };
}

describe('attentionCoverCrop', () => {
  let right: Buffer;
  let low: Buffer;
  beforeAll(async () => {
    right = await photoWithDisc(3100, 800, 'jpeg');
    low = await photoWithDisc(2000, 2500, 'jpeg');
  }, 60_000);

  it.each([
    ['a half-page slot, the disc on the right', 'right', { width: 1053, height: 3087 }],
    ['a full-page slot, the disc on the right', 'right', { width: 2180, height: 3087 }],
    ['a full-bleed cover, the disc low in the middle', 'low', { width: 2551, height: 3579 }],
  ] as const)(
    'crops %s around the disc, near where sharp itself would',
    async (_name, which, slot) => {
      const photo = which === 'right' ? right : low;
      const discX = which === 'right' ? 3100 : 2000;
      const crop = await attentionCoverCrop(() => sharp(photo), 'jpeg', { width: W, height: H }, slot);
      expect(crop).toBeDefined();
      const scale = Math.max(slot.width / W, slot.height / H);
      expect(crop!.width).toBe(Math.round(W * scale));
      expect(crop!.height).toBe(slot.height);
      // The whole disc lies inside the slot's part of the cover-sized photo.
      expect(crop!.left).toBeLessThanOrEqual((discX - RADIUS) * scale);
      expect(crop!.left + slot.width).toBeGreaterThanOrEqual((discX + RADIUS) * scale);
      expect(crop!.top).toBe(0);
      // Where the disc leaves room, attention is a judgement on noise: near sharp's own choice, not equal to it.
      const own = await sharpsOwnCrop(photo, slot);
      expect(Math.abs(crop!.left - own.left)).toBeLessThanOrEqual(crop!.width / 20);
    },
    30_000,
  );

  it("leaves small slots, formats decoded in full and slots of the photo's own proportions to sharp", async () => {
    const upright = { width: W, height: H };
    const open = () => sharp(right);
    expect(await attentionCoverCrop(open, 'jpeg', upright, { width: 1053, height: 1490 })).toBeUndefined(); // 3 MP when covered
    expect(await attentionCoverCrop(open, 'jpeg', upright, { width: 2400, height: 1800 })).toBeUndefined(); // nothing to crop
    const png = await photoWithDisc(3100, 800, 'png');
    expect(await attentionCoverCrop(() => sharp(png), 'png', upright, { width: 1053, height: 3087 })).toBeUndefined();
  }, 30_000);
});
