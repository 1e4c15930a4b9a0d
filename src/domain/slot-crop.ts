/**
 * How a photo sits in its slot, stored per slot in the book: the point of the upright photo that the
 * slot is centred on (`x`, `y`, 0..1 of its width and height) and the zoom (1: the photo just covers
 * the slot; 2: half as much of it shows, twice as large). The editor and the print render both place
 * a photo through `cropRect`, so what the screen shows is what the paper shows.
 */
export interface SlotCrop {
  x: number;
  y: number;
  zoom: number;
}

/** The largest zoom a slot takes: beyond it a photo prints far below any DPI floor. */
export const MAX_ZOOM = 5;

/**
 * The automatic crop of a slot nobody cropped: centred, just covering. A stored number rather than a
 * guess each side makes on its own (the editor centre-cropped while print chose an attention crop).
 */
export const AUTOMATIC_CROP: SlotCrop = { x: 0.5, y: 0.5, zoom: 1 };

/** A rectangle in 0..1 of the upright photo's width and height. */
export interface CropRect {
  left: number;
  top: number;
  width: number;
  height: number;
}

/**
 * The part of the upright photo (`photo` in pixels) that fills a slot of `slot` proportions (any
 * unit, both sides in the same one): the photo covers the slot, `zoom` shows less of it, centred on
 * (`x`, `y`) as far as the photo's edges allow (a crop never shows past the photo).
 */
export function cropRect(
  photo: { width: number; height: number },
  slot: { width: number; height: number },
  crop: SlotCrop = AUTOMATIC_CROP,
): CropRect {
  const photoAspect = photo.width / photo.height;
  const slotAspect = slot.width / slot.height;
  const zoom = Math.min(MAX_ZOOM, Math.max(1, crop.zoom));
  const width = (photoAspect > slotAspect ? slotAspect / photoAspect : 1) / zoom;
  const height = (photoAspect > slotAspect ? 1 : photoAspect / slotAspect) / zoom;
  return {
    left: clamp(crop.x - width / 2, 0, 1 - width),
    top: clamp(crop.y - height / 2, 0, 1 - height),
    width,
    height,
  };
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}
