import type { CropRect } from '../domain/slot-crop';

/** A rectangle in whole pixels. */
export interface PixelRect {
  left: number;
  top: number;
  width: number;
  height: number;
}

/**
 * A crop rectangle (0..1 of the upright photo, domain/slot-crop.ts) in whole pixels of the upright
 * photo, at least one: what sharp extracts before resizing it into its slot or cover.
 */
export function photoRegion(photo: { width: number; height: number }, crop: CropRect): PixelRect {
  const left = Math.min(photo.width - 1, Math.round(crop.left * photo.width));
  const top = Math.min(photo.height - 1, Math.round(crop.top * photo.height));
  return {
    left,
    top,
    width: Math.max(1, Math.min(photo.width - left, Math.round(crop.width * photo.width))),
    height: Math.max(1, Math.min(photo.height - top, Math.round(crop.height * photo.height))),
  };
}
