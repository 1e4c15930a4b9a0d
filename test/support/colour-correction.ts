import { openImage } from '../../src/imaging/decode';
import { applyColourCorrection, measureColourCorrection } from '../../src/imaging/print/color-correction';

/** A photo corrected the way the print render corrects it, upright, as a JPEG (quality 95) a test can measure. */
export async function autoCorrectColour(input: Buffer): Promise<Buffer> {
  const correction = await measureColourCorrection(input);
  return applyColourCorrection(openImage(input).autoOrient().flatten({ background: '#ffffff' }), correction)
    .toColourspace('srgb')
    .jpeg({ quality: 95 })
    .toBuffer();
}
