/** A product's print format: trim size and bleed in millimetres, resolution in dots per inch. */
export interface PrintFormat {
  widthMm: number;
  heightMm: number;
  bleedMm: number;
  dpi: number;
}

export const MM_PER_INCH = 25.4;
const POINTS_PER_INCH = 72;

/** Millimetres to PDF points (1/72 inch). */
export function mmToPt(mm: number): number {
  return (mm / MM_PER_INCH) * POINTS_PER_INCH;
}

/** Millimetres to whole pixels at `dpi`. */
export function mmToPx(mm: number, dpi: number): number {
  return Math.round((mm / MM_PER_INCH) * dpi);
}

/**
 * Pixel size of one page including bleed on every side (A4 210 x 297 mm + 3 mm bleed at 300 DPI:
 * 2551 x 3579), and the bleed in pixels: the trim box starts `bleed` pixels in from the left and
 * top edge. Each side is rounded once from millimetres, so the image is the page's physical size
 * to within half a pixel.
 */
export function pagePixels(format: PrintFormat): { width: number; height: number; bleed: number } {
  assertFormat(format);
  return {
    width: mmToPx(format.widthMm + 2 * format.bleedMm, format.dpi),
    height: mmToPx(format.heightMm + 2 * format.bleedMm, format.dpi),
    bleed: mmToPx(format.bleedMm, format.dpi),
  };
}

/** The trim box in pixels inside the full-bleed page: what slot coordinates (0..1) are relative to. */
export function trimPixels(format: PrintFormat): { left: number; top: number; width: number; height: number } {
  const page = pagePixels(format);
  return {
    left: page.bleed,
    top: page.bleed,
    width: page.width - 2 * page.bleed,
    height: page.height - 2 * page.bleed,
  };
}

/**
 * PDF page boxes in points (PDF user space: origin bottom-left). MediaBox and BleedBox are the page
 * with bleed (the printer's sheet is cut at the TrimBox; everything up to the BleedBox may print);
 * TrimBox is the finished page. Arrays are `[llx, lly, urx, ury]`, as the PDF writes them.
 */
export interface PageBoxes {
  mediaBox: { widthPt: number; heightPt: number };
  trimBox: { leftPt: number; bottomPt: number; widthPt: number; heightPt: number };
  mediaBoxArray: [number, number, number, number];
  bleedBoxArray: [number, number, number, number];
  trimBoxArray: [number, number, number, number];
}

export function pageBoxes(format: PrintFormat): PageBoxes {
  assertFormat(format);
  const widthPt = mmToPt(format.widthMm + 2 * format.bleedMm);
  const heightPt = mmToPt(format.heightMm + 2 * format.bleedMm);
  const bleedPt = mmToPt(format.bleedMm);
  const media: [number, number, number, number] = [0, 0, widthPt, heightPt];
  return {
    mediaBox: { widthPt, heightPt },
    trimBox: { leftPt: bleedPt, bottomPt: bleedPt, widthPt: mmToPt(format.widthMm), heightPt: mmToPt(format.heightMm) },
    mediaBoxArray: media,
    bleedBoxArray: [...media],
    trimBoxArray: [bleedPt, bleedPt, widthPt - bleedPt, heightPt - bleedPt],
  };
}

function assertFormat(format: PrintFormat): void {
  const { widthMm, heightMm, bleedMm, dpi } = format;
  if (
    !(widthMm > 0 && heightMm > 0 && bleedMm >= 0 && dpi > 0) ||
    ![widthMm, heightMm, bleedMm, dpi].every(Number.isFinite)
  ) {
    throw new RangeError(
      `invalid print format ${JSON.stringify(format)}: sizes in mm and dpi must be positive numbers`,
    );
  }
}
