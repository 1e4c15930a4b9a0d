import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  decodePDFRawStream,
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFHexString,
  PDFName,
  type PDFRawStream,
  PDFRef,
  PDFString,
  type PDFObject,
} from 'pdf-lib';
import { expect } from 'vitest';

/** poppler's tools (scripts/install-test-tools.sh): the checks that use them skip, saying so, without. */
export const HAS_POPPLER = (() => {
  try {
    execFileSync('pdfinfo', ['-v'], { stdio: 'ignore' });
    execFileSync('pdfimages', ['-v'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

type Box = [number, number, number, number];

/** What a PDF/X preflight reads from a file, read back with pdf-lib. */
export interface PdfxReading {
  header: string;
  version: number;
  encrypted: boolean;
  trailerIds: string[];
  info: Record<string, string>;
  outputIntents: {
    subtype: string;
    outputConditionIdentifier?: string;
    info?: string;
    profileN?: number;
    /** The DestOutputProfile decoded: the ICC profile's bytes. */
    profile?: Buffer;
    profileRef?: string;
  }[];
  xmp?: string;
  pages: {
    mediaBox: Box;
    bleedBox?: Box;
    trimBox?: Box;
    images: { colourSpace: string; iccRef?: string; iccN?: number; filter: string; decode?: number[] }[];
    fonts: number;
    transparency: boolean;
  }[];
}

const text = (object: PDFObject | undefined): string | undefined =>
  object instanceof PDFString || object instanceof PDFHexString
    ? object.decodeText()
    : object instanceof PDFName
      ? object.decodeText()
      : object?.toString();

export async function readPdfx(bytes: Uint8Array): Promise<PdfxReading> {
  const header = Buffer.from(bytes.subarray(0, 16)).toString('latin1').split('\n')[0];
  const pdf = await PDFDocument.load(bytes, { updateMetadata: false });
  const { context } = pdf;
  const lookup = (object: PDFObject | undefined) => (object instanceof PDFRef ? context.lookup(object) : object);
  const infoDict = lookup(context.trailerInfo.Info) as PDFDict | undefined;
  const info: Record<string, string> = {};
  for (const [key, value] of infoDict?.entries() ?? []) {
    const resolved = lookup(value);
    info[key.decodeText()] = resolved instanceof PDFName ? `/${resolved.decodeText()}` : (text(resolved) ?? '');
  }
  const ids = context.trailerInfo.ID;
  const trailerIds =
    ids instanceof PDFArray ? ids.asArray().map((id) => (id instanceof PDFHexString ? id.asString() : String(id))) : [];
  const catalog = pdf.catalog;
  const intents = (lookup(catalog.get(PDFName.of('OutputIntents'))) as PDFArray | undefined)?.asArray() ?? [];
  const outputIntents = intents.map((entry) => {
    const intent = lookup(entry) as PDFDict;
    const profileRef = intent.get(PDFName.of('DestOutputProfile'));
    const stream = lookup(profileRef) as PDFRawStream | undefined;
    return {
      subtype: `/${(intent.get(PDFName.of('S')) as PDFName).decodeText()}`,
      outputConditionIdentifier: text(lookup(intent.get(PDFName.of('OutputConditionIdentifier')))),
      info: text(lookup(intent.get(PDFName.of('Info')))),
      profileN: stream ? Number(stream.dict.get(PDFName.of('N'))?.toString()) : undefined,
      profile: stream ? Buffer.from(decodePDFRawStream(stream).decode()) : undefined,
      profileRef: profileRef?.toString(),
    };
  });
  const metadata = lookup(catalog.get(PDFName.of('Metadata'))) as PDFRawStream | undefined;
  const pages = pdf.getPages().map((page) => {
    const box = (name: string): Box | undefined => {
      const array = lookup(page.node.get(PDFName.of(name))) as PDFArray | undefined;
      return array?.asArray().map((n) => Number(n.toString())) as Box | undefined;
    };
    const resources = page.node.Resources();
    const xObjects = resources?.lookupMaybe(PDFName.of('XObject'), PDFDict);
    const images = (xObjects?.keys() ?? []).map((key) => {
      const image = lookup(xObjects!.get(key)) as PDFRawStream;
      const space = lookup(image.dict.get(PDFName.of('ColorSpace')));
      let colourSpace = space?.toString() ?? '';
      let iccRef: string | undefined;
      let iccN: number | undefined;
      if (space instanceof PDFArray) {
        colourSpace = space.get(0).toString();
        iccRef = space.get(1).toString();
        iccN = Number((lookup(space.get(1)) as PDFRawStream).dict.get(PDFName.of('N'))?.toString());
      }
      const decode = lookup(image.dict.get(PDFName.of('Decode'))) as PDFArray | undefined;
      return {
        colourSpace,
        iccRef,
        iccN,
        filter: image.dict.get(PDFName.of('Filter'))?.toString() ?? '',
        decode: decode?.asArray().map((n) => Number(n.toString())),
        smask: image.dict.has(PDFName.of('SMask')),
      };
    });
    return {
      mediaBox: box('MediaBox')!,
      bleedBox: box('BleedBox'),
      trimBox: box('TrimBox'),
      images,
      fonts: resources?.lookupMaybe(PDFName.of('Font'), PDFDict)?.keys().length ?? 0,
      transparency:
        page.node.has(PDFName.of('Group')) ||
        images.some((image) => image.smask) ||
        resources?.lookupMaybe(PDFName.of('ExtGState'), PDFDict) !== undefined,
    };
  });
  return {
    header,
    version: Number(/^%PDF-(\d\.\d)/.exec(header)?.[1]),
    encrypted: context.trailerInfo.Encrypt !== undefined,
    trailerIds,
    info,
    outputIntents,
    xmp: metadata ? Buffer.from(metadata.contents).toString('utf8') : undefined,
    pages,
  };
}

/** The ICC header fields of a profile: signature at byte 36, device class at 12, colour space at 16. */
export function iccHeader(profile: Buffer): { signature: string; deviceClass: string; colourSpace: string } {
  return {
    signature: profile.toString('latin1', 36, 40),
    deviceClass: profile.toString('latin1', 12, 16),
    colourSpace: profile.toString('latin1', 16, 20).trim(),
  };
}

/** `inner` lies within `outer` (PDF boxes [x0 y0 x1 y1]). */
function boxWithin(inner: Box, outer: Box): boolean {
  return inner[0] >= outer[0] && inner[1] >= outer[1] && inner[2] <= outer[2] && inner[3] <= outer[3];
}

/**
 * Asserts the PDF/X-4 requirements of ISO 15930-7 that can be read from the file, for a PDF of page
 * images in an output profile of `channels` components:
 *  1. PDF version 1.6 or later in the header;
 *  2. not encrypted;
 *  3. a trailer /ID (two strings);
 *  4. Info: GTS_PDFXVersion (PDF/X-4), Trapped /True or /False, Title, CreationDate and ModDate;
 *  5. exactly one /OutputIntents entry with /S /GTS_PDFX and an OutputConditionIdentifier (with /Info
 *     when the condition is `Custom`);
 *  6. its DestOutputProfile an ICC stream with /N = channels that parses as ICC: 'acsp' at byte 36, an
 *     output ('prtr') or display ('mntr') class, an RGB or CMYK colour space of that many components;
 *  7. XMP metadata with pdfxid:GTS_PDFXVersion PDF/X-4, pdf:Trapped and dc:title as in Info, xmpMM ids;
 *  8. every page: TrimBox and BleedBox present, TrimBox within BleedBox within MediaBox;
 *  9. every image ICC-based on the output profile (or the output intent's device space), no
 *     other colour space, DCT (an allowed filter);
 * 10. no fonts (texts are part of the page images) and no transparency (none is needed; allowed in X-4).
 */
export async function expectPdfx4(bytes: Uint8Array, channels: 3 | 4): Promise<PdfxReading> {
  const pdf = await readPdfx(bytes);
  expect(pdf.version).toBeGreaterThanOrEqual(1.6); // 1
  expect(pdf.encrypted).toBe(false); // 2
  expect(pdf.trailerIds).toHaveLength(2); // 3
  expect(pdf.info.GTS_PDFXVersion).toBe('PDF/X-4'); // 4
  expect(['/True', '/False']).toContain(pdf.info.Trapped);
  expect(pdf.info.Title).toBeTruthy();
  expect(pdf.info.CreationDate).toMatch(/^D:\d{14}/);
  expect(pdf.info.ModDate).toMatch(/^D:\d{14}/);
  expect(pdf.outputIntents).toHaveLength(1); // 5
  const [intent] = pdf.outputIntents;
  expect(intent.subtype).toBe('/GTS_PDFX');
  expect(intent.outputConditionIdentifier).toBeTruthy();
  if (intent.outputConditionIdentifier === 'Custom') expect(intent.info).toBeTruthy();
  expect(intent.profileN).toBe(channels); // 6
  const header = iccHeader(intent.profile!);
  expect(header.signature).toBe('acsp');
  expect(['prtr', 'mntr']).toContain(header.deviceClass);
  expect(header.colourSpace).toBe(channels === 4 ? 'CMYK' : 'RGB');
  expect(pdf.xmp).toContain('<pdfxid:GTS_PDFXVersion>PDF/X-4</pdfxid:GTS_PDFXVersion>'); // 7
  expect(pdf.xmp).toContain('xmlns:pdfxid="http://www.npes.org/pdfx/ns/id/"');
  expect(pdf.xmp).toContain(`<pdf:Trapped>${pdf.info.Trapped.slice(1)}</pdf:Trapped>`);
  expect(pdf.xmp).toMatch(/<xmpMM:DocumentID>uuid:[0-9a-f-]{36}<\/xmpMM:DocumentID>/);
  expect(pdf.xmp).toMatch(/<xmpMM:RenditionClass>default<\/xmpMM:RenditionClass>/);
  expect(pdf.pages.length).toBeGreaterThan(0);
  for (const page of pdf.pages) {
    expect(page.trimBox && page.bleedBox).toBeTruthy(); // 8
    expect(boxWithin(page.trimBox!, page.bleedBox!)).toBe(true);
    expect(boxWithin(page.bleedBox!, page.mediaBox)).toBe(true);
    expect(page.images.length).toBeGreaterThan(0); // 9
    for (const image of page.images) {
      expect(image.colourSpace).toBe('/ICCBased');
      expect(image.iccRef).toBe(intent.profileRef);
      expect(image.iccN).toBe(channels);
      expect(image.filter).toBe('/DCTDecode');
    }
    expect(page.fonts).toBe(0); // 10
    expect(page.transparency).toBe(false);
  }
  return pdf;
}

/** poppler's view of a PDF: `pdfinfo` (version, custom Info keys, page boxes) and `pdfimages -list` (colour of each image). */
export function popplerReading(bytes: Uint8Array): {
  version: string;
  /** poppler's "PDF subtype" line: the PDF/X version it recognises from the file. */
  subtype?: string;
  encrypted: string;
  custom: Record<string, string>;
  boxes: Record<string, number[]>[];
  imageColours: string[];
} {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pdfx-'));
  try {
    const file = path.join(dir, 'file.pdf');
    writeFileSync(file, bytes);
    const info = execFileSync('pdfinfo', [file], { encoding: 'utf8' });
    const custom: Record<string, string> = {};
    for (const [, key, value] of execFileSync('pdfinfo', ['-custom', file], { encoding: 'utf8' }).matchAll(
      /^(\w+):\s*(.*)$/gm,
    ))
      custom[key] = value.trim();
    const pages = Number(/^Pages:\s+(\d+)/m.exec(info)![1]);
    const boxes: Record<string, number[]>[] = [];
    for (let page = 1; page <= pages; page++) {
      const out = execFileSync('pdfinfo', ['-box', '-f', String(page), '-l', String(page), file], { encoding: 'utf8' });
      const pageBoxes: Record<string, number[]> = {};
      for (const [, name, numbers] of out.matchAll(/^Page\s+\d+\s+(MediaBox|BleedBox|TrimBox):\s+(.+)$/gm))
        pageBoxes[name] = numbers.trim().split(/\s+/).map(Number);
      boxes.push(pageBoxes);
    }
    const imageColours = execFileSync('pdfimages', ['-list', file], { encoding: 'utf8' })
      .split('\n')
      .slice(2)
      .filter((line) => line.trim())
      .map((line) => line.trim().split(/\s+/)[5]);
    return {
      version: /^PDF version:\s+(\S+)/m.exec(info)![1],
      subtype: /^PDF subtype:\s+(.+)$/m.exec(info)?.[1].trim(),
      encrypted: /^Encrypted:\s+(\S+)/m.exec(info)![1],
      custom,
      boxes,
      imageColours,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
