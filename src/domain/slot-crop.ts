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
 * Kept around a face as well where the slot has room, as a share of its box's width (each side) and
 * height (above, below): the hair, the ears and the neck. A face's box runs from the forehead to
 * the chin (face-detector.ts maps the network's box, 0.63 of it wide and 0.96 tall, to it). About
 * the room the crop kept around the network's own box before (0.15 of it at the sides and below, 0.3
 * above): above 0.19 / 0.96 and below 0.29 / 0.96 of the face's height; at the sides half its width,
 * which reaches 0.125 of the network's box past it rather than 0.15.
 */
const FACE_MARGIN = { side: 0.5, above: 0.2, below: 0.3 };

/**
 * The automatic crop of a slot nobody cropped, from the same numbers on the editor's side (GraphQL
 * `PhotoSlot.cropRect`) and the print render's: just covering (zoom 1, the most of the photo a slot
 * shows, so no face is lost to zooming and the DPI is the photo's best), moved as little as it can
 * from the centred crop so that every face found in the photo (`faces`) lies inside `safe`, the
 * part of the slot clear of the trim, the bleed and the gutter (print-safe-area.ts; a spread's slot
 * has one such area each side of the fold, and a face is kept wholly inside one).
 *
 * Which faces are kept is decided on their bare boxes, largest first, each that can join those
 * before it (a margin must not push a second face out of a slot both fit in); one that cannot is left
 * to fall where it may. Then the kept faces get as much of FACE_MARGIN as fits, the same share for
 * all: in a narrow slot with less room than the margin, the room is shared out on both sides in the
 * margin's proportions instead of the face being pushed against one edge, which leaves it the most
 * room for a box that is a little off. The largest face, when it cannot fit at all, is shown as far
 * in as the photo allows: too near the photo's edge, at that edge; larger than the safe area, centred
 * on it (equally cut at both sides). Without faces, AUTOMATIC_CROP.
 */
export function automaticCrop(
  photo: { width: number; height: number },
  slot: { width: number; height: number },
  faces: readonly FaceBox[] | null | undefined,
  safe: SlotArea | readonly SlotArea[],
): SlotCrop {
  if (!faces?.length) return AUTOMATIC_CROP;
  // A spread's slot has a safe area each side of the fold: a face is kept inside one of them.
  const areas: readonly SlotArea[] = Array.isArray(safe) ? safe : [safe as SlotArea];
  const window = cropRect(photo, slot, AUTOMATIC_CROP);
  const centred = { x: 0.5 - window.width / 2, y: 0.5 - window.height / 2 };
  const whole: Starts = { x: { min: 0, max: 1 - window.width }, y: { min: 0, max: 1 - window.height } };
  // The window starts keeping `kept`, each with `share` of its margin on each axis, or null.
  const keeping = (from: Starts, kept: readonly FaceBox[], share: { x: number; y: number }): Starts | null => {
    let starts: Starts | null = from;
    for (const face of kept) {
      if (!starts) return null;
      const within: Starts = starts;
      // Of the areas, the one nearest the centred crop.
      starts =
        areas
          .map((area) => {
            const fit = startsKeepingFace(face, share, window, area);
            return { x: intersectRange(within.x, fit.x), y: intersectRange(within.y, fit.y) };
          })
          .filter((fit): fit is Starts => !!fit.x && !!fit.y)
          .sort((a, b) => distance(centred.x, a.x) - distance(centred.x, b.x))[0] ?? null;
    }
    return starts;
  };
  const largestFirst = [...faces].sort((a, b) => b.width * b.height - a.width * a.height);
  let from = whole;
  if (!keeping(whole, [largestFirst[0]], NONE)) {
    // The largest face is larger than the safe area, or too near the photo's edge for it: as much of it as can be.
    const bare = startsKeepingFace(largestFirst[0], NONE, window, areas[0]);
    from = { x: nearestRange(whole.x, bare.x), y: nearestRange(whole.y, bare.y) };
  }
  // Which faces are kept: largest first, each that can join those before it, boxes bare.
  const kept: FaceBox[] = [];
  for (const face of largestFirst) if (keeping(from, [...kept, face], NONE)) kept.push(face);
  // Then as much of their margin as still fits, the same share for every kept face: first on both
  // axes, then more on either where the other has no more room.
  const both = largestShare((t) => !!keeping(from, kept, { x: t, y: t }));
  const x = largestShare((t) => !!keeping(from, kept, { x: Math.max(t, both), y: both }));
  const y = largestShare((t) => !!keeping(from, kept, { x: Math.max(x, both), y: Math.max(t, both) }));
  const starts = keeping(from, kept, { x: Math.max(x, both), y: Math.max(y, both) }) ?? from;
  const left = clamp(centred.x, starts.x.min, starts.x.max);
  const top = clamp(centred.y, starts.y.min, starts.y.max);
  return { x: left + window.width / 2, y: top + window.height / 2, zoom: 1 };
}

const NONE = { x: 0, y: 0 };

interface Starts {
  x: Range;
  y: Range;
}

/**
 * The largest share (0..1) of the margin that `fits` (fits(0) is known to hold), halving the
 * interval down to 1e-12: the kept faces' areas and the photo's edges make the limit piecewise, and
 * 40 halvings cost microseconds.
 */
function largestShare(fits: (share: number) => boolean): number {
  if (fits(1)) return 1;
  let low = 0;
  let high = 1;
  for (let i = 0; i < 40; i++) {
    const mid = (low + high) / 2;
    if (fits(mid)) low = mid;
    else high = mid;
  }
  return low;
}

/** How far `at` is from the nearest start in `range`. */
function distance(at: number, range: Range): number {
  return Math.abs(clamp(at, range.min, range.max) - at);
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
/** Where the window may start, on each axis, keeping `face` with `share` of its margin inside `area`. */
function startsKeepingFace(
  face: FaceBox,
  share: { x: number; y: number },
  window: { width: number; height: number },
  area: SlotArea,
): Starts {
  return {
    x: startsKeeping(
      face.x,
      face.width,
      FACE_MARGIN.side * share.x,
      FACE_MARGIN.side * share.x,
      window.width,
      area.left,
      area.right,
    ),
    y: startsKeeping(
      face.y,
      face.height,
      FACE_MARGIN.above * share.y,
      FACE_MARGIN.below * share.y,
      window.height,
      area.top,
      area.bottom,
    ),
  };
}

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
  // `b` empty (min past max: the face is larger than the safe area) asks for its middle, the face centred on the safe area.
  const wanted = b.min > b.max ? (b.min + b.max) / 2 : b.max < a.min ? a.min : a.max;
  const at = clamp(wanted, a.min, a.max);
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
