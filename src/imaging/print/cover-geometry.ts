import { isCaseBound, type Binding, type ProductProduction } from '../../domain/print-production';
import { mmToPt, mmToPx, type PrintFormat } from './print-geometry';

/** A box on the cover sheet, origin at the sheet's top-left corner (x right, y down), in mm and PDF points. */
export interface SheetBox {
  xMm: number;
  yMm: number;
  widthMm: number;
  heightMm: number;
  xPt: number;
  yPt: number;
  widthPt: number;
  heightPt: number;
}

/**
 * The cover sheet of one book: back, spine and front side by side, the hinges between them on a
 * case-bound book, the wrap turned in over the boards all round, and the bleed outside everything.
 * Its width changes with the page count: the spine is the block (one leaf per two pages) plus the
 * cover material on both sides.
 */
export interface CoverGeometry {
  binding: Binding;
  pages: number;
  /** The whole sheet, bleed included: the PDF page (MediaBox and BleedBox). */
  widthMm: number;
  heightMm: number;
  widthPt: number;
  heightPt: number;
  spineWidthMm: number;
  bleedMm: number;
  wrapMm: number;
  hingeMm: number;
  /** Whether the spine is thick enough for its text (the product's `spineTextMinPages`). */
  spineText: boolean;
  /** The sheet as cut: the sheet less the bleed (the PDF TrimBox). */
  trim: SheetBox;
  back: SheetBox;
  spine: SheetBox;
  front: SheetBox;
}

/** Rounded to a hundredth of a millimetre or point: what a printer's tolerance can tell apart and no more. */
const round = (value: number) => Math.round(value * 100) / 100;

function box(xMm: number, yMm: number, widthMm: number, heightMm: number): SheetBox {
  return {
    xMm: round(xMm),
    yMm: round(yMm),
    widthMm: round(widthMm),
    heightMm: round(heightMm),
    xPt: round(mmToPt(xMm)),
    yPt: round(mmToPt(yMm)),
    widthPt: round(mmToPt(widthMm)),
    heightPt: round(mmToPt(heightMm)),
  };
}

/** The spine: one leaf per two pages, plus the board (or card) on each side of the block. */
function spineWidthMm(production: ProductProduction, pages: number): number {
  return (pages / 2) * production.leafThicknessMm + 2 * production.boardThicknessMm;
}

/**
 * The cover sheet for a book of `pages` interior pages (even, at least 2; the product's own bounds
 * are the service's to check). A softcover has no wrap and no hinge whatever its data says.
 */
export function coverGeometry(
  format: Pick<PrintFormat, 'widthMm' | 'heightMm' | 'bleedMm'>,
  production: ProductProduction,
  pages: number,
): CoverGeometry {
  if (!Number.isInteger(pages) || pages < 2 || pages % 2 !== 0)
    throw new RangeError(`a cover needs an even page count of at least 2, got ${pages}`);
  const caseBound = isCaseBound(production.binding);
  const wrap = caseBound ? production.wrapMm : 0;
  const hinge = caseBound ? production.hingeMm : 0;
  const bleed = format.bleedMm;
  const spine = spineWidthMm(production, pages);
  const width = 2 * bleed + 2 * wrap + 2 * format.widthMm + 2 * hinge + spine;
  const height = 2 * bleed + 2 * wrap + format.heightMm;
  const top = bleed + wrap;
  const backX = bleed + wrap;
  const spineX = backX + format.widthMm + hinge;
  const frontX = spineX + spine + hinge;
  return {
    binding: production.binding,
    pages,
    widthMm: round(width),
    heightMm: round(height),
    widthPt: round(mmToPt(width)),
    heightPt: round(mmToPt(height)),
    spineWidthMm: round(spine),
    bleedMm: bleed,
    wrapMm: wrap,
    hingeMm: hinge,
    spineText: pages >= production.spineTextMinPages,
    trim: box(bleed, bleed, width - 2 * bleed, height - 2 * bleed),
    back: box(backX, top, format.widthMm, format.heightMm),
    spine: box(spineX, top, spine, format.heightMm),
    front: box(frontX, top, format.widthMm, format.heightMm),
  };
}

/** A box in whole pixels at `dpi`, each edge rounded once from millimetres, so adjacent boxes share their edges. */
export interface PixelBox {
  left: number;
  top: number;
  width: number;
  height: number;
}

export function boxPixels(b: Pick<SheetBox, 'xMm' | 'yMm' | 'widthMm' | 'heightMm'>, dpi: number): PixelBox {
  const left = mmToPx(b.xMm, dpi);
  const top = mmToPx(b.yMm, dpi);
  return { left, top, width: mmToPx(b.xMm + b.widthMm, dpi) - left, height: mmToPx(b.yMm + b.heightMm, dpi) - top };
}

/**
 * The sheet as a print format: its trim the sheet less the bleed. The cover's pixels, PDF boxes and
 * page checks then come from the same functions as an interior page's (print-geometry.ts).
 */
export function coverSheetFormat(geometry: CoverGeometry, dpi: number): PrintFormat {
  return { widthMm: geometry.trim.widthMm, heightMm: geometry.trim.heightMm, bleedMm: geometry.bleedMm, dpi };
}
