import sharp, { type OverlayOptions } from 'sharp';
import type { BookCover } from '../../domain/book';
import {
  cleanText,
  coverTextLines,
  DEFAULT_COVER_BACKGROUND,
  escapeXml,
  faceSafeArea,
  fitText,
  textOverlaySvg,
  titleBandHeight,
} from '../cover-preview';
import { FONTS, svgFontAttributes, type TextFont } from '../fonts';
import { boxPixels, coverSheetFormat, type CoverGeometry, type PixelBox } from './cover-geometry';
import { MM_PER_INCH, pagePixels } from './print-geometry';
import { compose, LINE_HEIGHT, placePhoto, wrapText, type PrintRenderOptions, type RenderedPage } from './render-page';
import type { RawPhotoLayer } from './page-canvas';
import { SAFE_MARGIN_MM } from '../../domain/print-safe-area';

/** Back-cover text size: a blurb, set like a page's text. */
const BACK_TEXT_PT = 12;
/** The spine's title is at most this size, and at most this share of the spine's width. */
const SPINE_TEXT_MAX_PT = 24;
const SPINE_TEXT_SHARE = 0.55;
/**
 * The spine's text keeps this far from each fold (the spine's long edges), which may drift onto the
 * boards by a millimetre or so. A line of type is about 1.2 em from descender to ascender.
 */
const SPINE_EDGE_MM = 1.6;
const LINE_EXTENT_EM = 1.2;
const SPINE_FONT: TextFont = { family: FONTS.sans, bold: true };
const BACK_FONT: TextFont = { family: FONTS.sans, bold: false };

/** The texts of the cover sheet, as the renderer sets them (the preflight checks the same ones). */
function spineTextOf(cover: BookCover): string {
  return cleanText(cover.texts.find((t) => t.assetId === 'spine')?.text) || cleanText(cover.title);
}

function backCoverTextOf(cover: BookCover): string {
  return cover.texts.find((t) => t.assetId === 'backCover')?.text ?? '';
}

/**
 * The cover sheet at print resolution, exactly `geometry`'s size at the format's DPI: the back
 * panel in the cover colour with the back-cover text centred in its safe area; the spine in the
 * same colour with its title turned to read top to bottom, only when `geometry.spineText` says
 * the spine is thick enough (binderies leave a thin spine blank); the front with the cover photo
 * and the title band of the editor's cover preview (cover-preview.ts). The photo runs from the
 * spine's edge over the front panel, its hinge, wrap and bleed to the sheet's edges, and the
 * colour fills everything else to the edges, so no white shows where the sheet turns round a board.
 * A photo with faces (Photo.faces) gets the automatic crop of interior slots (domain/slot-crop.ts),
 * keeping them inside the front panel's safe area (SAFE_MARGIN_MM inside the spine's fold and the
 * trim, above the title band), off the spine, hinge and wrap; without faces, the attention crop.
 */
export async function renderPrintCoverSheet(
  options: PrintRenderOptions & { cover: BookCover; geometry: CoverGeometry },
): Promise<RenderedPage> {
  const { cover, geometry } = options;
  const dpi = options.format.dpi;
  const sheetFormat = coverSheetFormat(geometry, dpi);
  const size = pagePixels(sheetFormat);
  const back = boxPixels(geometry.back, dpi);
  const spine = boxPixels(geometry.spine, dpi);
  const front = boxPixels(geometry.front, dpi);
  const safe = Math.round((SAFE_MARGIN_MM / MM_PER_INCH) * dpi);

  const photos: RawPhotoLayer[] = [];
  const placements: RenderedPage['placements'] = [];
  if (cover.photoId) {
    const frontEdge = spine.left + spine.width;
    const rect = { left: frontEdge, top: 0, width: size.width - frontEdge, height: size.height };
    const faces = options.photoFaces?.[cover.photoId];
    const bandPx = await titleBandHeight(front.width, front.height, cover.title, cover.subtitle, safe);
    const placed = await placePhoto(
      { ...options, format: sheetFormat },
      cover.photoId,
      rect,
      size,
      faces?.length ? { faces, safe: frontSafeArea(rect, front, safe, bandPx) } : undefined,
    );
    if (placed.layer) photos.push(placed.layer);
    placements.push(placed.placement);
  }

  const overlays: OverlayOptions[] = [];
  const title = await textOverlaySvg(front.width, front.height, cover.title, cover.subtitle, safe);
  if (title) overlays.push({ input: Buffer.from(title), left: front.left, top: front.top });
  const spineSvg = geometry.spineText ? await spineTextSvg(spine, spineTextOf(cover), safe, dpi) : null;
  if (spineSvg) overlays.push({ input: spineSvg, left: spine.left, top: spine.top });
  const backSvg = await backTextSvg(back, backCoverTextOf(cover), safe, dpi);
  if (backSvg) overlays.push({ input: backSvg, left: back.left, top: back.top });
  return compose(
    size,
    photos,
    overlays,
    dpi,
    placements,
    options.background ?? DEFAULT_COVER_BACKGROUND,
    options.outputProfile,
  );
}

/**
 * The front panel's safe area, `safe` pixels inside its edges and above the title band (`bandPx`
 * tall at its bottom), in 0..1 of the photo's `rect` (which runs past the front into the hinge,
 * wrap and bleed).
 */
function frontSafeArea(rect: PixelBox, front: PixelBox, safe: number, bandPx: number) {
  const inFront = faceSafeArea(
    {
      left: safe / front.width,
      top: safe / front.height,
      right: 1 - safe / front.width,
      bottom: 1 - safe / front.height,
    },
    front.height,
    bandPx,
  );
  return {
    left: (front.left + inFront.left * front.width - rect.left) / rect.width,
    right: (front.left + inFront.right * front.width - rect.left) / rect.width,
    top: (front.top + inFront.top * front.height - rect.top) / rect.height,
    bottom: (front.top + inFront.bottom * front.height - rect.top) / rect.height,
  };
}

/** A text of the cover sheet that does not fit where it is set, so prints cut: which one and how. */
export interface CoverTextCut {
  assetId: 'title' | 'subtitle' | 'spine' | 'backCover';
  message: string;
}

/**
 * The cover texts the sheet cannot hold whole, laid out exactly as renderPrintCoverSheet sets them:
 * a title or subtitle wider than the front's safe width, a spine title longer than the spine, a
 * back-cover text with more lines than the back panel holds. The preflight reports them.
 */
export async function coverTextCuts(cover: BookCover, geometry: CoverGeometry, dpi: number): Promise<CoverTextCut[]> {
  const cuts: CoverTextCut[] = [];
  const front = boxPixels(geometry.front, dpi);
  const safe = Math.round((SAFE_MARGIN_MM / MM_PER_INCH) * dpi);
  for (const line of (await coverTextLines(front.width, front.height, cover.title, cover.subtitle, safe)).lines) {
    if (line.cut)
      cuts.push({
        assetId: line.assetId,
        message: `the ${line.assetId} is wider than the front cover and prints cut to "${line.text}"`,
      });
  }
  if (geometry.spineText) {
    const spine = await spineLayout(boxPixels(geometry.spine, dpi), spineTextOf(cover), safe, dpi);
    if (spine?.cut)
      cuts.push({
        assetId: 'spine',
        message: `the spine text is longer than the spine and prints cut to "${spine.text}"`,
      });
  }
  const back = await backLayout(boxPixels(geometry.back, dpi), backCoverTextOf(cover), safe, dpi);
  if (back && back.shown.length < back.lines.length) {
    cuts.push({
      assetId: 'backCover',
      message: `the back-cover text needs ${back.lines.length} lines; the back cover holds ${back.shown.length}`,
    });
  }
  return cuts;
}

async function spineLayout(
  spine: PixelBox,
  text: string,
  safe: number,
  dpi: number,
): Promise<{ text: string; fontPx: number; cut: boolean } | null> {
  if (!text) return null;
  const edge = (SPINE_EDGE_MM / MM_PER_INCH) * dpi;
  const fontPx = Math.max(
    1,
    Math.floor(
      Math.min(
        spine.width * SPINE_TEXT_SHARE,
        (spine.width - 2 * edge) / LINE_EXTENT_EM,
        (SPINE_TEXT_MAX_PT / 72) * dpi,
      ),
    ),
  );
  const fitted = await fitText(text, fontPx, SPINE_FONT, Math.max(1, spine.height - 2 * safe));
  return { text: fitted, fontPx, cut: fitted !== text };
}

/** The spine's title turned a quarter clockwise, centred, cut with an ellipsis to the spine's safe length. */
async function spineTextSvg(spine: PixelBox, text: string, safe: number, dpi: number): Promise<Buffer | null> {
  const layout = await spineLayout(spine, text, safe, dpi);
  if (!layout?.text) return null;
  const { fontPx } = layout;
  const cx = spine.width / 2;
  const cy = spine.height / 2;
  // Rotated about the centre: the baseline sits 0.35 em right of the spine's middle line, so the glyphs' box is centred.
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${spine.width}" height="${spine.height}" viewBox="0 0 ${spine.width} ${spine.height}">` +
      `<text x="${cx}" y="${Math.round(cy + fontPx * 0.35)}" transform="rotate(90 ${cx} ${cy})" text-anchor="middle" ${svgFontAttributes(SPINE_FONT)} font-size="${fontPx}" fill="#ffffff">${escapeXml(layout.text)}</text>` +
      `</svg>`,
  );
}

async function backLayout(
  back: PixelBox,
  text: string,
  safe: number,
  dpi: number,
): Promise<{ lines: string[]; shown: string[]; fontPx: number } | null> {
  if (!cleanText(text)) return null;
  const fontPx = Math.round((BACK_TEXT_PT / 72) * dpi);
  const lines = await wrapText([text], fontPx, back.width - 2 * safe, BACK_FONT);
  const maxLines = Math.max(1, Math.floor((back.height - 2 * safe) / (fontPx * LINE_HEIGHT)));
  return { lines, shown: lines.slice(0, maxLines), fontPx };
}

/** The back-cover text word-wrapped to the back panel's safe width, centred in it. */
async function backTextSvg(back: PixelBox, text: string, safe: number, dpi: number): Promise<Buffer | null> {
  const layout = await backLayout(back, text, safe, dpi);
  if (!layout) return null;
  const { shown, fontPx } = layout;
  const lineHeight = fontPx * LINE_HEIGHT;
  const top = Math.max(safe, (back.height - shown.length * lineHeight) / 2);
  const texts = shown
    .map(
      (line, i) =>
        `<text x="${back.width / 2}" y="${Math.round(top + lineHeight * i + fontPx * 1.05)}" text-anchor="middle" ${svgFontAttributes(BACK_FONT)} font-size="${fontPx}" fill="#ffffff">${escapeXml(line)}</text>`,
    )
    .join('');
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${back.width}" height="${back.height}" viewBox="0 0 ${back.width} ${back.height}">${texts}</svg>`,
  );
}

/** Width of the cover sheet's preview: enough for a dashboard to show the spread legibly. */
const COVER_PREVIEW_WIDTH = 1200;

/** A small JPEG of the rendered sheet itself (decoded shrunk on load), so a preview is exactly what prints. */
export function coverSheetPreview(sheetJpeg: Buffer): Promise<Buffer> {
  return sharp(sheetJpeg).resize({ width: COVER_PREVIEW_WIDTH }).jpeg({ quality: 80 }).toBuffer();
}
