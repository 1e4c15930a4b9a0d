import type { PrintWarning } from '../../db/entities/OrderLine';
import type { BookPdf } from './book-pdf';
import { pagePixels, type PrintFormat } from './print-geometry';

/** What the printer and an operator need to check a job without opening the PDF. */
export interface PrintManifest {
  orderId: string;
  projectId: string;
  sku: string;
  quantity: number;
  /** Cover plus interior pages. */
  pageCount: number;
  page: PrintFormat & { mediaBoxPt: [number, number]; trimBoxPt: [number, number, number, number]; widthPx: number; heightPx: number };
  pdf: { file: 'book.pdf'; bytes: number; sha256: string };
  warnings: PrintWarning[];
  createdAt: string;
}

export function buildManifest(input: { orderId: string; projectId: string; sku: string; quantity: number; format: PrintFormat; pdf: BookPdf; warnings: PrintWarning[] }): PrintManifest {
  const px = pagePixels(input.format);
  return {
    orderId: input.orderId,
    projectId: input.projectId,
    sku: input.sku,
    quantity: input.quantity,
    pageCount: input.pdf.pageCount,
    page: { ...input.format, mediaBoxPt: input.pdf.mediaBoxPt, trimBoxPt: input.pdf.trimBoxPt, widthPx: px.width, heightPx: px.height },
    pdf: { file: 'book.pdf', bytes: input.pdf.bytes, sha256: input.pdf.sha256 },
    warnings: input.warnings,
    createdAt: new Date().toISOString(),
  };
}
