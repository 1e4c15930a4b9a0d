// Test images, all made by sharp in memory (no fixture files).
import sharp from 'sharp';

/** Deterministic pseudo-random bytes (mulberry32), so failures are reproducible. */
export function pseudoRandomBytes(length: number, seed = 1): Buffer {
  const out = Buffer.alloc(length);
  let a = seed >>> 0;
  for (let i = 0; i < length; i++) {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    out[i] = ((t ^ (t >>> 14)) >>> 0) & 0xff;
  }
  return out;
}

/** RGB noise: maximal fine detail. */
export function noise(width: number, height: number, seed = 1) {
  return sharp(pseudoRandomBytes(width * height * 3, seed), { raw: { width, height, channels: 3 } });
}

/** A solid colour. */
export function solid(width: number, height: number, background: string) {
  return sharp({ create: { width, height, channels: 3, background } });
}

/**
 * A detailed scene with the same content at any size: a checkerboard with a 40x30 grid, plus
 * stripes and circles (geometry only, no text, so it does not depend on installed fonts).
 */
export function scene(width: number, height: number) {
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 400 300" preserveAspectRatio="none">` +
    `<defs><pattern id="c" width="20" height="20" patternUnits="userSpaceOnUse">` +
    `<rect width="20" height="20" fill="#e8e4dc"/><rect width="10" height="10" fill="#303840"/><rect x="10" y="10" width="10" height="10" fill="#303840"/>` +
    `</pattern></defs>` +
    `<rect width="400" height="300" fill="url(#c)"/>` +
    `<circle cx="120" cy="150" r="70" fill="#c04030" stroke="#fff" stroke-width="3"/>` +
    `<circle cx="290" cy="110" r="45" fill="#3070c0" stroke="#000" stroke-width="2"/>` +
    Array.from(
      { length: 12 },
      (_, i) => `<rect x="${230 + i * 12}" y="190" width="5" height="90" fill="#f0d020"/>`,
    ).join('') +
    `</svg>`;
  return sharp(Buffer.from(svg));
}

/**
 * width x height, stored un-rotated, left half red and right half blue: after EXIF orientation 6
 * (turn 90 degrees clockwise to display) the top is red and the bottom blue.
 */
export function redLeftBlueRight(width: number, height: number) {
  const half = Math.floor(width / 2);
  return sharp({ create: { width, height, channels: 3, background: '#0000ff' } }).composite([
    { input: { create: { width: half, height, channels: 3, background: '#ff0000' } }, left: 0, top: 0 },
  ]);
}

/**
 * Mean and max of each channel [r, g, b] in a region. (Computed from the extracted pixels:
 * sharp's stats() describes the whole input image, whatever extract() precedes it.)
 */
export async function regionStats(
  image: Buffer,
  region: { left: number; top: number; width: number; height: number },
): Promise<{ mean: number[]; max: number[] }> {
  const { data, info } = await sharp(image).extract(region).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const sums = [0, 0, 0];
  const max = [0, 0, 0];
  const pixels = info.width * info.height;
  for (let i = 0; i < pixels; i++) {
    for (let c = 0; c < 3; c++) {
      const v = data[i * info.channels + Math.min(c, info.channels - 1)];
      sums[c] += v;
      if (v > max[c]) max[c] = v;
    }
  }
  return { mean: sums.map((s) => s / pixels), max };
}

/** Mean of each channel [r, g, b] in a region. */
export async function regionMeans(
  image: Buffer,
  region: { left: number; top: number; width: number; height: number },
): Promise<number[]> {
  return (await regionStats(image, region)).mean;
}

/** Mean luminance-ish (average of r, g, b means) of a region. */
export async function regionBrightness(
  image: Buffer,
  region: { left: number; top: number; width: number; height: number },
): Promise<number> {
  const [r, g, b] = await regionMeans(image, region);
  return (r + g + b) / 3;
}

/**
 * A JPEG whose header declares width x height (patched into the SOF0 marker of a tiny JPEG): what
 * a decompression bomb looks like to the decoder's header check.
 */
export async function jpegDeclaring(width: number, height: number): Promise<Buffer> {
  const tiny = await solid(16, 16, '#808080').jpeg().toBuffer();
  const sof = tiny.indexOf(Buffer.from([0xff, 0xc0]));
  if (sof < 0) throw new Error('no SOF0 marker');
  const patched = Buffer.from(tiny);
  patched.writeUInt16BE(height, sof + 5);
  patched.writeUInt16BE(width, sof + 7);
  return patched;
}
