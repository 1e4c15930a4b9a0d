import sharp from 'sharp';
import { guardDecode, openImage, readImageMetadata, type ImageSource } from './decode';
import { FONTS, pangoFont, svgFontAttributes, type TextFont } from './fonts';
import { hexColourBytes } from './hex-colour';
import { photoRegion } from './crop-region';
import { automaticCrop, cropRect } from '../domain/slot-crop';
import type { FaceBox } from '../domain/face-box';
import type { SlotArea } from '../domain/print-safe-area';

export { NotAnImageError } from './errors';

export interface CoverPreviewOptions {
  /** Output width in pixels, integer 1..MAX_COVER_SIDE. */
  widthPx: number;
  /** Output height in pixels, integer 1..MAX_COVER_SIDE. */
  heightPx: number;
  /** Cover photo (any supported format); auto-rotated and cropped to fill. Omitted: plain background. */
  photo?: ImageSource;
  /** Set in a band at the bottom; truncated with an ellipsis when too wide. Empty: no band. */
  title: string;
  /** Smaller line under the title. */
  subtitle?: string;
  /** Background when there is no photo, "#rgb" or "#rrggbb". */
  backgroundColor?: string;
  /**
   * The photo's faces (Photo.faces) and the part of the cover they must stay in (0..1 of the cover:
   * the front's safe area, coverSafeArea): with faces, the photo gets the automatic crop that keeps
   * them there and clear of the title band; without (none found, or unknown), the attention crop.
   */
  faces?: { boxes: readonly FaceBox[] | null | undefined; safe: SlotArea };
}

const MAX_COVER_SIDE = 8000;
export const DEFAULT_COVER_BACKGROUND = '#2f3b48';

/** Faces of the cover texts (shipped with the project, fonts.ts): the overlay and the measurement use the same. */
const TITLE_FONT: TextFont = { family: FONTS.serif, bold: true };
const SUBTITLE_FONT: TextFont = { family: FONTS.sans, bold: false };
const ELLIPSIS = '\u2026';
/** Opacity of the black band behind the texts. */
const BAND_OPACITY = 0.55;

/**
 * Renders a JPEG preview of a book cover, exactly widthPx x heightPx: the photo turned upright by
 * its EXIF orientation and cropped to fill (with faces, the automatic crop that keeps them inside
 * the cover's safe area above the title band, as the print's cover sheet does; without, sharp's
 * "attention" strategy keeps the most salient region: skin tones, saturated colour, luminance
 * detail), or a plain background without a photo;
 * then, if there is a title or subtitle, a semi-transparent dark band at the bottom with the texts
 * centred in white, drawn from an SVG overlay in the shipped faces (fonts.ts). A title too wide shrinks
 * to 70% of its size, then is cut with an ellipsis, measured by Pango in the face librsvg draws with.
 *
 * Throws RangeError for bad dimensions or colour, NotAnImageError when the photo cannot be decoded.
 */
export async function renderCoverPreview(options: CoverPreviewOptions): Promise<Buffer> {
  const { widthPx: width, heightPx: height, photo } = options;
  for (const [name, value] of [
    ['widthPx', width],
    ['heightPx', height],
  ] as const) {
    if (!Number.isInteger(value) || value < 1 || value > MAX_COVER_SIDE) {
      throw new RangeError(`${name} must be an integer from 1 to ${MAX_COVER_SIDE}, got ${value}`);
    }
  }
  const background = options.backgroundColor ?? DEFAULT_COVER_BACKGROUND;
  hexColourBytes(background, 'backgroundColor');

  const overlay = await textOverlaySvg(width, height, options.title, options.subtitle);
  const composite = overlay ? [{ input: Buffer.from(overlay), top: 0, left: 0 }] : [];

  if (photo === undefined) {
    return sharp({ create: { width, height, channels: 3, background } })
      .composite(composite)
      .jpeg({ quality: 85 })
      .toBuffer();
  }

  // Format allow-list and pixel limit, before any decoding.
  const metadata = await readImageMetadata(photo);
  const upright = metadata.autoOrient ?? { width: metadata.width, height: metadata.height };
  const faces = options.faces?.boxes?.length ? options.faces : undefined;
  const safe =
    faces && faceSafeArea(faces.safe, height, await titleBandHeight(width, height, options.title, options.subtitle));
  const crop = faces && safe ? automaticCrop(upright, { width, height }, faces.boxes, safe) : undefined;
  const turned = openImage(photo).rotate(); // auto-orient from EXIF
  return guardDecode(
    (crop
      ? turned.extract(photoRegion(upright, cropRect(upright, { width, height }, crop))).resize(width, height, {
          fit: 'fill',
        })
      : turned.resize({ width, height, fit: 'cover', position: sharp.strategy.attention })
    )
      .flatten({ background: '#ffffff' })
      .composite(composite)
      .jpeg({ quality: 85 })
      .toBuffer(),
  );
}

// ---------------------------------------------------------------------------------------------
// Text overlay

interface TextLine {
  assetId: 'title' | 'subtitle';
  text: string;
  fontSize: number;
  font: TextFont;
  opacity: number;
  /** The text did not fit the cover's width and was cut with an ellipsis. */
  cut: boolean;
}

/** A title may shrink to this share of its size to fit on its line before it is cut with an ellipsis. */
const MIN_TITLE_SHRINK = 0.7;

/**
 * The title and subtitle as a cover of this size sets them: their sizes, each shrunk (down to 70%)
 * to fit the width and, failing that, cut with an ellipsis. `safePx` keeps the texts that far inside
 * the cover's edges (the print's safe margin; the preview has none).
 */
export async function coverTextLines(
  width: number,
  height: number,
  title: string,
  subtitle?: string,
  safePx = 0,
): Promise<{ lines: TextLine[]; padding: number }> {
  const titleText = cleanText(title);
  const subtitleText = cleanText(subtitle);
  // Sizes relative to the cover: a 800x600 cover gets a 42 px title and a 23 px subtitle.
  const titleSize = Math.max(6, Math.round(Math.min(height * 0.07, width * 0.08)));
  const subtitleSize = Math.max(5, Math.round(titleSize * 0.55));
  const padding = Math.max(safePx, Math.round(titleSize * 0.5));
  const sidePadding = Math.max(padding, Math.round(width * 0.05));
  const maxTextWidth = Math.max(1, width - 2 * sidePadding);

  const lines: TextLine[] = [];
  for (const [assetId, text, size, font, opacity] of [
    ['title', titleText, titleSize, TITLE_FONT, 1],
    ['subtitle', subtitleText, subtitleSize, SUBTITLE_FONT, 0.9],
  ] as const) {
    if (!text) continue;
    const fontSize = await shrinkToFit(text, size, font, maxTextWidth);
    const fitted = await fitText(text, fontSize, font, maxTextWidth);
    lines.push({ assetId, text: fitted, fontSize, font, opacity, cut: fitted !== text });
  }
  return { lines, padding };
}

/** The largest size from `size` down to 70% of it at which `text` fits one line; 70% when none does. */
async function shrinkToFit(text: string, size: number, font: TextFont, maxWidth: number): Promise<number> {
  const limit = maxWidth * 0.97 - 1;
  const width = await measureText(text, size, font);
  if (width <= limit) return size;
  // Width grows in proportion to the size: one measurement says the size that fits, a second confirms it.
  const floor = Math.max(1, Math.ceil(size * MIN_TITLE_SHRINK));
  let fitting = Math.max(floor, Math.floor((size * limit) / width));
  while (fitting > floor && (await measureText(text, fitting, font)) > limit) fitting--;
  return fitting;
}

/** The SVG drawn over the cover, or null when there is no text. Exported for tests. */
export async function textOverlaySvg(
  width: number,
  height: number,
  title: string,
  subtitle?: string,
  safePx = 0,
): Promise<string | null> {
  const { lines, padding } = await coverTextLines(width, height, title, subtitle, safePx);
  if (lines.length === 0) return null;

  const bandHeight = bandHeightOf(lines, padding, height);
  const bandTop = height - bandHeight;
  let lineTop = bandTop + padding;
  const texts: string[] = [];
  for (const line of lines) {
    const baseline = Math.round(lineTop + line.fontSize * 0.95);
    lineTop += line.fontSize * 1.3;
    if (!line.text) continue;
    texts.push(
      `<text x="${width / 2}" y="${baseline}" text-anchor="middle" ${svgFontAttributes(line.font)}` +
        ` font-size="${line.fontSize}" fill="#ffffff" fill-opacity="${line.opacity}">${escapeXml(line.text)}</text>`,
    );
  }
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">` +
    `<rect x="0" y="${bandTop}" width="${width}" height="${bandHeight}" fill="#000000" fill-opacity="${BAND_OPACITY}"/>` +
    texts.join('') +
    `</svg>`
  );
}

/** Line box 1.3 em, baseline at 0.95 em (Lora's ascent ~1.0 em, Source Sans 3's ~0.98 em; descents ~0.27 em). */
function bandHeightOf(lines: TextLine[], padding: number, height: number): number {
  return Math.min(height, Math.round(2 * padding + lines.reduce((sum, line) => sum + line.fontSize * 1.3, 0)));
}

/** Height in pixels of the dark band the title and subtitle are set in (textOverlaySvg); 0 without text. */
export async function titleBandHeight(
  width: number,
  height: number,
  title: string,
  subtitle?: string,
  safePx = 0,
): Promise<number> {
  const { lines, padding } = await coverTextLines(width, height, title, subtitle, safePx);
  return lines.length === 0 ? 0 : bandHeightOf(lines, padding, height);
}

/**
 * The cover's safe area (0..1 of the cover) less the title band at its bottom (`bandPx` of a cover
 * `heightPx` tall): a face under the band would print behind it. When the band leaves no room,
 * the safe area as it is.
 */
export function faceSafeArea(safe: SlotArea, heightPx: number, bandPx: number): SlotArea {
  const bottom = Math.min(safe.bottom, 1 - bandPx / heightPx);
  return bottom > safe.top ? { ...safe, bottom } : safe;
}

/**
 * The longest prefix of `text` (whole graphemes) that, followed by an ellipsis, fits maxWidth; the
 * text itself when it fits whole. Widths are measured by rendering with Pango (about 1 ms each,
 * ~log2(length) times), with a small margin for differences between Pango and librsvg layout.
 */
export async function fitText(text: string, fontSize: number, font: TextFont, maxWidth: number): Promise<string> {
  const limit = maxWidth * 0.97 - 1;
  const measure = (s: string) => measureText(s, fontSize, font);
  if ((await measure(text)) <= limit) return text;

  // No glyph of a text font is narrower than ~0.2 em, so no more graphemes than this can fit.
  const graphemes = splitGraphemes(text).slice(0, Math.ceil(limit / (fontSize * 0.2)) + 1);
  const withEllipsis = (count: number) => graphemes.slice(0, count).join('').trimEnd() + ELLIPSIS;
  let lo = 0; // withEllipsis(lo) fits (or lo = 0: nothing but the ellipsis)
  let hi = graphemes.length - 1;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if ((await measure(withEllipsis(mid))) <= limit) lo = mid;
    else hi = mid - 1;
  }
  if (lo === 0) return (await measure(ELLIPSIS)) <= limit ? ELLIPSIS : '';
  return withEllipsis(lo);
}

/** Width in pixels of one line of `text`, laid out by Pango in `font` (the face librsvg draws it with). */
export async function measureText(text: string, fontSize: number, font: TextFont): Promise<number> {
  if (!text.trim()) return 0;
  const { width } = await sharp({
    text: { text: escapeXml(text), font: pangoFont(font, fontSize), wrap: 'none' },
  }).metadata();
  return width;
}

const graphemeSegmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

function splitGraphemes(text: string): string[] {
  return Array.from(graphemeSegmenter.segment(text), (s) => s.segment);
}

/**
 * One line of printable text: control characters and line breaks become spaces, runs of white
 * space collapse, and what XML 1.0 cannot carry (lone surrogates, U+FFFE/U+FFFF) is replaced.
 */
export function cleanText(text: string | undefined | null): string {
  if (typeof text !== 'string') return '';
  return text
    .replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]|[\uFFFE\uFFFF]/g, '\uFFFD')
    .replace(/[\u0000-\u001F\u007F-\u009F\u2028\u2029]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Escapes the five XML special characters (also valid for Pango markup). */
export function escapeXml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!,
  );
}
