import sharp from 'sharp';

/** Levels ignore the darkest and brightest 0.5% of pixels (noise, specular highlights). */
const CLIP = 0.005;
/** White balance never scales a channel beyond this, so a truly red sunset stays red-ish. */
const MAX_GAIN = 2;
const SAMPLE_SIDE = 256;

/**
 * Automatic colour correction, "auto levels + grey-world white balance":
 *
 * 1. Levels: from a 256-px sample, find per channel the 0.5th and 99.5th percentile and stretch
 *    that range to 0..255 (a low-contrast or hazy photo gets its full tonal range back).
 * 2. White balance (grey world): a typical scene averages to grey, so scale each channel so its
 *    mean after step 1 equals the mean of the three (gains clamped to 1/2..2) — this removes a
 *    colour cast such as the blue of shade or the orange of tungsten light.
 *
 * Both steps are linear per channel, so they are applied in one `linear(a, b)` pass on the full
 * image. Returns the corrected image as a sharp pipeline input (raw pixels never leave sharp).
 */
export async function colourCorrection(input: Buffer): Promise<{ a: number[]; b: number[] }> {
  const { data, info } = await sharp(input)
    .rotate()
    .resize(SAMPLE_SIDE, SAMPLE_SIDE, { fit: 'inside' })
    .removeAlpha()
    .toColourspace('srgb')
    .raw()
    .toBuffer({ resolveWithObject: true });
  const channels = info.channels;
  const histograms = Array.from({ length: 3 }, () => new Uint32Array(256));
  const pixels = data.length / channels;
  for (let i = 0; i < data.length; i += channels) for (let c = 0; c < 3; c++) histograms[c][data[i + c]]++;

  const stretch = histograms.map((histogram) => {
    const lo = percentile(histogram, pixels, CLIP);
    const hi = percentile(histogram, pixels, 1 - CLIP);
    const a = hi > lo ? 255 / (hi - lo) : 1;
    const mean = histogram.reduce((sum, count, value) => sum + count * value, 0) / pixels;
    return { a, b: hi > lo ? -lo * a : 0, mean: Math.min(255, Math.max(0, (hi > lo ? (mean - lo) * a : mean))) };
  });
  const grey = stretch.reduce((sum, s) => sum + s.mean, 0) / 3;
  const gains = stretch.map((s) => (s.mean > 0 ? Math.min(MAX_GAIN, Math.max(1 / MAX_GAIN, grey / s.mean)) : 1));
  return { a: stretch.map((s, c) => s.a * gains[c]), b: stretch.map((s, c) => s.b * gains[c]) };
}

/** The corrected image as JPEG (for previews and tests); rendering applies `linear` in its own pipeline. */
export async function autoCorrectColour(input: Buffer): Promise<Buffer> {
  const { a, b } = await colourCorrection(input);
  return sharp(input).rotate().removeAlpha().linear(a, b).jpeg({ quality: 95 }).toBuffer();
}

function percentile(histogram: Uint32Array, total: number, fraction: number): number {
  const target = total * fraction;
  let seen = 0;
  for (let value = 0; value < 256; value++) {
    seen += histogram[value];
    if (seen >= target) return value;
  }
  return 255;
}
