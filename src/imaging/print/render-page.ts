import sharp, { type OverlayOptions } from 'sharp';
import type { BookCover, BookPage } from '../../services/projects/book';
import { colourCorrection } from './color-correction';
import { dpiWarning, effectiveDpi } from './effective-dpi';
import { pagePixels, type PrintFormat } from './print-geometry';

export interface PhotoPlacement {
  photoId: string;
  effectiveDpi: number;
  warning?: string;
}

export interface RenderedPage {
  jpeg: Buffer;
  widthPx: number;
  heightPx: number;
  placements: PhotoPlacement[];
}

interface RenderOptions {
  format: PrintFormat;
  loadPhoto: (photoId: string) => Promise<Buffer>;
  colorCorrection: boolean;
}

const JPEG_QUALITY = 92;

/**
 * One interior page at print resolution: a white canvas of trim + bleed, each photo cropped to
 * fill its slot (slots are relative to the trim box), texts on top. Photos are decoded and
 * resized one at a time, so memory holds the page and one photo, never the book.
 */
export async function renderPrintPage(options: RenderOptions & { page: BookPage }): Promise<RenderedPage> {
  const { format, page } = options;
  const size = pagePixels(format);
  const trimWidth = size.width - 2 * size.bleed;
  const trimHeight = size.height - 2 * size.bleed;
  const layers: OverlayOptions[] = [];
  const placements: PhotoPlacement[] = [];
  for (const slot of page.photos) {
    const left = size.bleed + Math.round(slot.x * trimWidth);
    const top = size.bleed + Math.round(slot.y * trimHeight);
    const width = Math.max(1, Math.round(slot.width * trimWidth));
    const height = Math.max(1, Math.round(slot.height * trimHeight));
    const { image, placement } = await placePhoto(options, slot.photoId, width, height);
    layers.push({ input: image, raw: { width, height, channels: 3 }, left, top });
    placements.push(placement);
  }
  if (page.texts.length > 0) {
    layers.push({ input: textSvg(size.width, size.height, page.texts.map((t) => t.text).join('\n'), 'page'), left: 0, top: 0 });
  }
  return compose(size, layers, format.dpi, placements);
}

/** The front cover: the cover photo full-bleed and the title band, at the page size. */
export async function renderPrintCover(options: RenderOptions & { cover: BookCover }): Promise<RenderedPage> {
  const { format, cover } = options;
  const size = pagePixels(format);
  const layers: OverlayOptions[] = [];
  const placements: PhotoPlacement[] = [];
  if (cover.photoId) {
    const { image, placement } = await placePhoto(options, cover.photoId, size.width, size.height);
    layers.push({ input: image, raw: { width: size.width, height: size.height, channels: 3 }, left: 0, top: 0 });
    placements.push(placement);
  }
  const title = [cover.title, cover.subtitle].filter(Boolean).join('\n');
  layers.push({ input: textSvg(size.width, size.height, title, 'cover'), left: 0, top: 0 });
  return compose(size, layers, format.dpi, placements, cover.photoId ? '#ffffff' : '#2f3b48');
}

/** The photo oriented, corrected if asked, cropped to fill width x height: raw RGB pixels. */
async function placePhoto(options: RenderOptions, photoId: string, width: number, height: number): Promise<{ image: Buffer; placement: PhotoPlacement }> {
  const original = await options.loadPhoto(photoId);
  const meta = await sharp(original).metadata();
  const rotated = (meta.orientation ?? 1) >= 5;
  const photoWidth = (rotated ? meta.height : meta.width) ?? width;
  const photoHeight = (rotated ? meta.width : meta.height) ?? height;
  let pipeline = sharp(original, { failOn: 'error' }).rotate().removeAlpha();
  if (options.colorCorrection) {
    const { a, b } = await colourCorrection(original);
    pipeline = pipeline.linear(a, b);
  }
  const image = await pipeline.resize(width, height, { fit: 'cover', position: sharp.strategy.attention }).toColourspace('srgb').raw().toBuffer();
  const dpi = effectiveDpi(photoWidth, photoHeight, width, height, options.format.dpi);
  const warning = dpiWarning(dpi);
  return { image, placement: { photoId, effectiveDpi: dpi, ...(warning ? { warning } : {}) } };
}

async function compose(
  size: { width: number; height: number },
  layers: OverlayOptions[],
  dpi: number,
  placements: PhotoPlacement[],
  background = '#ffffff',
): Promise<RenderedPage> {
  const jpeg = await sharp({ create: { width: size.width, height: size.height, channels: 3, background } })
    .composite(layers)
    .jpeg({ quality: JPEG_QUALITY, chromaSubsampling: '4:4:4' })
    .withMetadata({ density: dpi })
    .toBuffer();
  return { jpeg, widthPx: size.width, heightPx: size.height, placements };
}

function textSvg(width: number, height: number, text: string, kind: 'page' | 'cover'): Buffer {
  const lines = text.split('\n').filter(Boolean).map(escapeXml);
  const fontSize = Math.round(height * (kind === 'cover' ? 0.045 : 0.022));
  const bandHeight = Math.round(fontSize * (lines.length + 1) * 1.3);
  const top = kind === 'cover' ? height - bandHeight - Math.round(height * 0.06) : Math.round(height * 0.08);
  const band = kind === 'cover' ? `<rect x="0" y="${top}" width="${width}" height="${bandHeight}" fill="#000" fill-opacity="0.45"/>` : '';
  const colour = kind === 'cover' ? '#fff' : '#333';
  const tspans = lines
    .map((line, i) => `<text x="50%" y="${top + Math.round(fontSize * 1.3 * (i + 1))}" font-family="DejaVu Sans, sans-serif" font-size="${fontSize}" fill="${colour}" text-anchor="middle">${line}</text>`)
    .join('');
  return Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">${band}${tspans}</svg>`);
}

function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!);
}
