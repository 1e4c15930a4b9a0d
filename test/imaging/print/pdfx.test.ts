import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PrintOutput } from '../../../src/domain/print-output';
import { writeBookPdf } from '../../../src/imaging/print/book-pdf';
import { loadOutputProfile } from '../../../src/imaging/print/output-profile';
import { renderPrintPage } from '../../../src/imaging/print/render-page';
import type { PrintFormat } from '../../../src/imaging/print/print-geometry';
import { expectPdfx4, HAS_POPPLER, iccHeader, popplerReading, readPdfx } from '../../support/pdfx';

/** A small format keeps the pages small: 50 x 50 mm, 3 mm bleed, 100 DPI (220 x 220 px). */
const SMALL: PrintFormat = { widthMm: 50, heightMm: 50, bleedMm: 3, dpi: 100 };
const SMALL_PX = 220;

let dir: string;
/**
 * The CMYK test profile: libvips's built-in CMYK profile ("Chemical proof", made by Graeme W. Gill
 * with ArgyllCMS and released into the public domain), the bytes sharp embeds for
 * `withIccProfile('cmyk')`, written to a file as an operator's PRINT_OUTPUT_PROFILE would be.
 */
let cmykProfile: string;

async function* iterate(buffers: Buffer[]): AsyncGenerator<Buffer> {
  for (const buffer of buffers) yield buffer;
}

async function pdfOf(pages: Buffer[], output?: PrintOutput, title = 'Summer 2026'): Promise<Buffer> {
  const chunks: Buffer[] = [];
  await writeBookPdf({
    write: async (chunk) => {
      chunks.push(chunk);
    },
    format: SMALL,
    pages: iterate(pages),
    title,
    ...(output ? { output } : {}),
  });
  return Buffer.concat(chunks);
}

/** A page as the renderer makes it: one photo in a slot, in the output profile's colour. */
function renderSmall(photo: Buffer, outputProfile?: string): Promise<Buffer> {
  return renderPrintPage({
    page: {
      number: 1,
      layout: 'full',
      photos: [{ photoId: 'p', x: 0.1, y: 0.1, width: 0.8, height: 0.8 }],
      texts: [{ assetId: 'dedication', text: 'For Ada' }],
    },
    format: SMALL,
    loadPhoto: async () => photo,
    colorCorrection: false,
    ...(outputProfile ? { outputProfile } : {}),
  }).then((rendered) => rendered.jpeg);
}

let photo: Buffer;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'pdfx-'));
  const tagged = await sharp({ create: { width: 1, height: 1, channels: 3, background: '#fff' } })
    .withIccProfile('cmyk')
    .tiff()
    .toBuffer();
  cmykProfile = path.join(dir, 'chemical-proof.icc');
  await writeFile(cmykProfile, (await sharp(tagged).metadata()).icc!);
  photo = await sharp({ create: { width: 400, height: 400, channels: 3, background: '#c03030' } })
    .jpeg({ quality: 95 })
    .toBuffer();
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('PDF/X-4 with the sRGB output profile (every printer by default)', () => {
  it('meets each PDF/X-4 requirement that can be read from the file (listed in expectPdfx4), and poppler reads it as PDF/X-4', async () => {
    const pages = [await renderSmall(photo), await renderSmall(photo)];
    const bytes = await pdfOf(pages);
    const pdf = await expectPdfx4(bytes, 3);
    expect(pdf.header).toBe('%PDF-1.6');
    expect(pdf.outputIntents[0].outputConditionIdentifier).toBe('Custom');
    expect(pdf.outputIntents[0].info).toBe('sRGB');
    expect(iccHeader(pdf.outputIntents[0].profile!)).toEqual({
      signature: 'acsp',
      deviceClass: 'mntr',
      colourSpace: 'RGB',
    });
    // The output intent's profile is the one each page JPEG carries (libvips's sRGB).
    expect(pdf.outputIntents[0].profile).toEqual((await sharp(pages[0]).metadata()).icc);
    expect(pdf.pages).toHaveLength(2);
    expect(pdf.xmp).toContain('<rdf:li xml:lang="x-default">Summer 2026</rdf:li>');
    if (!HAS_POPPLER) {
      console.warn('poppler is not installed (scripts/install-test-tools.sh): the file was read with pdf-lib only');
      return;
    }
    const poppler = popplerReading(bytes);
    expect(poppler.version).toBe('1.6');
    expect(poppler.subtype).toBe('PDF/X-4');
    expect(poppler.encrypted).toBe('no');
    expect(poppler.custom.GTS_PDFXVersion).toBe('PDF/X-4');
    expect(poppler.imageColours).toEqual(['icc', 'icc']);
    for (const boxes of poppler.boxes) {
      expect(boxes.TrimBox[0]).toBeGreaterThanOrEqual(boxes.BleedBox[0]);
      expect(boxes.TrimBox[2]).toBeLessThanOrEqual(boxes.BleedBox[2]);
      expect(boxes.BleedBox).toEqual(boxes.MediaBox);
    }
  });

  it('the checks fail on a PDF as the service wrote it before (PDF 1.3, DeviceRGB, no output intent)', async () => {
    const { default: PDFDocument } = await import('pdfkit');
    const doc = new PDFDocument({ size: [100, 100] });
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    const ended = new Promise((resolve) => doc.on('end', resolve));
    doc.image(await renderSmall(photo), 0, 0, { width: 100 });
    doc.end();
    await ended;
    await expect(expectPdfx4(Buffer.concat(chunks), 3)).rejects.toThrow();
  });

  it('escapes the title in the XMP, and writes the same book to the same bytes (no clock time, no random id)', async () => {
    const pages = [await renderSmall(photo)];
    const title = 'Ada & Bob <3 "Été"';
    const first = await pdfOf(pages, undefined, title);
    const second = await pdfOf(pages, undefined, title);
    expect(second.equals(first)).toBe(true);
    const pdf = await readPdfx(first);
    expect(pdf.info.Title).toBe(title);
    expect(pdf.xmp).toContain('Ada &amp; Bob &lt;3 "Été"');
    expect(pdf.info.CreationDate).toBe(pdf.info.ModDate);
    // The trailer ID follows the content: another page, another ID.
    const other = await readPdfx(
      await pdfOf([await renderSmall(await sharp(photo).negate().jpeg().toBuffer())], undefined, title),
    );
    expect(other.trailerIds[0]).not.toBe(pdf.trailerIds[0]);
  });
});

describe('a CMYK printer (an operator-supplied CMYK profile)', () => {
  it('gets CMYK pages tagged ICC-based with the CMYK output profile in a PDF/X-4 file', async () => {
    const output: PrintOutput = { profile: cmykProfile, pdfx: 'PDF/X-4', condition: 'Chemical proof' };
    const page = await renderSmall(photo, cmykProfile);
    const metadata = await sharp(page).metadata();
    expect(metadata.space).toBe('cmyk');
    expect(metadata.channels).toBe(4);
    // The page is not tagged: the PDF tags it with the profile once (a CMYK profile is about 1 MB).
    expect(metadata.icc).toBeUndefined();
    const bytes = await pdfOf([page], output);
    const pdf = await expectPdfx4(bytes, 4);
    expect(iccHeader(pdf.outputIntents[0].profile!)).toEqual({
      signature: 'acsp',
      deviceClass: 'prtr',
      colourSpace: 'CMYK',
    });
    expect(pdf.outputIntents[0].outputConditionIdentifier).toBe('Chemical proof');
    // libjpeg's CMYK is Adobe-inverted: the Decode array turns it back.
    expect(pdf.pages[0].images[0].decode).toEqual([1, 0, 1, 0, 1, 0, 1, 0]);
    if (HAS_POPPLER) expect(popplerReading(bytes).imageColours).toEqual(['icc']);
  });

  it('gets PDF/X-1a:2001 when it asks for it: PDF 1.3, DeviceCMYK images, no transparency, no XMP', async () => {
    const output: PrintOutput = { profile: cmykProfile, pdfx: 'PDF/X-1a', condition: 'FOGRA39' };
    const bytes = await pdfOf([await renderSmall(photo, cmykProfile)], output);
    const pdf = await readPdfx(bytes);
    expect(pdf.header).toBe('%PDF-1.3');
    expect(pdf.encrypted).toBe(false);
    expect(pdf.info.GTS_PDFXVersion).toBe('PDF/X-1:2001');
    expect(pdf.info.GTS_PDFXConformance).toBe('PDF/X-1a:2001');
    expect(pdf.info.Trapped).toBe('/False');
    expect(pdf.info.CreationDate).toMatch(/^D:/);
    expect(pdf.outputIntents).toHaveLength(1);
    expect(pdf.outputIntents[0]).toMatchObject({
      subtype: '/GTS_PDFX',
      outputConditionIdentifier: 'FOGRA39',
      profileN: 4,
    });
    expect(pdf.xmp).toBeUndefined();
    for (const page of pdf.pages) {
      expect(page.images.map((image) => image.colourSpace)).toEqual(['/DeviceCMYK']);
      expect(page.transparency).toBe(false);
      expect(page.fonts).toBe(0);
    }
    if (HAS_POPPLER) {
      const poppler = popplerReading(bytes);
      expect(poppler.subtype).toBe('PDF/X-1:2001');
      expect(poppler.imageColours).toEqual(['cmyk']);
    }
  });

  it('refuses a page that is not in the output profile’s colour, and PDF/X-1a with an RGB profile', async () => {
    const rgbPage = await renderSmall(photo);
    await expect(pdfOf([rgbPage], { profile: cmykProfile, pdfx: 'PDF/X-4' })).rejects.toThrow(
      /page 1 has 3 colour components; the output profile "Chemical proof" is CMYK/,
    );
    await expect(loadOutputProfile({ profile: 'srgb', pdfx: 'PDF/X-1a' })).rejects.toThrow(
      /PDF\/X-1a files are CMYK only/,
    );
    const notAProfile = path.join(dir, 'not-a-profile.icc');
    await writeFile(notAProfile, Buffer.alloc(200, 1));
    await expect(loadOutputProfile({ profile: notAProfile, pdfx: 'PDF/X-4' })).rejects.toThrow(/is not an ICC profile/);
    expect(SMALL_PX).toBe((await sharp(rgbPage).metadata()).width);
  });
});
