import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { pageBoxes, pagePixels, type PrintFormat } from './print-geometry';
import { contentDerivedId, withoutTimestamps } from './pdf-determinism';

/** One page as embedded: the JPEG's own checksum, so a page can be traced to its rendered file. */
interface BookPdfPage {
  sha256: string;
  bytes: number;
  widthPx: number;
  heightPx: number;
}

export interface BookPdf {
  pageCount: number;
  /** Size of the PDF file and its SHA-256 (hex), computed from the bytes as they were written. */
  bytes: number;
  sha256: string;
  /** MediaBox (= BleedBox): the page with bleed. */
  mediaBox: { widthPt: number; heightPt: number };
  /** TrimBox: the finished page, `bleed` in from the left and bottom edge. */
  trimBox: { leftPt: number; bottomPt: number; widthPt: number; heightPt: number };
  pages: BookPdfPage[];
}

/**
 * Writes a book's print PDF, one full-bleed JPEG page after another, streaming its bytes to `write`
 * (a FileStore's streamed write: the store makes the file appear whole or not at all).
 *
 * Why PDFKit: it is maintained, and it writes every object to its output stream as soon as the
 * object is finished: the JPEG (embedded as-is, DCTDecode, never re-encoded) is written when the
 * image is placed, the page dictionary when the next page starts. So the document never holds more
 * than one page; after each page we also wait until its bytes have been written before reading
 * the next page, so a fast page source cannot pile pages up in the stream buffers. pdf-lib, the other
 * maintained candidate, keeps every embedded image in its in-memory document until `save()`: the
 * whole book (about 90 MB for 25 A4 pages) in memory at once. PDFKit has no option for the other page
 * boxes, so TrimBox and BleedBox are set in the page dictionary before it is written (it is written
 * when the page ends).
 *
 * Each page must be exactly the format's full-bleed pixel size (checked from the JPEG header):
 * the page is placed over the whole MediaBox, so that is what makes it print at the format's DPI.
 * A failure rejects, after the last awaited write; the caller's store then discards what was written.
 */
export async function writeBookPdf(options: {
  write: (chunk: Buffer) => Promise<void>;
  format: PrintFormat;
  pages: AsyncIterable<Buffer>;
  title?: string;
}): Promise<BookPdf> {
  const boxes = pageBoxes(options.format);
  const expected = pagePixels(options.format);
  // Loaded with the first book: pdfkit and its fonts are about 5 MiB of heap a process that never prints need not hold.
  const { default: PDFDocument } = await import('pdfkit');
  const doc = new PDFDocument({
    autoFirstPage: false,
    compress: true,
    info: { Title: options.title ?? 'Photobook', Producer: 'photobook-service' },
  });
  // The same book gives the same bytes (pdf-determinism.ts): a proof's sha256 is what the printer gets.
  withoutTimestamps(doc);
  const fileId = createHash('md5').update(`${options.title ?? ''}\n${JSON.stringify(options.format)}\n`);
  const output = doc as unknown as Readable;
  const hash = createHash('sha256');
  let bytes = 0;
  let writing = false;
  // Reading the document as a stream: PDFKit pauses while a write is awaited.
  const consumed = (async () => {
    for await (const chunk of output) {
      writing = true;
      hash.update(chunk as Buffer);
      bytes += (chunk as Buffer).length;
      await options.write(chunk as Buffer);
      writing = false;
    }
  })();
  consumed.catch(() => undefined);
  /** Resolves once everything PDFKit has produced so far has been written. */
  const caughtUp = async () => {
    while (output.readableLength > 0 || writing)
      await Promise.race([new Promise((resolve) => setImmediate(resolve)), consumed]);
  };

  const pages: BookPdfPage[] = [];
  try {
    for await (const jpeg of options.pages) {
      const size = jpegSize(jpeg);
      if (size.width !== expected.width || size.height !== expected.height) {
        throw new Error(
          `page ${pages.length + 1} is ${size.width}x${size.height} px; the format needs ${expected.width}x${expected.height} px (${options.format.dpi} DPI with bleed)`,
        );
      }
      doc.addPage({ size: [boxes.mediaBox.widthPt, boxes.mediaBox.heightPt], margin: 0 });
      const dictionary = (doc.page as unknown as { dictionary: { data: Record<string, unknown> } }).dictionary.data;
      dictionary.BleedBox = boxes.bleedBoxArray;
      dictionary.TrimBox = boxes.trimBoxArray;
      // Hashed before PDFKit sees the page: its EXIF reader (jpeg-exif) reverses the bytes of each
      // little-endian tag number in place, so the buffer it is given is no longer the stored file.
      pages.push({
        sha256: createHash('sha256').update(jpeg).digest('hex'),
        bytes: jpeg.length,
        widthPx: size.width,
        heightPx: size.height,
      });
      doc.image(embeddedAsStored(doc, jpeg), 0, 0, { width: boxes.mediaBox.widthPt, height: boxes.mediaBox.heightPt });
      await caughtUp();
    }
    if (pages.length === 0) throw new Error('a book PDF needs at least one page');
    for (const page of pages) fileId.update(page.sha256);
    contentDerivedId(doc, fileId);
    doc.end();
    await consumed;
  } catch (error) {
    output.destroy();
    await consumed.catch(() => undefined);
    throw error;
  }
  return {
    pageCount: pages.length,
    bytes,
    sha256: hash.digest('hex'),
    mediaBox: boxes.mediaBox,
    trimBox: boxes.trimBox,
    pages,
  };
}

/**
 * The page for PDFKit to place, embedding exactly the stored bytes: PDFKit parses a copy (which its
 * EXIF reader mangles), and the image it opened then carries the untouched original as its data,
 * which PDFKit writes into the PDF as it is (DCTDecode). So the printer's page, the stored page
 * file and the manifest's checksum are the same bytes. `data` is PDFKit's own field (0.17.x);
 * test/imaging/print/book-pdf.test.ts compares the embedded stream with the page file.
 */
function embeddedAsStored(doc: PDFKit.PDFDocument, jpeg: Buffer): PDFKit.Mixins.ImageSrc {
  // PDFKit's image() takes an opened image (anything with a width and height) where its types say a buffer.
  const image = (doc as unknown as { openImage(src: Buffer): { data: Buffer | null } }).openImage(Buffer.from(jpeg));
  image.data = jpeg;
  return image as unknown as PDFKit.Mixins.ImageSrc;
}

/** Width and height from a JPEG's SOF marker (the header only). */
export function jpegSize(jpeg: Buffer): { width: number; height: number } {
  if (jpeg.length < 4 || jpeg.readUInt16BE(0) !== 0xffd8) throw new Error('page is not a JPEG');
  let pos = 2;
  while (pos + 9 < jpeg.length) {
    if (jpeg[pos] !== 0xff) throw new Error('page JPEG is corrupt (no marker where one was expected)');
    const marker = jpeg[pos + 1];
    if (marker === 0xff) {
      pos++;
      continue;
    }
    // SOF0..SOF15 except DHT (C4), JPG (C8) and DAC (CC) carry the frame size.
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { height: jpeg.readUInt16BE(pos + 5), width: jpeg.readUInt16BE(pos + 7) };
    }
    pos += 2 + jpeg.readUInt16BE(pos + 2);
  }
  throw new Error('page JPEG has no frame header');
}
