/**
 * The PDF/X flavour a printer takes. PDF/X-4 (ISO 15930-7): PDF 1.6, colour as ICC-based colour
 * tagged with the output profile, XMP metadata naming the version. PDF/X-1a:2001 (ISO 15930-1):
 * PDF 1.3, CMYK only (DeviceCMYK), no transparency, no XMP; it needs a CMYK output profile.
 */
export const PDFX_FLAVOURS = ['PDF/X-4', 'PDF/X-1a'] as const;
type PdfxFlavour = (typeof PDFX_FLAVOURS)[number];

/**
 * What a printer wants its files in: the colour every page is converted to, and the PDF/X flavour
 * of `cover.pdf` and `interior.pdf`. Plain data, so it travels to the render process.
 */
export interface PrintOutput {
  /**
   * The output profile: `srgb` (libvips's built-in sRGB profile, CC0) or the absolute path of an ICC
   * profile file the operator supplies (PRINT_OUTPUT_PROFILE), RGB or CMYK, e.g. the printer's GRACoL or
   * FOGRA profile. Pages are converted to it and the PDFs carry it as their output intent.
   */
  profile: string;
  pdfx: PdfxFlavour;
  /**
   * The output intent's OutputConditionIdentifier: the registered characterisation the profile is
   * for (e.g. `CGATS21_CRPC1` for GRACoL 2006, `FOGRA39`), or unset for the profile's own description
   * (a custom condition, which PDF/X then describes by the embedded profile).
   */
  condition?: string;
}

/** Every printer's output unless the operator configures one: sRGB pages in a PDF/X-4 file. */
export const DEFAULT_PRINT_OUTPUT: PrintOutput = { profile: 'srgb', pdfx: 'PDF/X-4' };

/**
 * A written print PDF as its writer accounts for it (src/imaging/print/book-pdf.ts): what the order's
 * manifest needs, kept with a proof so that an order printed from it needs no render.
 */
export interface PrintPdf {
  pageCount: number;
  /** Size of the PDF file and its SHA-256 (hex), computed from the bytes as they were written. */
  bytes: number;
  sha256: string;
  /** MediaBox (= BleedBox): the page with bleed. */
  mediaBox: { widthPt: number; heightPt: number };
  /** TrimBox: the finished page, `bleed` in from the left and bottom edge. */
  trimBox: { leftPt: number; bottomPt: number; widthPt: number; heightPt: number };
  /** Each page as embedded: the JPEG's own checksum, so a page can be traced to its rendered file. */
  pages: { sha256: string; bytes: number; widthPx: number; heightPx: number }[];
  /** The PDF/X flavour written and the output intent's profile (its description and colour). */
  pdfx: PrintOutput['pdfx'];
  outputProfile: { description: string; colourSpace: 'RGB' | 'CMYK' };
}
