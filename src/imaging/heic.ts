import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import exifReader from 'exif-reader';
import sharp, { type Metadata } from 'sharp';
import { guardDecode, readImageMetadata, type ImageSource } from './decode';
import { NotAnImageError } from './errors';
import { decodeHeicPixels } from './heic-decoder';
import type { HeicPixels } from './heic-pixels';

/**
 * HEIC (HEIF with HEVC-coded pixels), as iPhones save photos: sharp's prebuilt libvips reads the
 * container's header and EXIF but has no HEVC decoder (`sharp.format.heif.input.fileSuffix` is
 * `['.avif']`), so the pixels come from libheif: the system's (`libheif1`, through koffi's FFI,
 * heic-native.ts) where it loads, else libheif compiled to WebAssembly (`heic-decode` over
 * `libheif-js`, shipped on npm, in worker threads: heic-wasm-pool.ts); nothing is downloaded at
 * install or run time (heic-decoder.ts chooses). They are handed to sharp as raw pixels. Intake takes its
 * analysis and thumbnail from the raw pixels (working-copy.ts) and keeps the HEIC as the photo's
 * original; print renders decode it again into a JPEG (heicAsJpeg) that they read as any photo.
 */

/** Whether the header sharp read is a HEIF whose pixels are HEVC (AVIF, also `heif`, sharp decodes itself). */
function isHevcHeif(metadata: Pick<Metadata, 'format' | 'compression'>): boolean {
  return metadata.format === 'heif' && metadata.compression === 'hevc';
}

/** Whether `input` is a HEIC (HEVC pixels, which sharp cannot decode): its header is read, nothing decoded. */
export async function isHeic(input: ImageSource): Promise<boolean> {
  return isHevcHeif(await readImageMetadata(input));
}

/** A decoded HEIC: its RGB or RGBA pixels, the EXIF Orientation still to apply to them, and the header sharp read. */
export interface DecodedHeic {
  pixels: HeicPixels;
  /** 1..8: 1 when libheif already turned the pixels upright (the container's irot/imir), else the EXIF tag. */
  orientation: number;
  metadata: Metadata;
}

/**
 * The photo's pixels when `input` is HEIC, else null. The pixel limit and the format allow-list are
 * checked on the header first (readImageMetadata), before anything is decoded.
 *
 * Orientation: libheif applies the container's own transformations (`irot`, `imir`) while it decodes;
 * the HEIF specification makes those normative and the EXIF Orientation tag informative. A file
 * with a transformation is therefore upright once decoded; one without (as `heif-enc` writes from a
 * JPEG) keeps its EXIF Orientation, to be applied as a JPEG's is.
 */
export async function decodeHeic(input: ImageSource): Promise<DecodedHeic | null> {
  const metadata = await readImageMetadata(input);
  if (!isHevcHeif(metadata)) return null;
  const bytes = Buffer.isBuffer(input) ? input : await readFile((input as { file: string }).file);
  let pixels: HeicPixels;
  try {
    pixels = await decodeHeicPixels(bytes);
  } catch (error) {
    throw new NotAnImageError('corrupt', 'The HEIC image data is truncated or corrupt and cannot be decoded', {
      cause: error,
    });
  }
  const orientation = hasTransformation(bytes) ? 1 : (exifOf(metadata.exif).orientation ?? 1);
  return { pixels, orientation, metadata };
}

/**
 * The photo as a JPEG (quality 95, 4:4:4) when `input` is HEIC, else null: what a print render reads
 * for a HEIC original. The JPEG carries the orientation still to apply, the capture-time tags and
 * the HEIC's ICC profile.
 */
export async function heicAsJpeg(input: ImageSource): Promise<Buffer | null> {
  const decoded = await decodeHeic(input);
  if (!decoded) return null;
  const { pixels, orientation, metadata } = decoded;
  const exif = exifOf(metadata.exif);
  let jpeg = sharp(pixels.data, { raw: { width: pixels.width, height: pixels.height, channels: pixels.channels } })
    .removeAlpha()
    .jpeg({ quality: 95, chromaSubsampling: '4:4:4' })
    .withMetadata({ orientation })
    .withExif({ IFD0: exif.ifd0, IFD2: exif.ifd2 });
  if (metadata.icc) jpeg = jpeg.withIccProfile(await iccFile(metadata.icc));
  return guardDecode(jpeg.toBuffer());
}

interface CopiedExif {
  orientation?: number;
  ifd0: Record<string, string>;
  ifd2: Record<string, string>;
}

/** The EXIF tags a photo's capture time and orientation are read from; nothing when there is no EXIF or it is unreadable. */
function exifOf(raw: Buffer | undefined): CopiedExif {
  const copied: CopiedExif = { ifd0: {}, ifd2: {} };
  if (!raw) return copied;
  let tags: ReturnType<typeof exifReader>;
  try {
    tags = exifReader(raw);
  } catch {
    return copied;
  }
  const orientation = tags.Image?.Orientation;
  if (typeof orientation === 'number' && orientation >= 1 && orientation <= 8) copied.orientation = orientation;
  const put = (into: Record<string, string>, name: string, value: unknown) => {
    if (value instanceof Date && !Number.isNaN(value.getTime())) into[name] = exifDate(value);
    else if (typeof value === 'string' && value.trim() !== '') into[name] = value.trim();
  };
  put(copied.ifd0, 'DateTime', tags.Image?.DateTime);
  for (const name of [
    'DateTimeOriginal',
    'DateTimeDigitized',
    'OffsetTime',
    'OffsetTimeOriginal',
    'OffsetTimeDigitized',
    'SubSecTimeOriginal',
    'SubSecTimeDigitized',
  ]) {
    put(copied.ifd2, name, (tags.Photo as Record<string, unknown> | undefined)?.[name]);
  }
  return copied;
}

/** exif-reader reads EXIF's zoneless wall-clock times as UTC: written back the same way, they read back equal. */
function exifDate(date: Date): string {
  const iso = date.toISOString();
  return `${iso.slice(0, 4)}:${iso.slice(5, 7)}:${iso.slice(8, 10)} ${iso.slice(11, 19)}`;
}

/**
 * Whether the HEIF's item properties (in its `meta` box) include a rotation (`irot`) or mirror
 * (`imir`): ISO/IEC 23008-12 boxes, found by walking the file's top-level boxes to `meta` and
 * looking for the two box types in it.
 */
function hasTransformation(bytes: Buffer): boolean {
  let offset = 0;
  while (offset + 8 <= bytes.length) {
    let size = bytes.readUInt32BE(offset);
    const type = bytes.toString('latin1', offset + 4, offset + 8);
    if (size === 1 && offset + 16 <= bytes.length) size = Number(bytes.readBigUInt64BE(offset + 8));
    else if (size === 0) size = bytes.length - offset;
    if (size < 8) return false;
    if (type === 'meta') {
      const meta = bytes.subarray(offset + 8, Math.min(bytes.length, offset + size));
      return /(?:irot|imir)/.test(meta.toString('latin1'));
    }
    offset += size;
  }
  return false;
}

/** sharp takes an ICC profile by file name only: the HEIC's own, in a temporary file kept for the process's life. */
async function iccFile(icc: Buffer): Promise<string> {
  const file = join(tmpdir(), `photobook-icc-${createHash('sha256').update(icc).digest('hex').slice(0, 16)}.icc`);
  await writeFile(file, icc);
  return file;
}
