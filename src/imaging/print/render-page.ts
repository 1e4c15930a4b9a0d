import sharp, { type OverlayOptions } from 'sharp';
import type { BookPage, TextSlot } from '../../domain/book';
import { cleanText, escapeXml, fitText, measureText } from '../cover-preview';
import { guardDecode, openImage, readImageMetadata } from '../decode';
import { FONTS, svgFontAttributes, type TextFont } from '../fonts';
import { applyColourCorrection, measureColourCorrection, type PhotoCorrections } from './color-correction';
import { dpiWarning, effectiveDpi } from './effective-dpi';
import { MM_PER_INCH, pagePixels, trimPixels, type PrintFormat } from './print-geometry';
import { pageCanvas, type RawPhotoLayer } from './page-canvas';
import { attentionCoverCrop } from './attention-crop';
import { automaticCrop, cropRect, type SlotCrop } from '../../domain/slot-crop';
import type { FaceBox } from '../../domain/face-box';
import { pageSlotSafeAreas, SAFE_MARGIN_MM, type SlotArea } from '../../domain/print-safe-area';
import { captionsSvg } from './page-captions';
import { tagSrgb } from './srgb-tag';
import { isSpreadContinuation } from '../../domain/book-spreads';
import { photoRegion } from '../crop-region';

export interface PhotoPlacement {
  photoId: string;
  /** Photo pixels per inch of paper in its slot (the limiting side). */
  effectiveDpi: number;
  /** Set below 250 DPI: "may look soft", below 150: "low resolution" (see effective-dpi.ts). */
  warning?: string;
}

export interface RenderedPage {
  /** Baseline JPEG of the full-bleed page in the output profile's colour (tagged when sRGB), density = the format's DPI. */
  jpeg: Buffer;
  widthPx: number;
  heightPx: number;
  placements: PhotoPlacement[];
}

export interface PrintRenderOptions {
  format: PrintFormat;
  /** The stored original of a photo (any supported format, EXIF orientation honoured). */
  loadPhoto: (photoId: string) => Promise<Buffer>;
  /** Automatic levels + white balance on every photo (color-correction.ts). */
  colorCorrection: boolean;
  /** Corrections already measured for this book's photos; measured per slot without it. */
  corrections?: PhotoCorrections;
  /** Page colour behind and between the photos, "#rrggbb"; white by default (the cover sheet's: see cover-sheet.ts). */
  background?: string;
  /** The printer's output profile (PrintOutput.profile): `srgb` by default, or an ICC file's path. */
  outputProfile?: string;
  /** The faces found in each photo (Photo.faces), which its automatic crop keeps in the safe area. */
  photoFaces?: Record<string, FaceBox[] | null | undefined>;
}

const JPEG_QUALITY = 92;
/** Text of a page (a dedication) is set at this size, so it is the same on paper at any DPI. */
const PAGE_TEXT_PT = [14, 12, 10] as const;
/** A page's text (a dedication) is set in the shipped serif (fonts.ts). */
const PAGE_TEXT_FONT: TextFont = { family: FONTS.serif, bold: false };
export const LINE_HEIGHT = 1.35;
const MAX_TEXT_LINES = 12;

/**
 * One interior page at print resolution: a canvas of trim + bleed in the page colour, each photo
 * upright (EXIF), colour-corrected if asked, cropped to fill its slot (slots are 0..1 of the trim
 * box; a slot that reaches past the trim runs into the bleed and is clipped at the page edge) and
 * copied onto it; page texts (a dedication) set in the free margin below or above the photos, or on a
 * white band when there is no room. Photos are decoded, resized and reduced to their slot's pixels
 * one at a time, so memory holds the page, its slots' pixels and one photo, never the book.
 */
export async function renderPrintPage(options: PrintRenderOptions & { page: BookPage }): Promise<RenderedPage> {
  const { format, page } = options;
  const size = pagePixels(format);
  const trim = trimPixels(format);
  const photos: RawPhotoLayer[] = [];
  const overlays: OverlayOptions[] = [];
  const placements: PhotoPlacement[] = [];
  for (const slot of page.photos) {
    const rect = slotRect(slot, trim, page.layout === 'spread' ? size.bleed : 0);
    // The crop is chosen on what prints: a spread's slot with its bleed, its faces kept off the fold.
    const printed = {
      x: (rect.left - trim.left) / trim.width,
      y: (rect.top - trim.top) / trim.height,
      width: rect.width / trim.width,
      height: rect.height / trim.height,
    };
    const placed = await placePhoto(
      options,
      slot.photoId,
      rect,
      size,
      slot.crop ?? {
        faces: options.photoFaces?.[slot.photoId],
        safe: pageSlotSafeAreas(spreadLeft(printed, page), format, page),
      },
    );
    if (placed.layer) photos.push(placed.layer);
    placements.push(placed.placement);
  }
  const texts = page.texts.map((t) => t.text);
  if (texts.some((t) => cleanText(t))) {
    const photoRows = page.photos.map((s) => ({
      top: trim.top + s.y * trim.height,
      bottom: trim.top + (s.y + s.height) * trim.height,
    }));
    overlays.push({ input: await pageTextSvg(size, trim, texts, photoRows, format.dpi), left: 0, top: 0 });
  }
  const captions = await captionsSvg(size, trim, page.captions, format.dpi);
  if (captions) overlays.push({ input: captions, left: 0, top: 0 });
  return compose(
    size,
    photos,
    overlays,
    format.dpi,
    placements,
    options.background ?? '#ffffff',
    options.outputProfile,
  );
}

/**
 * A slot's pixels on the page. A spread's slot (the opening, 0..2 page widths; -1..1 on its right
 * page: domain/book-spreads.ts printedPage) runs on by `bleed` past the opening's outer trim on
 * every side, so the photo fills the bleed as the printer asks; at the fold there is no bleed of its
 * own: each page's bleed there holds the photo's pixels of the other page, the same rectangle one
 * page width along, so the two halves continue each other.
 */
function slotRect(slot: { x: number; y: number; width: number; height: number }, trim: Rect, bleed: number): Rect {
  return {
    left: trim.left + Math.round(slot.x * trim.width) - bleed,
    top: trim.top + Math.round(slot.y * trim.height) - bleed,
    width: Math.max(1, Math.round(slot.width * trim.width) + 2 * bleed),
    height: Math.max(1, Math.round(slot.height * trim.height) + 2 * bleed),
  };
}

/** A slot in the left page's terms (x 0..2 of the opening) for its safe areas: a right page's is one page width along. */
function spreadLeft<T extends { x: number }>(slot: T, page: BookPage): T {
  return isSpreadContinuation(page) ? { ...slot, x: slot.x + 1 } : slot;
}

export interface Rect {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** An interior slot nobody cropped: its photo's faces and the slot's safe area decide its crop (domain/slot-crop.ts). */
export interface AutomaticSlotCrop {
  faces: FaceBox[] | null | undefined;
  safe: SlotArea | readonly SlotArea[];
}

/**
 * The photo upright, corrected if asked, cropped to fill `rect`: by the slot's stored `crop` (the
 * numbers the editor draws with, domain/slot-crop.ts) on interior pages, or the automatic crop that
 * keeps its faces in the safe area, from the same numbers as the editor's (and the cover's, whose
 * photo shows faces); without either (a cover photo without faces, or whose faces are unknown) by
 * sharp's attention strategy, as the cover preview: the crop keeps the most salient region; for a
 * large slot chosen on a small copy, attention-crop.ts), as raw RGB pixels of the part of `rect` that lies on the page. Only these pixels stay in memory; the decoded photo does not.
 */
export async function placePhoto(
  options: PrintRenderOptions,
  photoId: string,
  rect: Rect,
  page: { width: number; height: number },
  slotCrop?: SlotCrop | AutomaticSlotCrop,
): Promise<{ layer?: RawPhotoLayer; placement: PhotoPlacement }> {
  const original = await options.loadPhoto(photoId);
  const metadata = await readImageMetadata(original);
  const upright = metadata.autoOrient ?? { width: metadata.width, height: metadata.height };
  const crop = slotCrop && 'safe' in slotCrop ? automaticCrop(upright, rect, slotCrop.faces, slotCrop.safe) : slotCrop;
  const dpi = effectiveDpi(
    upright,
    { width: rect.width / options.format.dpi, height: rect.height / options.format.dpi },
    crop?.zoom,
  );
  const warning = dpiWarning(dpi);
  const placement: PhotoPlacement = { photoId, effectiveDpi: dpi, ...(warning ? { warning } : {}) };

  const visible = intersect(rect, { left: 0, top: 0, width: page.width, height: page.height });
  if (!visible) return { placement };
  const correction = options.colorCorrection
    ? await (options.corrections?.of(photoId, original) ?? measureColourCorrection(original))
    : undefined;
  const prepared = () => {
    const photo = openImage(original).autoOrient().flatten({ background: '#ffffff' });
    return correction ? applyColourCorrection(photo, correction) : photo;
  };
  const cover = crop ? undefined : await attentionCoverCrop(prepared, metadata.format, upright, rect);
  let pipeline = crop
    ? prepared()
        .extract(photoRegion(upright, cropRect(upright, rect, crop)))
        .resize(rect.width, rect.height, {
          fit: 'fill',
        })
    : cover
      ? prepared().resize(cover.width, cover.height, { fit: 'fill' })
      : prepared().resize(rect.width, rect.height, { fit: 'cover', position: sharp.strategy.attention });
  const slotInPipeline = cover ?? { left: 0, top: 0 };
  if (cover || visible.width !== rect.width || visible.height !== rect.height) {
    pipeline = pipeline.extract({
      left: slotInPipeline.left + visible.left - rect.left,
      top: slotInPipeline.top + visible.top - rect.top,
      width: visible.width,
      height: visible.height,
    });
  }
  const pixels = await guardDecode(pipeline.toColourspace('srgb').raw().toBuffer());
  return { layer: { pixels, ...visible }, placement };
}

function intersect(a: Rect, b: Rect): Rect | null {
  const left = Math.max(a.left, b.left);
  const top = Math.max(a.top, b.top);
  const right = Math.min(a.left + a.width, b.left + b.width);
  const bottom = Math.min(a.top + a.height, b.top + b.height);
  return right > left && bottom > top ? { left, top, width: right - left, height: bottom - top } : null;
}

/**
 * The photos copied onto the page (page-canvas.ts), the texts drawn over them, encoded for print in
 * the output profile's colour. The page is composed in sRGB: every photo arrives there from its own
 * embedded profile (Display P3, Adobe RGB, ...; sRGB when it has none), converted by libvips (lcms2)
 * as sharp decodes it, after which the optional colour correction works (placePhoto). The composed
 * page is then converted once from sRGB to the output profile by libvips (`withIccProfile`: an RGB or
 * CMYK profile, the perceptual intent sharp applies); `srgb` needs no conversion.
 */
export async function compose(
  size: { width: number; height: number },
  photos: RawPhotoLayer[],
  overlays: OverlayOptions[],
  dpi: number,
  placements: PhotoPlacement[],
  background: string,
  outputProfile = 'srgb',
): Promise<RenderedPage> {
  let page = sharp(pageCanvas(size, background, photos), {
    raw: { width: size.width, height: size.height, channels: 3 },
  });
  if (overlays.length > 0) page = page.composite(overlays);
  // 4:4:4: no chroma subsampling, so coloured type and thin lines stay crisp on paper. No
  // Huffman optimisation: it made a render 6% slower for print files 5% smaller.
  page = page.jpeg({ quality: JPEG_QUALITY, chromaSubsampling: '4:4:4', optimiseCoding: false }).withDensity(dpi);
  // A page in sRGB carries its profile (480 bytes), attached without sharp's sRGB-to-sRGB transform
  // (srgb-tag.ts); any other profile (a CMYK one is about 1 MB) converts the page and would be
  // repeated in every page of the PDF, which tags the pages with it once (pdfx.ts).
  const jpeg =
    outputProfile === 'srgb'
      ? await tagSrgb(await page.toBuffer())
      : await page.withIccProfile(outputProfile, { attach: false }).toBuffer();
  return { jpeg, widthPx: size.width, heightPx: size.height, placements };
}

// ---------------------------------------------------------------------------------------------
// Page text

/**
 * The page's texts (each its own paragraph), word-wrapped to the safe width of the trim and set in
 * dark grey: centred on a page without photos; otherwise in the largest free margin below or above
 * the photos, at 14, 12 or 10 pt, whichever fits first; failing that, at the bottom of the safe
 * area on a white band over the photo.
 */
async function pageTextSvg(
  page: { width: number; height: number },
  trim: Rect,
  texts: TextSlot['text'][],
  photoRows: { top: number; bottom: number }[],
  dpi: number,
): Promise<Buffer> {
  const safe = Math.round((SAFE_MARGIN_MM / MM_PER_INCH) * dpi);
  const safeTop = trim.top + safe;
  const safeBottom = trim.top + trim.height - safe;
  const maxWidth = trim.width - 2 * safe;
  const photosTop = Math.min(...photoRows.map((r) => r.top));
  const photosBottom = Math.max(...photoRows.map((r) => r.bottom));
  // Free bands, best first: below the photos, above them (a gap of 1/4 line keeps text off the photo).
  const spaces =
    photoRows.length === 0
      ? [{ top: safeTop, bottom: safeBottom }]
      : [
          { top: photosBottom, bottom: safeBottom },
          { top: safeTop, bottom: photosTop },
        ];

  let block: { lines: string[]; fontPx: number; top: number; band: boolean } | undefined;
  for (const pt of PAGE_TEXT_PT) {
    const fontPx = Math.round((pt / 72) * dpi);
    const lines = await wrapText(texts, fontPx, maxWidth, PAGE_TEXT_FONT);
    const height = lines.length * fontPx * LINE_HEIGHT;
    const space = spaces.find((s) => s.bottom - s.top - fontPx * 0.5 >= height);
    if (space) {
      block = { lines, fontPx, top: Math.round((space.top + space.bottom - height) / 2), band: false };
      break;
    }
  }
  if (!block) {
    const fontPx = Math.round((PAGE_TEXT_PT[0] / 72) * dpi);
    const lines = await wrapText(texts, fontPx, maxWidth, PAGE_TEXT_FONT);
    const height = lines.length * fontPx * LINE_HEIGHT;
    block = { lines, fontPx, top: Math.round(Math.max(safeTop, safeBottom - height)), band: true };
  }
  const { lines, fontPx, top } = block;
  const height = Math.round(lines.length * fontPx * LINE_HEIGHT);
  const centre = trim.left + trim.width / 2;
  const band = block.band
    ? `<rect x="${trim.left + safe / 2}" y="${top - fontPx * 0.3}" width="${trim.width - safe}" height="${height + fontPx * 0.6}" fill="#ffffff" fill-opacity="0.85"/>`
    : '';
  const text = lines
    .map(
      (line, i) =>
        `<text x="${centre}" y="${Math.round(top + fontPx * (LINE_HEIGHT * i + 1.05))}" text-anchor="middle" ${svgFontAttributes(PAGE_TEXT_FONT)} font-size="${fontPx}" fill="#333333">${escapeXml(line)}</text>`,
    )
    .join('');
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${page.width}" height="${page.height}" viewBox="0 0 ${page.width} ${page.height}">${band}${text}</svg>`,
  );
}

/**
 * Greedy word wrap with widths measured by Pango in `font` (the face librsvg draws the SVG with); a
 * word wider than a line is cut with an ellipsis. At most 12 lines: the last one ends with an ellipsis.
 */
export async function wrapText(texts: string[], fontPx: number, maxWidth: number, font: TextFont): Promise<string[]> {
  const lines: string[] = [];
  for (const paragraph of texts
    .flatMap((t) => t.split(/\r\n|\r|\n/))
    .map(cleanText)
    .filter(Boolean)) {
    let line = '';
    for (const word of paragraph.split(' ')) {
      const candidate = line ? `${line} ${word}` : word;
      if ((await measureText(candidate, fontPx, font)) <= maxWidth * 0.97) {
        line = candidate;
        continue;
      }
      if (line) lines.push(line);
      line =
        (await measureText(word, fontPx, font)) <= maxWidth * 0.97 ? word : await fitText(word, fontPx, font, maxWidth);
    }
    if (line) lines.push(line);
  }
  if (lines.length <= MAX_TEXT_LINES) return lines;
  const kept = lines.slice(0, MAX_TEXT_LINES);
  kept[MAX_TEXT_LINES - 1] = await fitText(
    `${kept[MAX_TEXT_LINES - 1]} ${lines[MAX_TEXT_LINES]}`,
    fontPx,
    font,
    maxWidth,
  );
  if (!kept[MAX_TEXT_LINES - 1].endsWith('\u2026')) kept[MAX_TEXT_LINES - 1] += '\u2026';
  return kept;
}
