import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { contentDerivedId, withoutTimestamps } from './pdf-determinism';
import { pageBoxes, pagePixels, type PrintFormat } from './print-geometry';

/** The preview's resolution: enough to judge a layout on a screen, too little to print from. */
const PROOF_PREVIEW_DPI = 72;

/**
 * "PROOF" as strokes on a 35 x 10 grid (letters 5 wide, 2.5 apart): paths, not text, so the
 * watermark needs no font on the host and looks the same everywhere.
 */
const WATERMARK_LETTERS = [
  'M0,10 L0,0 L4,0 L5,1 L5,4 L4,5 L0,5',
  'M0,10 L0,0 L4,0 L5,1 L5,4 L4,5 L0,5 M2,5 L5,10',
  'M1,0 L4,0 L5,1 L5,9 L4,10 L1,10 L0,9 L0,1 Z',
  'M1,0 L4,0 L5,1 L5,9 L4,10 L1,10 L0,9 L0,1 Z',
  'M0,10 L0,0 L5,0 M0,5 L4,5',
];
const WATERMARK_WIDTH = 35;
const WATERMARK_HEIGHT = 10;

/** The watermark over a page of this size: "PROOF" along the diagonal, about two thirds of it long. */
function watermarkSvg(width: number, height: number): Buffer {
  const diagonal = Math.hypot(width, height);
  const scale = (diagonal * 0.65) / WATERMARK_WIDTH;
  const angle = (-Math.atan2(height, width) * 180) / Math.PI;
  const letters = WATERMARK_LETTERS.map((d, i) => `<path transform="translate(${i * 7.5},0)" d="${d}"/>`).join('');
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">` +
      `<g transform="translate(${width / 2},${height / 2}) rotate(${angle}) scale(${scale}) translate(${-WATERMARK_WIDTH / 2},${-WATERMARK_HEIGHT / 2})" ` +
      `fill="none" stroke="rgb(200,0,0)" stroke-opacity="0.45" stroke-width="1.1" stroke-linecap="round" stroke-linejoin="round">` +
      `${letters}</g></svg>`,
  );
}

/** One print page, shrunk to the preview's resolution and watermarked. */
async function previewPage(jpeg: Buffer, format: PrintFormat): Promise<{ jpeg: Buffer; format: PrintFormat }> {
  const preview = { ...format, dpi: PROOF_PREVIEW_DPI };
  const { width, height } = pagePixels(preview);
  const page = await sharp(jpeg)
    .resize(width, height, { fit: 'fill' })
    .composite([{ input: watermarkSvg(width, height) }])
    .jpeg({ quality: 70 })
    .toBuffer();
  return { jpeg: page, format: preview };
}

/**
 * The proof a shop shows its customer before payment: every print page (the cover sheet first,
 * then the interior) at PROOF_PREVIEW_DPI with "PROOF" across it, each page the size of the print
 * page it shows. Not a print file: nothing of it goes to the printer. Written whole (a book at
 * 72 DPI is a few MB) and, like the print files, without timestamps.
 */
export async function writeProofPreview(options: {
  pages: AsyncIterable<{ jpeg: Buffer; format: PrintFormat }>;
  title: string;
}): Promise<Buffer> {
  const { default: PDFDocument } = await import('pdfkit');
  const doc = new PDFDocument({
    autoFirstPage: false,
    compress: true,
    info: { Title: `PROOF: ${options.title}`, Producer: 'photobook-service' },
  });
  withoutTimestamps(doc);
  const fileId = createHash('md5').update(options.title);
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise<void>((resolve, reject) => {
    doc.on('end', resolve);
    doc.on('error', reject);
  });
  for await (const page of options.pages) {
    const shown = await previewPage(page.jpeg, page.format);
    const { mediaBox } = pageBoxes(shown.format);
    doc.addPage({ size: [mediaBox.widthPt, mediaBox.heightPt], margin: 0 });
    doc.image(shown.jpeg, 0, 0, { width: mediaBox.widthPt, height: mediaBox.heightPt });
    fileId.update(shown.jpeg);
  }
  contentDerivedId(doc, fileId);
  doc.end();
  await ended;
  return Buffer.concat(chunks);
}
