import sharp from 'sharp';
import { guardDecode, openImage, readImageMetadata, type ImageSource } from './decode';
import { uprightPixels, type WorkingCopy } from './working-copy';

export { NotAnImageError } from './errors';

/** Largest `maxSide` accepted: thumbnails, not re-encodes of the original. */
const MAX_THUMBNAIL_SIDE = 4096;

/**
 * A JPEG thumbnail: turned upright by the EXIF orientation, fitted inside maxSide x maxSide
 * (aspect ratio kept, never enlarged), transparency flattened onto white, quality 80, and no
 * metadata (EXIF, ICC, XMP are stripped; pixels are converted to sRGB).
 * Throws NotAnImageError for undecodable input, RangeError for a bad maxSide.
 */
export async function makeThumbnail(input: ImageSource, maxSide = 512): Promise<Buffer> {
  if (!Number.isInteger(maxSide) || maxSide < 1 || maxSide > MAX_THUMBNAIL_SIDE) {
    throw new RangeError(`maxSide must be an integer from 1 to ${MAX_THUMBNAIL_SIDE}, got ${maxSide}`);
  }
  await readImageMetadata(input); // format allow-list and pixel limit, before any decoding
  return guardDecode(
    openImage(input)
      .rotate() // no angle: auto-orient from EXIF, and drop the Orientation tag
      .resize({ width: maxSide, height: maxSide, fit: 'inside', withoutEnlargement: true })
      .flatten({ background: '#ffffff' })
      .jpeg({ quality: 80 })
      .toBuffer(),
  );
}

/**
 * The editor's 512 px thumbnail from a photo's working copy (working-copy.ts), as makeThumbnail
 * makes it from the photo: upright, transparency on white, JPEG quality 80, no metadata.
 */
export async function thumbnailOfWorkingCopy(copy: WorkingCopy): Promise<Buffer> {
  const { data, width, height } = await uprightPixels(copy);
  return guardDecode(
    sharp(data, { raw: { width, height, channels: 3 } })
      .jpeg({ quality: 80 })
      .toBuffer(),
  );
}
