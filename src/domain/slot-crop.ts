import type { FaceBox } from './face-box';
import type { SlotArea } from './print-safe-area';

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
 * The automatic crop of a photo without faces: centred, just covering. A stored number rather than a
 * guess each side makes on its own (the editor centre-cropped while print chose an attention crop).
 */
export const AUTOMATIC_CROP: SlotCrop = { x: 0.5, y: 0.5, zoom: 1 };

/**
 * Kept around a detected face as well, as a share of its width (sides) and height (above, below):
 * the detector boxes the face from the brows to the chin, not the forehead and the hair above it.
 */
const FACE_MARGIN = { side: 0.15, above: 0.3, below: 0.15 };
const NO_MARGIN = { side: 0, above: 0, below: 0 };

/**
 * The automatic crop of a slot nobody cropped, from the same numbers on the editor's side (GraphQL
 * `PhotoSlot.cropRect`) and the print render's: just covering (zoom 1, the most of the photo a slot
 * shows, so no face is lost to zooming and the DPI is the photo's best), moved as little as it can
 * from the centred crop so that every face found in the photo (`faces`) lies inside `safe`, the
 * part of the slot clear of the trim, the bleed and the gutter (print-safe-area.ts). Faces are
 * taken largest first, each with FACE_MARGIN around it (more above, for the forehead and hair) where that still fits (else the bare box);
 * one that cannot join the faces already kept is left to fall where it may; the largest, when it
 * cannot fit at all (too near the photo's edge, or larger than the safe area), is shown as far in as the photo allows. Without faces,
 * AUTOMATIC_CROP.
 */
export function automaticCrop(
  photo: { width: number; height: number },
  slot: { width: number; height: number },
  faces: readonly FaceBox[] | null | undefined,
  safe: SlotArea,
): SlotCrop {
  if (!faces?.length) return AUTOMATIC_CROP;
  const window = cropRect(photo, slot, AUTOMATIC_CROP);
  // Where the window may start on each axis, as faces are kept.
  let xs: Range = { min: 0, max: 1 - window.width };
  let ys: Range = { min: 0, max: 1 - window.height };
  const largestFirst = [...faces].sort((a, b) => b.width * b.height - a.width * a.height);
  for (const [index, face] of largestFirst.entries()) {
    const x = [FACE_MARGIN, NO_MARGIN].map((margin) =>
      startsKeeping(face.x, face.width, margin.side, margin.side, window.width, safe.left, safe.right),
    );
    const y = [FACE_MARGIN, NO_MARGIN].map((margin) =>
      startsKeeping(face.y, face.height, margin.above, margin.below, window.height, safe.top, safe.bottom),
    );
    const kept = [0, 1]
      .map((i) => ({ x: intersectRange(xs, x[i]), y: intersectRange(ys, y[i]) }))
      .find((fit) => fit.x && fit.y);
    if (kept) {
      xs = kept.x!;
      ys = kept.y!;
    } else if (index === 0) {
      // The largest face is larger than the safe area, or too near the photo's edge for it: as much of it as can be.
      xs = nearestRange(xs, x[1]);
      ys = nearestRange(ys, y[1]);
    }
  }
  const left = clamp(0.5 - window.width / 2, xs.min, xs.max);
  const top = clamp(0.5 - window.height / 2, ys.min, ys.max);
  return { x: left + window.width / 2, y: top + window.height / 2, zoom: 1 };
}

interface Range {
  min: number;
  max: number;
}

/**
 * The window starts (one axis, 0..1 of the photo) that keep the face at `start` of `size`, grown by
 * `before` and `after` of its size within the photo, between `safeFrom` and `safeTo` (0..1 of the
 * window): start + safeFrom * window <= face's near edge, face's far edge <= start + safeTo * window.
 */
function startsKeeping(
  start: number,
  size: number,
  before: number,
  after: number,
  window: number,
  safeFrom: number,
  safeTo: number,
): Range {
  const near = Math.max(0, start - before * size);
  const far = Math.min(1, start + size + after * size);
  return { min: far - safeTo * window, max: near - safeFrom * window };
}

/** Rounding slack: a face that fits exactly must not be refused by the last bit of a float. */
const EPSILON = 1e-9;

/** The part of `a` in `b`, else the end of `a` nearest to `b`. */
function nearestRange(a: Range, b: Range): Range {
  const both = intersectRange(a, b);
  if (both) return both;
  const at = b.max < a.min ? a.min : a.max;
  return { min: at, max: at };
}

function intersectRange(a: Range, b: Range): Range | null {
  const min = Math.max(a.min, b.min);
  const max = Math.min(a.max, b.max);
  return min <= max + EPSILON ? { min, max: Math.max(min, max) } : null;
}

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
