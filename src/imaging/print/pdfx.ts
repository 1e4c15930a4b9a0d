import { createHash } from 'node:crypto';
import type { PrintOutput } from '../../domain/print-output';
import type { PdfkitJpeg } from './book-pdf';
import type { OutputProfile } from './output-profile';

/**
 * The date PDF/X asks for in CreationDate and ModDate (and XMP's CreateDate, ModifyDate, MetadataDate).
 * A fixed one: the files carry no clock time, so one book renders to the same bytes whenever it renders.
 */
const PDFX_DATE = new Date(Date.UTC(2000, 0, 1));
const PRODUCER = 'photobook-service';

/** A PDF name where PDFKit would write a string: its writer prints any unknown object with `toString`. */
class PdfName {
  readonly [Symbol.toStringTag] = 'PdfName';
  constructor(private readonly name: string) {}
  toString(): string {
    return `/${this.name}`;
  }
}

/** PDFKit's internals (0.17.x) this file writes to: the catalogue, object references, the trailer ID and its XMP. */
interface PdfkitInternals {
  _root: { data: Record<string, unknown> };
  _id: Buffer;
  ref(data?: unknown): PdfkitRef;
  _addInfo(): void;
  appendXML(xml: string, newline?: boolean): void;
}
interface PdfkitRef {
  write(chunk: Buffer): void;
  end(chunk?: Buffer | null): void;
}

/**
 * PDFKit document options of a PDF/X file: the PDF version (1.6 for PDF/X-4, 1.3 for PDF/X-1a:2001)
 * and the document information dictionary PDF/X requires: Title, CreationDate, ModDate,
 * GTS_PDFXVersion (and for X-1a GTS_PDFXConformance), Trapped as the name /False (we do no trapping).
 */
export function pdfxDocumentOptions(output: PrintOutput, title: string): PDFKit.PDFDocumentOptions {
  const version =
    output.pdfx === 'PDF/X-4'
      ? { GTS_PDFXVersion: 'PDF/X-4' }
      : { GTS_PDFXVersion: 'PDF/X-1:2001', GTS_PDFXConformance: 'PDF/X-1a:2001' };
  return {
    pdfVersion: output.pdfx === 'PDF/X-4' ? '1.6' : '1.3',
    info: {
      Title: title,
      Producer: PRODUCER,
      Creator: PRODUCER,
      CreationDate: PDFX_DATE,
      ModDate: PDFX_DATE,
      ...version,
      Trapped: new PdfName('False'),
    } as unknown as PDFKit.DocumentInfo,
  };
}

/**
 * Makes a PDFKit document PDF/X (ISO 15930-7 for PDF/X-4, 15930-1 for PDF/X-1a:2001), as far as a
 * file of full-page JPEGs needs:
 * - the output intent (/OutputIntents in the catalogue): /S /GTS_PDFX, OutputConditionIdentifier
 *   (the registered condition, or `Custom` with the profile's description as /Info), and the output
 *   profile embedded as /DestOutputProfile (an ICC stream with /N);
 * - each page image tagged: PDF/X-4 [/ICCBased <the same profile stream>], PDF/X-1a /DeviceCMYK
 *   (its device space is the output intent's); CMYK JPEGs from libjpeg are Adobe-inverted, hence /Decode;
 * - for PDF/X-4 the XMP metadata stream with pdfxid:GTS_PDFXVersion, the same title, dates, producer
 *   and trapping as the information dictionary, and xmpMM DocumentID, InstanceID, VersionID, RenditionClass;
 * - the trailer /ID derived from the content (the pages' checksums, the profile, the title): no
 *   random ids, so a book renders to the same bytes.
 * Call before the first page; `image` on each page's JPEG; `identify` before `end()`.
 */
export function pdfxMarkDocument(
  document: PDFKit.PDFDocument,
  output: PrintOutput,
  profile: OutputProfile,
  title: string,
): { image(jpeg: PdfkitJpeg): PdfkitJpeg; identify(pageSha256s: string[]): void } {
  const doc = document as unknown as PdfkitInternals;
  const deviceSpace = profile.channels === 4 ? 'DeviceCMYK' : 'DeviceRGB';
  const iccStream = doc.ref({ N: profile.channels, Alternate: deviceSpace });
  iccStream.write(profile.icc);
  iccStream.end();
  const intent = doc.ref({
    Type: 'OutputIntent',
    S: 'GTS_PDFX',
    OutputConditionIdentifier: new String(output.condition ?? 'Custom'),
    OutputCondition: new String(profile.description),
    Info: new String(profile.description),
    ...(output.condition ? { RegistryName: new String('http://www.color.org') } : {}),
    DestOutputProfile: iccStream,
  });
  intent.end();
  doc._root.data.OutputIntents = [intent];
  const colourSpace = output.pdfx === 'PDF/X-4' ? ['ICCBased', iccStream] : 'DeviceCMYK';
  const profileSha256 = createHash('sha256').update(profile.icc).digest('hex');
  let documentId = '';

  if (output.pdfx === 'PDF/X-4') {
    // Replaces PDFKit's own XMP properties (it writes them unescaped and without PDF/X's).
    doc._addInfo = () => doc.appendXML(pdfx4Xmp(title, documentId));
  }

  return {
    image(jpeg) {
      jpeg.embed = (into) => {
        if (jpeg.obj) return;
        const obj = (into as PdfkitInternals).ref({
          Type: 'XObject',
          Subtype: 'Image',
          BitsPerComponent: jpeg.bits,
          Width: jpeg.width,
          Height: jpeg.height,
          ColorSpace: colourSpace,
          Filter: 'DCTDecode',
          ...(profile.channels === 4 ? { Decode: [1, 0, 1, 0, 1, 0, 1, 0] } : {}),
        });
        jpeg.obj = obj;
        obj.end(jpeg.data);
        jpeg.data = null;
      };
      return jpeg;
    },
    identify(pageSha256s) {
      const id = createHash('sha256')
        .update(JSON.stringify([output.pdfx, output.condition ?? null, profileSha256, title, pageSha256s]))
        .digest()
        .subarray(0, 16);
      doc._id = id;
      documentId = id.toString('hex');
    },
  };
}

/** The XMP properties of a PDF/X-4 file (PDFKit wraps them in the x:xmpmeta packet). */
function pdfx4Xmp(title: string, documentId: string): string {
  const date = PDFX_DATE.toISOString().replace(/\.\d{3}Z$/, 'Z');
  const uuid = `uuid:${documentId.slice(0, 8)}-${documentId.slice(8, 12)}-${documentId.slice(12, 16)}-${documentId.slice(16, 20)}-${documentId.slice(20, 32)}`;
  return `<rdf:Description rdf:about="" xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:pdf="http://ns.adobe.com/pdf/1.3/" xmlns:pdfxid="http://www.npes.org/pdfx/ns/id/" xmlns:xmpMM="http://ns.adobe.com/xap/1.0/mm/">
<xmp:CreateDate>${date}</xmp:CreateDate>
<xmp:ModifyDate>${date}</xmp:ModifyDate>
<xmp:MetadataDate>${date}</xmp:MetadataDate>
<xmp:CreatorTool>${PRODUCER}</xmp:CreatorTool>
<dc:format>application/pdf</dc:format>
<dc:title><rdf:Alt><rdf:li xml:lang="x-default">${escapeXmlText(title)}</rdf:li></rdf:Alt></dc:title>
<pdf:Producer>${PRODUCER}</pdf:Producer>
<pdf:Trapped>False</pdf:Trapped>
<pdfxid:GTS_PDFXVersion>PDF/X-4</pdfxid:GTS_PDFXVersion>
<xmpMM:DocumentID>${uuid}</xmpMM:DocumentID>
<xmpMM:InstanceID>${uuid}</xmpMM:InstanceID>
<xmpMM:VersionID>1</xmpMM:VersionID>
<xmpMM:RenditionClass>default</xmpMM:RenditionClass>
</rdf:Description>`;
}

function escapeXmlText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
