import type { PrintWarning } from '../../domain/print-warning';
import type { PrintPdf } from '../../domain/print-output';
import { coverSheetFormat, type CoverGeometry } from './cover-geometry';
import { mmToPt, pagePixels, type PrintFormat } from './print-geometry';

/** A box's size in the three units a printer, a PDF tool and an image tool each think in. */
interface PrintSize {
  widthMm: number;
  heightMm: number;
  widthPt: number;
  heightPt: number;
  widthPx: number;
  heightPx: number;
}

/** One of the two print files: its name beside the manifest, size and SHA-256 (hex) of its bytes. */
interface PrintFileEntry {
  file: string;
  bytes: number;
  sha256: string;
  pageCount: number;
  /** The finished page (PDF TrimBox). */
  trim: PrintSize;
  /** The page with bleed on every side (PDF MediaBox and BleedBox; each page image's size). */
  media: PrintSize;
  /** The file's PDF/X flavour and its output intent's profile (the colour of every page). */
  pdfx: PrintPdf['pdfx'];
  outputProfile: PrintPdf['outputProfile'];
}

/**
 * What the printer and an operator need to check a job without opening its PDFs, as printers such
 * as Lulu and Gelato validate them: the cover sheet (`cover.pdf`, one page: back, spine, front, with
 * the geometry it was computed from) and the interior (`interior.pdf`, the book's pages), each with
 * its boxes in mm, points and pixels, its size and SHA-256, each interior page's JPEG checksum,
 * and the resolution warnings.
 */
export interface PrintManifest {
  orderId: string;
  projectId: string;
  sku: string;
  quantity: number;
  binding: CoverGeometry['binding'];
  dpi: number;
  bleedMm: number;
  cover: PrintFileEntry & { geometry: CoverGeometry; jpegSha256: string };
  interior: PrintFileEntry & { pages: { pdfPage: number; bookPage: number; jpegSha256: string; jpegBytes: number }[] };
  warnings: PrintWarning[];
  createdAt: string;
}

export const COVER_PDF_FILE = 'cover.pdf';
export const INTERIOR_PDF_FILE = 'interior.pdf';

export function buildManifest(input: {
  orderId: string;
  projectId: string;
  sku: string;
  quantity: number;
  format: PrintFormat;
  geometry: CoverGeometry;
  coverPdf: PrintPdf;
  interiorPdf: PrintPdf;
  warnings: PrintWarning[];
  createdAt?: Date;
}): PrintManifest {
  const { format, geometry, coverPdf, interiorPdf } = input;
  return {
    orderId: input.orderId,
    projectId: input.projectId,
    sku: input.sku,
    quantity: input.quantity,
    binding: geometry.binding,
    dpi: format.dpi,
    bleedMm: format.bleedMm,
    cover: {
      ...fileEntry(COVER_PDF_FILE, coverPdf, coverSheetFormat(geometry, format.dpi)),
      geometry,
      jpegSha256: coverPdf.pages[0].sha256,
    },
    interior: {
      ...fileEntry(INTERIOR_PDF_FILE, interiorPdf, format),
      pages: interiorPdf.pages.map((page, i) => ({
        pdfPage: i + 1,
        bookPage: i + 1,
        jpegSha256: page.sha256,
        jpegBytes: page.bytes,
      })),
    },
    warnings: input.warnings,
    createdAt: (input.createdAt ?? new Date()).toISOString(),
  };
}

function fileEntry(file: string, pdf: PrintPdf, format: PrintFormat): PrintFileEntry {
  const px = pagePixels(format);
  return {
    file,
    bytes: pdf.bytes,
    sha256: pdf.sha256,
    pageCount: pdf.pageCount,
    trim: {
      widthMm: format.widthMm,
      heightMm: format.heightMm,
      widthPt: round(mmToPt(format.widthMm)),
      heightPt: round(mmToPt(format.heightMm)),
      widthPx: px.width - 2 * px.bleed,
      heightPx: px.height - 2 * px.bleed,
    },
    media: {
      widthMm: round(format.widthMm + 2 * format.bleedMm),
      heightMm: round(format.heightMm + 2 * format.bleedMm),
      widthPt: round(pdf.mediaBox.widthPt),
      heightPt: round(pdf.mediaBox.heightPt),
      widthPx: px.width,
      heightPx: px.height,
    },
    pdfx: pdf.pdfx,
    outputProfile: pdf.outputProfile,
  };
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}
