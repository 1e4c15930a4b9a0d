import { readFile } from 'node:fs/promises';
import { parse as parseIcc } from 'icc';
import sharp from 'sharp';
import type { PrintOutput } from '../../domain/print-output';

/** A printer's output profile as the PDF writer embeds it. */
export interface OutputProfile {
  /** The ICC profile's bytes, embedded as the output intent's DestOutputProfile and tagging every image. */
  icc: Buffer;
  /** Colour components of the profile's device space, the PDF's /N. */
  channels: 3 | 4;
  colourSpace: 'RGB' | 'CMYK';
  /** The profile's own description ('sRGB', 'Chemical proof', 'Coated GRACoL 2006 ...'). */
  description: string;
}

let builtInSrgb: Promise<Buffer> | undefined;

/**
 * The bytes of libvips's built-in sRGB profile (the one `withIccProfile('srgb')` embeds in every page
 * JPEG; v4, CC0), read back from an image sharp tagged with it: the same bytes as the pages carry.
 */
function srgbProfile(): Promise<Buffer> {
  builtInSrgb ??= sharp({ create: { width: 1, height: 1, channels: 3, background: '#ffffff' } })
    .withIccProfile('srgb')
    .png()
    .toBuffer()
    .then(async (png) => {
      const { icc } = await sharp(png).metadata();
      if (!icc) throw new Error("libvips embedded no profile for 'srgb'");
      return icc;
    });
  return builtInSrgb;
}

/**
 * Loads and checks an output profile: an ICC profile (signature `acsp` at byte 36) of an RGB or CMYK
 * device space; PDF/X-1a takes CMYK only. Throws naming the profile when it is anything else.
 */
export async function loadOutputProfile(output: PrintOutput): Promise<OutputProfile> {
  const icc = output.profile === 'srgb' ? await srgbProfile() : await readFile(output.profile);
  return describeOutputProfile(icc, output);
}

function describeOutputProfile(icc: Buffer, output: PrintOutput): OutputProfile {
  const name = output.profile === 'srgb' ? 'the built-in sRGB profile' : `the output profile ${output.profile}`;
  if (icc.length < 132 || icc.toString('latin1', 36, 40) !== 'acsp') throw new Error(`${name} is not an ICC profile`);
  const parsed = parseIcc(icc);
  const colourSpace = parsed.colorSpace?.trim();
  if (colourSpace !== 'RGB' && colourSpace !== 'CMYK')
    throw new Error(`${name} is for ${colourSpace ?? 'an unknown'} colour; an output profile is RGB or CMYK`);
  if (output.pdfx === 'PDF/X-1a' && colourSpace !== 'CMYK')
    throw new Error(`${name} is RGB; PDF/X-1a files are CMYK only and need a CMYK output profile`);
  return {
    icc,
    channels: colourSpace === 'CMYK' ? 4 : 3,
    colourSpace,
    description: parsed.description?.trim() || 'Custom',
  };
}
