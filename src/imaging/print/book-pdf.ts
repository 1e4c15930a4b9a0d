import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { finished } from 'node:stream/promises';
import PDFDocument from 'pdfkit';
import { pageBoxes, type PrintFormat } from './print-geometry';

export interface BookPdf {
  pageCount: number;
  bytes: number;
  sha256: string;
  mediaBoxPt: [number, number];
  trimBoxPt: [number, number, number, number];
}

/**
 * Writes the book's PDF page by page with PDFKit, which writes each page's objects (the JPEG as
 * DCTDecode, not re-encoded) to the file as soon as the page is done: memory holds one page, not
 * the book. (pdf-lib, by contrast, keeps every embedded image until `save()`.) MediaBox and
 * BleedBox are the page with bleed; TrimBox is the finished size.
 */
export async function writeBookPdf(options: { path: string; format: PrintFormat; pages: AsyncIterable<Buffer> }): Promise<BookPdf> {
  const { mediaBox, trimBox } = pageBoxes(options.format);
  const doc = new PDFDocument({ autoFirstPage: false, compress: true, info: { Title: 'Photobook', Producer: 'photobook-service' } });
  const out = createWriteStream(options.path);
  doc.pipe(out);
  let pageCount = 0;
  for await (const jpeg of options.pages) {
    doc.addPage({ size: mediaBox, margin: 0 });
    const dictionary = (doc.page as unknown as { dictionary: { data: Record<string, unknown> } }).dictionary.data;
    dictionary.TrimBox = trimBox;
    dictionary.BleedBox = [0, 0, mediaBox[0], mediaBox[1]];
    doc.image(jpeg, 0, 0, { width: mediaBox[0], height: mediaBox[1] });
    pageCount++;
  }
  doc.end();
  await finished(out);
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(options.path)) hash.update(chunk as Buffer);
  return { pageCount, bytes: (await stat(options.path)).size, sha256: hash.digest('hex'), mediaBoxPt: mediaBox, trimBoxPt: trimBox };
}
