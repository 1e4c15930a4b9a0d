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
    pdfUrl: Type.String({ description: 'The print-ready PDF: cover first, then the interior pages' }),
    manifestUrl: Type.String({ description: 'The job manifest (JSON) handed to the printer with the PDF' }),
    pages: Type.Integer({ description: 'Pages in the PDF, cover included' }),
    expiresAt: Type.Integer({ description: 'Unix seconds after which both URLs are refused; ask again for fresh ones' }),
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

/** Signed, expiring URLs of a line's PDF and manifest once they exist, for the client that owns the order. */
export function printFilesOf(line: Pick<OrderLine, 'pdfKey' | 'manifestKey' | 'pageCount'>, files: FileStore): PrintFilesView | undefined {
  if (!line.pdfKey || !line.manifestKey || line.pageCount == null) return undefined;
  const pdf = files.signedUrl(line.pdfKey);
  return {
    pdfUrl: pdf.url,
    manifestUrl: files.signedUrl(line.manifestKey).url,
    pages: line.pageCount + 1, // the cover, then `pageCount` interior pages (assemblePrintFiles)
    expiresAt: pdf.expiresAt,
  };
}
