import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { DEFAULT_PRINT_OUTPUT, type PrintOutput, type PrintPdf } from '../../domain/print-output';
import { loadOutputProfile } from './output-profile';
import { pageBoxes, pagePixels, type PrintFormat } from './print-geometry';
import { pdfxDocumentOptions, pdfxMarkDocument } from './pdfx';

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
 * The file is PDF/X (pdfx.ts): PDF/X-4 by default, or the printer's flavour (`output`), with the
 * printer's output profile as its output intent, each page image tagged with it.
 *
 * Each page must be exactly the format's full-bleed pixel size (checked from the JPEG header), in
 * the output profile's colour (its component count):
 * the page is placed over the whole MediaBox, so that is what makes it print at the format's DPI.
 * A failure rejects, after the last awaited write; the caller's store then discards what was written.
 */
export async function writeBookPdf(options: {
  write: (chunk: Buffer) => Promise<void>;
  format: PrintFormat;
  pages: AsyncIterable<Buffer>;
  title?: string;
  /** The printer's output (profile and PDF/X flavour); sRGB PDF/X-4 without one. */
  output?: PrintOutput;
}): Promise<PrintPdf> {
  const boxes = pageBoxes(options.format);
  const expected = pagePixels(options.format);
  const printOutput = options.output ?? DEFAULT_PRINT_OUTPUT;
  const profile = await loadOutputProfile(printOutput);
  const title = options.title ?? 'Photobook';
  // Loaded with the first book: pdfkit and its fonts are about 5 MiB of heap a process that never prints need not hold.
  const { default: PDFDocument } = await import('pdfkit');
  const doc = new PDFDocument({ autoFirstPage: false, compress: true, ...pdfxDocumentOptions(printOutput, title) });
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

  const pages: PrintPdf['pages'] = [];
  try {
    const pdfx = pdfxMarkDocument(doc, printOutput, profile, title);
    for await (const jpeg of options.pages) {
      const size = jpegSize(jpeg);
      if (size.width !== expected.width || size.height !== expected.height) {
        throw new Error(
          `page ${pages.length + 1} is ${size.width}x${size.height} px; the format needs ${expected.width}x${expected.height} px (${options.format.dpi} DPI with bleed)`,
        );
      }
      if (size.components !== profile.channels) {
        throw new Error(
          `page ${pages.length + 1} has ${size.components} colour components; the output profile "${profile.description}" is ${profile.colourSpace}`,
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
      // PDFKit's image() takes an opened image (anything with a width and height) where its types say a buffer.
      doc.image(pdfx.image(embeddedAsStored(doc, jpeg)) as unknown as PDFKit.Mixins.ImageSrc, 0, 0, {
        width: boxes.mediaBox.widthPt,
        height: boxes.mediaBox.heightPt,
      });
      await caughtUp();
    }
    if (pages.length === 0) throw new Error('a book PDF needs at least one page');
    pdfx.identify(pages.map((page) => page.sha256));
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
    pdfx: printOutput.pdfx,
    outputProfile: { description: profile.description, colourSpace: profile.colourSpace },
  };
}

/**
 * The page for PDFKit to place, embedding exactly the stored bytes: PDFKit parses a copy (which its
 * EXIF reader mangles), and the image it opened then carries the untouched original as its data,
 * which PDFKit writes into the PDF as it is (DCTDecode). So the printer's page, the stored page
 * file and the manifest's checksum are the same bytes. `data` is PDFKit's own field (0.17.x);
 * test/imaging/print/book-pdf.test.ts compares the embedded stream with the page file.
 */
function embeddedAsStored(doc: PDFKit.PDFDocument, jpeg: Buffer): PdfkitJpeg {
  const image = (doc as unknown as { openImage(src: Buffer): PdfkitJpeg }).openImage(Buffer.from(jpeg));
  image.data = jpeg;
  return image;
}

/** PDFKit's opened JPEG (0.17.x): the fields pdfx.ts reads, and `embed`, which it replaces. */
export interface PdfkitJpeg {
  data: Buffer | null;
  width: number;
  height: number;
  bits: number;
  obj: unknown;
  embed(doc: unknown): void;
}

/** Width, height and colour components from a JPEG's SOF marker (the header only). */
export function jpegSize(jpeg: Buffer): { width: number; height: number; components: number } {
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
      return { height: jpeg.readUInt16BE(pos + 5), width: jpeg.readUInt16BE(pos + 7), components: jpeg[pos + 9] };
    }
    pos += 2 + jpeg.readUInt16BE(pos + 2);
  }
  throw new Error('page JPEG has no frame header');
}
