// Test images for the print renderer, all made by sharp in memory.
import sharp from 'sharp';
import type { PrintFormat } from '../../../src/imaging/print/print-geometry';

export const A4: PrintFormat = { widthMm: 210, heightMm: 297, bleedMm: 3, dpi: 300 };

export function solidJpeg(width: number, height: number, background: string): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background } })
    .jpeg({ quality: 95 })
    .toBuffer();
}

/**
 * A neutral, full-range "photo": a white-to-black gradient with grey noise and a few coloured shapes
 * whose colours balance out. Its channel means are about equal and it spans 0..255 in each channel.
 */
export async function neutralPhoto(width = 600, height = 400): Promise<Buffer> {
  const grain = await sharp({
    create: { width, height, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 40 } },
  })
    .toColourspace('b-w')
    .png()
    .toBuffer();
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">` +
    `<defs><linearGradient id="g" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#ffffff"/><stop offset="1" stop-color="#000000"/></linearGradient></defs>` +
    `<rect width="${width}" height="${height}" fill="url(#g)"/>` +
    `<circle cx="${width * 0.3}" cy="${height * 0.5}" r="${height * 0.18}" fill="#b05050"/>` +
    `<rect x="${width * 0.6}" y="${height * 0.3}" width="${width * 0.15}" height="${height * 0.4}" fill="#5050b0"/>` +
    `<rect x="${width * 0.1}" y="${height * 0.78}" width="${width * 0.25}" height="${height * 0.12}" fill="#50b050"/>` +
    `</svg>`;
  return sharp(Buffer.from(svg))
    .composite([{ input: grain, blend: 'soft-light' }])
    .jpeg({ quality: 95 })
    .toBuffer();
}

/** Channel means [r, g, b] of a whole image. */
export async function channelMeans(image: Buffer): Promise<number[]> {
  return (await sharp(image).stats()).channels.slice(0, 3).map((c) => c.mean);
}

/** Largest minus smallest channel mean: 0 for a neutral image, large for a colour cast. */
export function spread(means: number[]): number {
  return Math.max(...means) - Math.min(...means);
}

/** Mean [r, g, b] of a region, from the extracted pixels. */
export async function regionMeans(
  image: Buffer,
  region: { left: number; top: number; width: number; height: number },
): Promise<number[]> {
  const { data, info } = await sharp(image)
    .extract(region)
    .removeAlpha()
    .toColourspace('srgb')
    .raw()
    .toBuffer({ resolveWithObject: true });
  const sums = [0, 0, 0];
  for (let i = 0; i < data.length; i += info.channels) for (let c = 0; c < 3; c++) sums[c] += data[i + c];
  const pixels = data.length / info.channels;
  return sums.map((s) => s / pixels);
}

/** Mean colour of a square of `side` px centred on (x, y). */
export function sampleAt(image: Buffer, x: number, y: number, side = 20): Promise<number[]> {
  return regionMeans(image, {
    left: Math.round(x - side / 2),
    top: Math.round(y - side / 2),
    width: side,
    height: side,
  });
}

/** Pixels in a region darker than `threshold` in every channel. */
export async function darkPixels(
  image: Buffer,
  region: { left: number; top: number; width: number; height: number },
  threshold = 128,
): Promise<number> {
  const { data, info } = await sharp(image)
    .extract(region)
    .removeAlpha()
    .toColourspace('srgb')
    .raw()
    .toBuffer({ resolveWithObject: true });
  let count = 0;
  for (let i = 0; i < data.length; i += info.channels)
    if (data[i] < threshold && data[i + 1] < threshold && data[i + 2] < threshold) count++;
  return count;
}

/** Asserts-free helper: is every channel within `tolerance` of the expected colour? */
export function near(actual: number[], expected: number[], tolerance = 12): boolean {
  return actual.every((v, i) => Math.abs(v - expected[i]) <= tolerance);
}

/** Pixels of the region with every channel above `threshold`: white text on a dark cover. */
export async function lightPixels(
  image: Buffer,
  region: { left: number; top: number; width: number; height: number },
  threshold = 200,
): Promise<number> {
  const { data, info } = await sharp(image)
    .extract(region)
    .removeAlpha()
    .toColourspace('srgb')
    .raw()
    .toBuffer({ resolveWithObject: true });
  let count = 0;
  for (let i = 0; i < data.length; i += info.channels)
    if (data[i] > threshold && data[i + 1] > threshold && data[i + 2] > threshold) count++;
  return count;
}
