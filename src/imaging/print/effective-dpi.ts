/**
 * Below this a placed photo is not printed at all: a tenth of print resolution, each photo pixel
 * nearly a millimetre wide on paper (the preflight's blocking floor).
 */
export const UNPRINTABLE_DPI = 30;
/** Below this a placed photo prints visibly pixelated. */
export const LOW_DPI = 150;
/** Below this it may look soft at reading distance (print resolution is 300). */
export const SOFT_DPI = 250;

/**
 * Photo pixels per inch of paper when a photo (upright size in pixels) fills a slot (size in
 * inches on the page) cropped to fill, "cover": the photo is scaled until both sides cover the slot,
 * so the side with fewer pixels per inch decides. Example: 600 x 400 px over a full A4 page
 * (8.27 x 11.69 in) gives min(600 / 8.27, 400 / 11.69) = 34 DPI. A slot's `zoom` (domain/slot-crop.ts)
 * spreads a part of the photo 1/zoom as wide over the same slot: zoom 2 halves the DPI.
 */
export function effectiveDpi(
  photo: { width: number; height: number },
  slotInches: { width: number; height: number },
  zoom = 1,
): number {
  if (!(photo.width > 0 && photo.height > 0 && slotInches.width > 0 && slotInches.height > 0)) {
    throw new RangeError(
      `effectiveDpi needs positive sizes, got photo ${photo.width}x${photo.height}, slot ${slotInches.width}x${slotInches.height} in`,
    );
  }
  return Math.min(photo.width / slotInches.width, photo.height / slotInches.height) / Math.max(1, zoom);
}

/** The warning for a placed photo's effective DPI, or undefined when it prints sharp. */
export function dpiWarning(dpi: number): string | undefined {
  if (dpi < LOW_DPI) return `low resolution: ${Math.round(dpi)} DPI on paper, prints pixelated (aim for 300)`;
  if (dpi < SOFT_DPI) return `may look soft: ${Math.round(dpi)} DPI on paper (aim for 300)`;
  return undefined;
}
