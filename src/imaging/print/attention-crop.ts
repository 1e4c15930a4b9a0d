import sharp, { type Sharp } from 'sharp';

interface Size {
  width: number;
  height: number;
}

/** The photo resized to cover the slot (`width` x `height`), and where the slot lies in it. */
export interface CoverCrop extends Size {
  left: number;
  top: number;
}

/** Formats whose decoder can shrink on load, so a small copy costs a fraction of a full decode. */
const SHRINK_ON_LOAD = new Set(['jpeg', 'webp']);
/** Below this many pixels of cover-sized image, sharp's own attention crop costs less than a second decode. */
const SMALL_COPY_FROM_PIXELS = 4_000_000;
/** Longer side of the small copy the crop is chosen on. */
const SMALL_COPY_SIDE = 256;

/**
 * Where sharp's attention strategy would crop the photo to fill `slot`, chosen on a copy whose
 * longer side is 256 px, when that is cheaper than choosing it on the photo resized to cover the
 * slot: sharp analyses that whole image, which for a large slot costs several times the small copy
 * (docs/performance.md). On photos with one salient region the crop
 * keeps it and lands within a few pixels of sharp's own (test/imaging/print/attention-crop.test.ts
 * allows 5%: on an even background the choice is a judgement on noise). Undefined when sharp's own
 * crop is the cheaper (a small slot, a format that must be decoded in full) or when there is
 * nothing to crop.
 *
 * `prepared` opens the photo as the page will use it (upright, flattened, corrected), so the
 * attention is judged on the same pixels.
 */
export async function attentionCoverCrop(
  prepared: () => Sharp,
  format: string | undefined,
  upright: Size,
  slot: Size,
): Promise<CoverCrop | undefined> {
  const cover = coverSize(upright, slot);
  if (cover.width === slot.width && cover.height === slot.height) return undefined;
  if (!format || !SHRINK_ON_LOAD.has(format) || cover.width * cover.height < SMALL_COPY_FROM_PIXELS) return undefined;

  const scale = Math.min(1, SMALL_COPY_SIDE / Math.max(slot.width, slot.height));
  const smallSlot = {
    width: Math.max(1, Math.round(slot.width * scale)),
    height: Math.max(1, Math.round(slot.height * scale)),
  };
  const { info } = await prepared()
    .resize(smallSlot.width, smallSlot.height, { fit: 'cover', position: sharp.strategy.attention })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const smallCover = coverSize(upright, smallSlot);
  // sharp reports where the crop starts as a negative offset of the cover-sized image.
  const left = Math.round((-(info.cropOffsetLeft ?? 0) * cover.width) / smallCover.width);
  const top = Math.round((-(info.cropOffsetTop ?? 0) * cover.height) / smallCover.height);
  return { ...cover, left: clamp(left, 0, cover.width - slot.width), top: clamp(top, 0, cover.height - slot.height) };
}

/** The photo scaled, keeping its proportions, to the smallest size that fills `slot`. */
function coverSize(photo: Size, slot: Size): Size {
  const scale = Math.max(slot.width / photo.width, slot.height / photo.height);
  return {
    width: Math.max(slot.width, Math.round(photo.width * scale)),
    height: Math.max(slot.height, Math.round(photo.height * scale)),
  };
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}
