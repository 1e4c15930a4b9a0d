/** Below this a placed photo prints visibly pixelated. */
export const LOW_DPI = 150;
/** Below this it may look soft at arm's length. */
export const SOFT_DPI = 250;

/**
 * Photo pixels per inch of paper when a photo of photoWidth x photoHeight fills a slot of
 * slotWidthPx x slotHeightPx at `dpi`, cropped to fill (cover): the limiting axis decides.
 */
export function effectiveDpi(photoWidth: number, photoHeight: number, slotWidthPx: number, slotHeightPx: number, dpi: number): number {
  const scale = Math.max(slotWidthPx / photoWidth, slotHeightPx / photoHeight);
  return dpi / scale;
}

export function dpiWarning(dpi: number): string | undefined {
  if (dpi < LOW_DPI) return `low resolution: ${Math.round(dpi)} DPI on paper, prints pixelated (aim for 300)`;
  if (dpi < SOFT_DPI) return `may look soft: ${Math.round(dpi)} DPI on paper (aim for 300)`;
  return undefined;
}
