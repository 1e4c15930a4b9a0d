import type { Sharp } from 'sharp';
import { openImage, readImageMetadata } from '../decode';

/** Levels ignore the darkest and brightest 0.5% of the pixels (noise, specular highlights). */
const LEVELS_CLIP = 0.005;
/** Levels never stretch a channel more than this: a nearly flat image (fog, a wall) keeps its grain. */
const MAX_STRETCH = 4;
/** White balance never scales a channel beyond this (or below its inverse): a sunset stays warm. */
const MAX_WHITE_BALANCE_GAIN = 1.5;
/** Side of the sample the statistics come from: enough for percentiles, cheap to decode (JPEG shrink-on-load). */
const SAMPLE_SIDE = 256;

/**
 * Per-channel gains and offsets for sharp's `linear(a, b)` (out = a * in + b), one entry per colour
 * channel of the image as decoded (1 for greyscale, 3 otherwise), in the input's own sample range.
 */
export interface ColourCorrection {
  a: number[];
  b: number[];
}

/**
 * Automatic colour correction: grey-world white balance, then auto levels.
 *
 * 1. Statistics come from a copy of the photo shrunk to at most 256 px (flattened on white, sRGB,
 *    8 bit): per channel, a 256-bin histogram and the mean.
 * 2. White balance (grey world): a typical scene averages to neutral grey, so each channel is
 *    scaled so that its mean equals the mean of the three channel means (gain = grey / mean),
 *    with the gains clamped to 2/3..1.5 so that a scene that really is mostly one colour (a
 *    sunset, the sea) keeps most of it. This removes a colour cast such as the blue of shade or the
 *    orange of tungsten light; a neutral photo has equal means already, so its gains are 1.
 * 3. Levels (auto contrast): after the gains, the darkest channel's 0.5th percentile (lo) and the
 *    brightest channel's 99.5th percentile (hi) are stretched to 0..255, the same stretch for the
 *    three channels (a = 255 / (hi - lo), b = -lo * a), so the hues the white balance set are kept.
 *    The 0.5% ignored at either end is noise and specular highlights. The gain is capped at 4 so a
 *    nearly flat photo (fog, a wall) is not turned into noise; then the range lands where the
 *    unused room is shared below and above as in the input (a dark flat photo stays dark). A
 *    low-contrast or hazy photo gets its full tonal range back; a photo that already spans 0..255
 *    is left as it is (a = 1, b = 0).
 *
 * Why not a stretch per channel (each channel's own 0.5..99.5% to 0..255, Photoshop's "enhance
 * per channel contrast")? It removes casts too, but it also invents them: a bright photo without a
 * true black, e.g. an orange-to-blue sky, gets its green channel stretched far more than red and
 * blue and turns purple, and its white sun cyan. One common stretch cannot change a hue.
 *
 * Both steps are linear per channel, so they combine into one `linear(a * gain, b)` per channel
 * applied by sharp to the full-resolution image (no raw pixels of the full photo pass through
 * JavaScript). Greyscale photos get levels only. Offsets are scaled to the input's sample range
 * (x257 for 16-bit input).
 */
export async function measureColourCorrection(input: Buffer): Promise<ColourCorrection> {
  const metadata = await readImageMetadata(input);
  const greyscale = isGreyscale(metadata.space, metadata.channels);
  const { data, info } = await openImage(input)
    .resize(SAMPLE_SIDE, SAMPLE_SIDE, { fit: 'inside', withoutEnlargement: true })
    .flatten({ background: '#ffffff' })
    .toColourspace(greyscale ? 'b-w' : 'srgb')
    .raw()
    .toBuffer({ resolveWithObject: true });
  const channels = greyscale ? 1 : 3;
  const step = info.channels;
  const pixels = data.length / step;
  const histograms = Array.from({ length: channels }, () => new Uint32Array(256));
  for (let i = 0; i < data.length; i += step) for (let c = 0; c < channels; c++) histograms[c][data[i + c]]++;

  // 2. Grey-world gains.
  const means = histograms.map((histogram) => histogram.reduce((sum, count, value) => sum + count * value, 0) / pixels);
  const grey = means.reduce((sum, mean) => sum + mean, 0) / channels;
  const gains = means.map((mean) =>
    mean > 0 ? clamp(grey / mean, 1 / MAX_WHITE_BALANCE_GAIN, MAX_WHITE_BALANCE_GAIN) : 1,
  );

  // 3. One stretch for all channels, from the balanced channels' extreme percentiles.
  const lo = Math.min(...histograms.map((histogram, c) => gains[c] * percentile(histogram, pixels, LEVELS_CLIP)));
  const hi = Math.max(...histograms.map((histogram, c) => gains[c] * percentile(histogram, pixels, 1 - LEVELS_CLIP)));
  let a = 1;
  let b = 0;
  if (hi - lo > 1e-6) {
    a = Math.min(MAX_STRETCH, 255 / (hi - lo));
    // Where [lo, hi] lands: at 0..255 when the stretch is not capped; when it is, the room left over
    // is shared below and above in the proportion the input had.
    const room = 255 - a * (hi - lo);
    const below =
      room > 0 && lo + Math.max(0, 255 - hi) > 0
        ? (room * Math.max(0, lo)) / (Math.max(0, lo) + Math.max(0, 255 - hi))
        : 0;
    b = below - a * lo;
  }
  const range = metadata.depth === 'ushort' ? 257 : 1;
  return { a: gains.map((gain) => a * gain), b: gains.map(() => b * range) };
}

/**
 * The corrections of one book's photos, each measured once however many slots it fills (a photo
 * repeated on the cover and on pages, or across a render's pages).
 */
export class PhotoCorrections {
  private readonly measured = new Map<string, Promise<ColourCorrection>>();

  of(photoId: string, original: Buffer): Promise<ColourCorrection> {
    let correction = this.measured.get(photoId);
    if (!correction) this.measured.set(photoId, (correction = measureColourCorrection(original)));
    return correction;
  }
}

/** Adds the correction to a pipeline that decodes the same input (after `flatten`, before output). */
export function applyColourCorrection(pipeline: Sharp, correction: ColourCorrection): Sharp {
  return pipeline.linear(correction.a, correction.b);
}

function isGreyscale(space: string | undefined, channels: number): boolean {
  return space === 'b-w' || space === 'grey16' || channels <= 2;
}

function percentile(histogram: Uint32Array, total: number, fraction: number): number {
  const target = total * fraction;
  let seen = 0;
  for (let value = 0; value < 256; value++) {
    seen += histogram[value];
    if (seen > target) return value;
  }
  return 255;
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}
