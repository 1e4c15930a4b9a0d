import type { PrintWarning } from '../../domain/print-warning';
import type { BookPdf } from './book-pdf';
import { mmToPt, pagePixels, type PrintFormat } from './print-geometry';

/** A box's size in the three units a printer, a PDF tool and an image tool each think in. */
export interface PrintSize {
  widthMm: number;
  heightMm: number;
  widthPt: number;
  heightPt: number;
  widthPx: number;
  heightPx: number;
}

/**
 * What the printer and an operator need to check a job without opening the PDF: the page count,
 * the page sizes (trim and with bleed, in mm, points and pixels at the DPI), the PDF's size and
 * SHA-256, each page's JPEG checksum, and the resolution warnings.
 */
export interface PrintManifest {
  orderId: string;
  projectId: string;
  sku: string;
  quantity: number;
  /** PDF pages: the cover plus the interior pages. */
  pageCount: number;
  interiorPageCount: number;
  dpi: number;
  bleedMm: number;
  /** The finished page (PDF TrimBox). */
  trim: PrintSize;
  /** The page with bleed on every side (PDF MediaBox and BleedBox; each page image's size). */
  media: PrintSize;
  pdf: { file: string; bytes: number; sha256: string };
  /** In PDF order: page 1 is the cover. */
  pages: { pdfPage: number; bookPage: 'cover' | number; jpegSha256: string; jpegBytes: number }[];
  warnings: PrintWarning[];
  createdAt: string;
}

export function buildManifest(input: {
  orderId: string;
  projectId: string;
  sku: string;
  quantity: number;
  format: PrintFormat;
  pdf: BookPdf;
  warnings: PrintWarning[];
  pdfFile?: string;
  createdAt?: Date;
}): PrintManifest {
  const { format, pdf } = input;
  const px = pagePixels(format);
  const mediaMm = { width: format.widthMm + 2 * format.bleedMm, height: format.heightMm + 2 * format.bleedMm };
  return {
    orderId: input.orderId,
    projectId: input.projectId,
    sku: input.sku,
    quantity: input.quantity,
    pageCount: pdf.pageCount,
    interiorPageCount: pdf.pageCount - 1,
    dpi: format.dpi,
    bleedMm: format.bleedMm,
    trim: {
      widthMm: format.widthMm,
      heightMm: format.heightMm,
      widthPt: round(mmToPt(format.widthMm)),
      heightPt: round(mmToPt(format.heightMm)),
      widthPx: px.width - 2 * px.bleed,
      heightPx: px.height - 2 * px.bleed,
    },
    media: { widthMm: mediaMm.width, heightMm: mediaMm.height, widthPt: round(pdf.mediaBox.widthPt), heightPt: round(pdf.mediaBox.heightPt), widthPx: px.width, heightPx: px.height },
    pdf: { file: input.pdfFile ?? 'book.pdf', bytes: pdf.bytes, sha256: pdf.sha256 },
    pages: pdf.pages.map((page, i) => ({ pdfPage: i + 1, bookPage: i === 0 ? 'cover' : i, jpegSha256: page.sha256, jpegBytes: page.bytes })),
    warnings: input.warnings,
    createdAt: (input.createdAt ?? new Date()).toISOString(),
  };
}

function round(points: number): number {
  return Math.round(points * 100) / 100;
}
