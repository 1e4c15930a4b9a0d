import { stat } from 'node:fs/promises';
import sharp, { type Metadata, type Sharp, type SharpOptions } from 'sharp';
import { NotAnImageError } from './errors';

/**
 * Largest image we decode, in pixels (width x height of the stored, un-rotated image): 100 MP
 * covers every camera and phone (a 61 MP full-frame sensor, a 200 MP phone bins to 12-50 MP)
 * while refusing decompression bombs: a few-KB file can declare 65535x65535 pixels.
 */
export const MAX_INPUT_PIXELS = 100_000_000;

/**
 * Formats accepted as photos (sharp's `metadata().format`; AVIF and HEIC both report `heif`, and
 * HEIC's HEVC pixels are decoded by heic.ts, since libvips has no HEVC). Deliberately not SVG/PDF
 * (vector, and a large parser surface for untrusted input) nor the scientific/raw formats libvips
 * happens to read. Not JPEG XL nor JPEG 2000 either: sharp's prebuilt libvips decodes neither
 * (`sharp.format.jxl.input` is all false and there is no `jp2k` at all).
 */
const PHOTO_FORMATS: ReadonlySet<string> = new Set(['jpeg', 'png', 'webp', 'gif', 'tiff', 'heif', 'avif']);

/**
 * Decoder options for untrusted input: `failOn: 'error'` makes truncated and corrupt data an error
 * (the default 'warning' also rejects files with harmless warnings such as extraneous bytes
 * before a JPEG marker, common in real camera files), and the pixel limit guards memory.
 */
const DECODE_OPTIONS: SharpOptions = Object.freeze({ failOn: 'error', limitInputPixels: MAX_INPUT_PIXELS });

/**
 * Image data in memory, or a file that libvips reads itself (a stored photo original: decoding it
 * from its file keeps the compressed bytes out of the JavaScript heap).
 */
export type ImageSource = Buffer | { file: string };

/** A sharp pipeline on `input` with the safe decoder options; constructor errors are mapped too. */
export function openImage(input: ImageSource): Sharp {
  const source = sharpInput(input);
  if (typeof source !== 'string' && source.length === 0) throw emptyError();
  try {
    return sharp(source, DECODE_OPTIONS);
  } catch (error) {
    throw toNotAnImageError(error);
  }
}

/**
 * Reads the header (no pixel decoding) and checks that the input is a supported photo format within
 * the pixel limit. Throws NotAnImageError otherwise.
 */
export async function readImageMetadata(input: ImageSource): Promise<Metadata> {
  const source = sharpInput(input);
  if (typeof source === 'string' ? (await stat(source)).size === 0 : source.length === 0) throw emptyError();
  // Header only, so the pixel limit is checked here by us, with the real size in the message.
  const metadata = await guardDecode(
    Promise.resolve().then(() => sharp(source, { ...DECODE_OPTIONS, limitInputPixels: false }).metadata()),
  );
  if (!PHOTO_FORMATS.has(metadata.format)) {
    throw new NotAnImageError(
      'unsupported-format',
      `Unsupported image format "${metadata.format}": expected a photo (JPEG, PNG, WebP, HEIC/HEIF/AVIF, GIF, TIFF)`,
    );
  }
  const { width, height } = metadata;
  if (!(width > 0 && height > 0)) {
    throw new NotAnImageError('corrupt', 'The image declares no size (width or height is zero)');
  }
  if (width * height > MAX_INPUT_PIXELS) throw tooLargeError(width, height);
  return metadata;
}

/** Awaits a sharp operation, turning any decoder failure into NotAnImageError. */
export async function guardDecode<T>(operation: Promise<T>): Promise<T> {
  try {
    return await operation;
  } catch (error) {
    throw toNotAnImageError(error);
  }
}

/**
 * Maps a sharp/libvips error to NotAnImageError with a message of our own (libvips' wording
 * changes between versions and names internals); the original error is kept as `cause`.
 */
function toNotAnImageError(error: unknown): NotAnImageError {
  if (error instanceof NotAnImageError) return error;
  const detail = error instanceof Error ? error.message : String(error);
  if (/empty/i.test(detail) && /input/i.test(detail)) return emptyError(error);
  if (/pixel limit/i.test(detail)) {
    return new NotAnImageError(
      'too-large',
      `The image is too large: more than ${formatPixels(MAX_INPUT_PIXELS)} pixels`,
      { cause: error },
    );
  }
  if (/unsupported image format|unknown.*format|not a known file format/i.test(detail)) {
    return new NotAnImageError('unsupported-format', 'The file is not an image in a supported format', {
      cause: error,
    });
  }
  return new NotAnImageError('corrupt', 'The image data is truncated or corrupt and cannot be decoded', {
    cause: error,
  });
}

function tooLargeError(width: number, height: number): NotAnImageError {
  return new NotAnImageError(
    'too-large',
    `The image is too large: ${width}x${height} is ${formatPixels(width * height)} pixels, more than the limit of ${formatPixels(MAX_INPUT_PIXELS)}`,
  );
}

function emptyError(cause?: unknown): NotAnImageError {
  return new NotAnImageError(
    'empty',
    'The file is empty (0 bytes), not an image',
    cause === undefined ? undefined : { cause },
  );
}

/** What sharp is given: the Buffer, or the file's path. */
function sharpInput(input: unknown): Buffer | string {
  if (input instanceof Uint8Array) return input as Buffer;
  const file = (input as { file?: unknown } | null)?.file;
  if (typeof file === 'string' && file !== '') return file;
  throw new TypeError(`Expected image data as a Buffer or { file }, got ${input === null ? 'null' : typeof input}`);
}

function formatPixels(pixels: number): string {
  return pixels.toLocaleString('en-US');
}
