import sharp, { type Metadata, type Sharp } from 'sharp';
import { guardDecode, openImage, readImageMetadata, type ImageSource } from './decode';
import { decodeHeic } from './heic';

/**
 * Long side, in pixels, of the copy a photo is decoded into at intake: the editor's thumbnail and
 * the size sharpness, exposure and the perceptual hash are measured at (photo-analysis.ts).
 */
const WORKING_COPY_LONG_SIDE = 512;

/**
 * A photo decoded once, small: every measure taken before the book is editable (analysis,
 * thumbnail, faces) comes from it, never from the original again.
 */
export interface WorkingCopy {
  /** The header sharp read: format, stored size, EXIF. */
  metadata: Metadata;
  /** Decoder's format name (heif for HEIC). */
  format: string;
  /** EXIF Orientation still to apply to `pixels`, 1..8. */
  orientation: number;
  /** Size of the photo as stored (before `orientation`), in pixels. */
  storedWidth: number;
  storedHeight: number;
  /** sRGB pixels, 3 channels, transparency flattened onto white, as stored (not yet turned upright). */
  pixels: Buffer;
  width: number;
  height: number;
}

/**
 * Decodes `input` once into its working copy, at most WORKING_COPY_LONG_SIDE on the long side: a
 * JPEG is shrunk while it is decoded (libjpeg's DCT scaling at 1/2, 1/4 or 1/8, libvips'
 * shrink-on-load), so a 12 MP photo is never whole in memory; a HEIC's pixels come from libheif
 * (heic.ts, off the event loop) and are shrunk from raw, never re-encoded. The full decode is what
 * finds truncated or corrupt data. Throws NotAnImageError when `input` is no decodable photo.
 */
export async function decodeWorkingCopy(input: ImageSource): Promise<WorkingCopy> {
  const heic = await decodeHeic(input);
  let image: Sharp;
  let metadata: Metadata;
  let orientation: number;
  let storedWidth: number;
  let storedHeight: number;
  if (heic) {
    ({ metadata, orientation } = heic);
    const { width, height, channels, data } = heic.pixels;
    [storedWidth, storedHeight] = [width, height];
    image = sharp(data, { raw: { width, height, channels } }).removeAlpha();
  } else {
    metadata = await readImageMetadata(input);
    orientation = isExifOrientation(metadata.orientation) ? metadata.orientation : 1;
    [storedWidth, storedHeight] = [metadata.width, metadata.height];
    image = openImage(input).flatten({ background: '#ffffff' });
  }
  const { data, info } = await guardDecode(
    image
      .resize({
        width: WORKING_COPY_LONG_SIDE,
        height: WORKING_COPY_LONG_SIDE,
        fit: 'inside',
        withoutEnlargement: true,
      })
      .toColourspace('srgb')
      .removeAlpha()
      .raw({ depth: 'uchar' })
      .toBuffer({ resolveWithObject: true }),
  );
  return {
    metadata,
    format: metadata.format,
    orientation,
    storedWidth,
    storedHeight,
    pixels: data,
    width: info.width,
    height: info.height,
  };
}

/** The working copy as a sharp pipeline on its raw pixels, as stored. */
export function workingCopyImage(copy: WorkingCopy): Sharp {
  return sharp(copy.pixels, { raw: { width: copy.width, height: copy.height, channels: 3 } });
}

/**
 * The working copy turned upright by its EXIF orientation, as raw pixels: raw input carries no
 * EXIF for sharp's autoOrient, so the turn (6: 90 degrees clockwise, 3: 180, 8: 270) and the
 * mirror of orientations 2, 4, 5 and 7 are applied here, as two steps so their order is certain.
 */
export async function uprightPixels(copy: WorkingCopy): Promise<{ data: Buffer; width: number; height: number }> {
  const angle = ({ 3: 180, 4: 180, 5: 90, 6: 90, 7: 270, 8: 270 } as Record<number, number>)[copy.orientation] ?? 0;
  // 2 and 4 are mirrors left to right of 1 and 3; 5 and 7 of 6 and 8.
  const mirrored = copy.orientation === 2 || copy.orientation === 4 || copy.orientation === 5 || copy.orientation === 7;
  let turned = { data: copy.pixels, info: { width: copy.width, height: copy.height } };
  if (angle !== 0) turned = await workingCopyImage(copy).rotate(angle).raw().toBuffer({ resolveWithObject: true });
  if (mirrored)
    turned = await sharp(turned.data, { raw: { width: turned.info.width, height: turned.info.height, channels: 3 } })
      .flop()
      .raw()
      .toBuffer({ resolveWithObject: true });
  return { data: turned.data, width: turned.info.width, height: turned.info.height };
}

function isExifOrientation(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= 8;
}
