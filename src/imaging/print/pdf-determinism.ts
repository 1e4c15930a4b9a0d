import type { Hash } from 'node:crypto';

/**
 * What PDFKit (0.17.x) would put in every file that differs between two renders of one book: the
 * Info dictionary's CreationDate (the time of writing) and the trailer's /ID (an MD5 of that
 * time). A proof's SHA-256 must be the SHA-256 of what the printer receives, so the same book
 * must give the same bytes.
 */

/** A fixed date for what PDFKit insists on dating: its XMP packet (PDF 1.4 and later) reads CreationDate. */
const FIXED_DATE = new Date(0);

/**
 * Leaves CreationDate out of the Info dictionary: PDFKit writes the enumerable keys of `info`, and
 * its XMP packet still finds the (fixed) date it reads. Call right after `new PDFDocument(...)`.
 */
export function withoutTimestamps(doc: PDFKit.PDFDocument): void {
  const info = (doc as unknown as { info: Record<string, unknown> }).info;
  delete info.CreationDate;
  Object.defineProperty(info, 'CreationDate', { value: FIXED_DATE, enumerable: false, configurable: true });
}

/**
 * The trailer's /ID from the document's content (a digest of what the caller fed the hash: the
 * pages it placed, its title, its format) instead of the time of writing. Call before `doc.end()`,
 * which writes the trailer.
 */
export function contentDerivedId(doc: PDFKit.PDFDocument, content: Hash): void {
  (doc as unknown as { _id: Buffer })._id = content.digest().subarray(0, 16);
}
