import { Type, type Static } from 'typebox';
import type { OrderLine } from '../../db/entities';
import type { FileStore } from '../../storage/file-store';

/**
 * Print files of an order line: `<client>/<env>/orders/<order uuid>/<line uuid>/…` in the FileStore;
 * named by the line, never by the project id (the editor link's credential).
 */
export function printFilesPrefix(line: OrderLine): string {
  return `${line.order.client.id}/${line.order.env}/orders/${line.order.id}/${line.id}`;
}

export const PrintFilesView = Type.Object(
  {
    coverPdfUrl: Type.Optional(
      Type.String({ description: 'cover.pdf: the cover sheet (back, spine, front with wrap and bleed) on one page' }),
    ),
    coverPreviewUrl: Type.Optional(
      Type.String({ description: 'A 1200 px wide JPEG of the rendered cover sheet, to show the spread as it prints' }),
    ),
    interiorPdfUrl: Type.String({ description: "interior.pdf: the book's interior pages" }),
    pdfUrl: Type.String({
      description:
        'Deprecated: the same as interiorPdfUrl (a line rendered before cover sheets: its one PDF, cover first)',
    }),
    manifestUrl: Type.String({
      description:
        'The job manifest (JSON) naming both PDFs with their sizes and SHA-256, handed to the printer with them',
    }),
    pages: Type.Integer({ description: 'Pages printed: the cover plus the interior pages' }),
    expiresAt: Type.Integer({ description: 'Unix seconds after which the URLs are refused; ask again for fresh ones' }),
  },
  { description: 'Signed URLs of the print files; absent until the line is rendered' },
);
export type PrintFilesView = Static<typeof PrintFilesView>;

export const OrderPrintFiles = Type.Object({
  orderId: Type.String(),
  lines: Type.Array(
    Type.Object({
      projectId: Type.String(),
      status: Type.String({ description: 'Order status of the line' }),
      printFiles: Type.Optional(PrintFilesView),
    }),
  ),
});
export type OrderPrintFiles = Static<typeof OrderPrintFiles>;

/** The preview of the cover sheet lies beside its PDF. */
export function coverPreviewKeyOf(coverPdfKey: string): string {
  return coverPdfKey.replace(/[^/]+$/, 'cover-preview.jpg');
}

/** Signed, expiring URLs of a line's PDFs and manifest once they exist, for the client that owns the order. */
export function printFilesOf(
  line: Pick<OrderLine, 'coverPdfKey' | 'pdfKey' | 'manifestKey' | 'pageCount'>,
  files: FileStore,
): PrintFilesView | undefined {
  if (!line.pdfKey || !line.manifestKey || line.pageCount == null) return undefined;
  const pdf = files.signedUrl(line.pdfKey);
  return {
    ...(line.coverPdfKey
      ? {
          coverPdfUrl: files.signedUrl(line.coverPdfKey).url,
          coverPreviewUrl: files.signedUrl(coverPreviewKeyOf(line.coverPdfKey)).url,
        }
      : {}),
    interiorPdfUrl: pdf.url,
    pdfUrl: pdf.url,
    manifestUrl: files.signedUrl(line.manifestKey).url,
    pages: line.pageCount + 1, // the cover, and `pageCount` interior pages (BookProduction.assemblePrintFiles)
    expiresAt: pdf.expiresAt,
  };
}
