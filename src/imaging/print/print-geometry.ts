/** A product's print format: trim size and bleed in millimetres, resolution in dots per inch. */
export interface PrintFormat {
  widthMm: number;
  heightMm: number;
  bleedMm: number;
  dpi: number;
}

const MM_PER_INCH = 25.4;
const POINTS_PER_INCH = 72;

/** Pixel size of one page including bleed on every side. */
export function pagePixels(format: PrintFormat): { width: number; height: number; bleed: number } {
  const px = (mm: number) => Math.round((mm / MM_PER_INCH) * format.dpi);
  return { width: px(format.widthMm + 2 * format.bleedMm), height: px(format.heightMm + 2 * format.bleedMm), bleed: px(format.bleedMm) };
}

/** PDF boxes in points: MediaBox/BleedBox is the page with bleed, TrimBox the finished page. */
export function pageBoxes(format: PrintFormat): { mediaBox: [number, number]; trimBox: [number, number, number, number] } {
  const pt = (mm: number) => (mm / MM_PER_INCH) * POINTS_PER_INCH;
  const width = pt(format.widthMm + 2 * format.bleedMm);
  const height = pt(format.heightMm + 2 * format.bleedMm);
  const bleed = pt(format.bleedMm);
  return { mediaBox: [width, height], trimBox: [bleed, bleed, width - bleed, height - bleed] };
}
