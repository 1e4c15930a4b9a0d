import exifReader from 'exif-reader';
import { guardDecode, type ImageSource } from './decode';
import { NotAnImageError } from './errors';
import { decodeWorkingCopy, workingCopyImage, type WorkingCopy } from './working-copy';

export { NotAnImageError } from './errors';

export interface PhotoAnalysis {
  /** Decoder's format name: jpeg, png, webp, heif (HEIC and AVIF), gif, tiff... */
  format: string;
  /** Displayed width, i.e. after applying the EXIF orientation (5-8 swap width and height). */
  width: number;
  /** Displayed height, i.e. after applying the EXIF orientation. */
  height: number;
  /** Of the displayed size; 'square' only when width === height exactly. */
  orientation: 'portrait' | 'landscape' | 'square';
  /** EXIF Orientation tag, 1..8; 1 when absent or invalid. */
  exifOrientation: number;
  /**
   * EXIF DateTimeOriginal, else DateTimeDigitized, else DateTime (IFD0); null if none is valid.
   * EXIF stores local wall-clock time without a zone: it is read as UTC unless the matching
   * OffsetTime* tag (OffsetTimeOriginal for DateTimeOriginal, ...) gives the offset. SubSecTime*
   * adds milliseconds when present.
   */
  capturedAt: Date | null;
  /** 0..1, higher is sharper. See {@link sharpnessFromLaplacianVariance}. */
  sharpness: number;
  /** 0..1 overall print suitability. See {@link combineQuality}. */
  quality: number;
  /** 0..1, 1 unless the photo is very dark or very bright overall. See {@link exposureScore}. */
  exposure: number;
  /** 128-bit difference hash as 32 hex digits, equal or close for copies of one shot. See {@link differenceHash}. */
  perceptualHash: string;
  /** EXIF GPS position in degrees (north and east positive), null when the photo has none. */
  gps: { latitude: number; longitude: number } | null;
}

/**
 * Decodes `input` and measures it. Throws NotAnImageError when it is not a decodable photo: empty,
 * not an image or an unsupported format (e.g. SVG), truncated or corrupt data, or more than
 * MAX_INPUT_PIXELS pixels.
 */
export async function analyzePhoto(input: ImageSource): Promise<PhotoAnalysis> {
  return analyzeWorkingCopy(await decodeWorkingCopy(input));
}

/**
 * Measures a photo on its working copy (working-copy.ts: decoded once, at most 512 px on the long
 * side, transparent areas on white): sharpness, exposure and the perceptual hash on its greyscale.
 * EXIF rotation is irrelevant to these: the Laplacian and the mean are invariant under 90-degree
 * turns and flips, and the hash is taken on the stored pixels.
 */
export async function analyzeWorkingCopy(copy: WorkingCopy): Promise<PhotoAnalysis> {
  const { metadata, orientation: exifOrientation } = copy;
  const swap = exifOrientation >= 5;
  const width = swap ? copy.storedHeight : copy.storedWidth;
  const height = swap ? copy.storedWidth : copy.storedHeight;

  const { data, info } = await guardDecode(
    workingCopyImage(copy).greyscale().raw({ depth: 'uchar' }).toBuffer({ resolveWithObject: true }),
  );
  const grey = toSingleChannel(data, info.width, info.height, info.channels);
  const laplacianVariance = varianceOfLaplacian(grey, info.width, info.height);
  const meanLuminance = mean(grey) / 255;

  const sharpness = sharpnessFromLaplacianVariance(laplacianVariance);
  const quality = combineQuality({ sharpness, megapixels: (width * height) / 1e6, meanLuminance });
  const exif = metadata.exif ? parseExif(metadata.exif) : null;

  return {
    format: copy.format,
    width,
    height,
    orientation: width > height ? 'landscape' : width < height ? 'portrait' : 'square',
    exifOrientation,
    capturedAt: exif ? capturedAtFromTags(exif) : null,
    sharpness,
    quality,
    exposure: exposureScore(meanLuminance),
    // On the stored (unrotated) pixels, as every copy of a shot is stored alike; an upright copy of a
    // rotated original hashes apart (rare in a camera roll: phones store both the same way).
    perceptualHash: differenceHash(grey, info.width, info.height),
    gps: exif ? gpsFromTags(exif) : null,
  };
}

// ---------------------------------------------------------------------------------------------
// Sharpness

/**
 * Variance of the Laplacian (4-neighbour kernel [0 1 0; 1 -4 1; 0 1 0]) over the interior of a
 * greyscale image with values 0..255. The Laplacian responds to edges and fine detail; a blurred
 * or out-of-focus photo has weak second derivatives everywhere, hence a low variance.
 */
export function varianceOfLaplacian(grey: Uint8Array, width: number, height: number): number {
  if (width < 3 || height < 3) return 0;
  let sum = 0;
  let sumSquares = 0;
  for (let y = 1; y < height - 1; y++) {
    const row = y * width;
    for (let x = 1; x < width - 1; x++) {
      const i = row + x;
      const l = grey[i - width] + grey[i + width] + grey[i - 1] + grey[i + 1] - 4 * grey[i];
      sum += l;
      sumSquares += l * l;
    }
  }
  const n = (width - 2) * (height - 2);
  const m = sum / n;
  return Math.max(0, sumSquares / n - m * m);
}

/**
 * Variance of the Laplacian at which sharpness is 0.5. Measured on a copy whose long side is
 * ~512 px, 100 is the classic blur-detection threshold (images below it look soft at that size);
 * crisp photos measure several hundred to a few thousand, heavily blurred ones single digits.
 */
const SHARPNESS_HALF_POINT = 100;

/**
 * Sharpness method: the photo is decoded to greyscale, downscaled to at most 512 px on the long
 * side (the size it is judged at, independent of the camera's resolution; resolution is scored
 * separately), and the variance v of its Laplacian is mapped with the saturating curve
 * v / (v + 100): 0 for a flat image, 0.5 at the usual blur threshold, -> 1 for very crisp detail.
 * The curve never saturates outright, so sharper photos still rank above merely sharp ones.
 * Caveat: v also grows with contrast, so a low-contrast (foggy) but focused photo scores lower.
 */
export function sharpnessFromLaplacianVariance(variance: number): number {
  if (!(variance > 0)) return 0;
  return variance / (variance + SHARPNESS_HALF_POINT);
}

// ---------------------------------------------------------------------------------------------
// Quality

/** Megapixels at which the resolution score reaches 1 (4000x3000: a 33x25 cm print at 300 dpi). */
const FULL_RESOLUTION_MEGAPIXELS = 12;

/**
 * Resolution score: sqrt(min(1, MP / 12)). The square root because the printable size grows with
 * the linear size, not the pixel count: 3 MP (half the width of 12 MP) scores 0.5.
 */
export function resolutionScore(megapixels: number): number {
  if (!(megapixels > 0)) return 0;
  return Math.sqrt(Math.min(1, megapixels / FULL_RESOLUTION_MEGAPIXELS));
}

/**
 * Exposure score from the mean luminance (0..1, greyscale, gamma-encoded): 1 when the mean is
 * within 0.2..0.8, falling linearly to 0 for an all-black (0) or all-white (1) image.
 */
export function exposureScore(meanLuminance: number): number {
  const distanceFromExtreme = Math.min(meanLuminance, 1 - meanLuminance);
  return clamp01(distanceFromExtreme / 0.2);
}

/**
 * Quality method: a weighted geometric mean of three 0..1 scores,
 *   quality = sharpness^0.5 * resolution^0.3 * exposure^0.2
 * with sharpness as above, resolution = sqrt(min(1, MP / 12)) and exposure from the mean
 * luminance (penalising very dark or very bright photos). A geometric mean means a photo cannot
 * make up for one fatal flaw (blurred, tiny, black) by excelling at the others; the weights put
 * sharpness first, then resolution (prints enlarge), then exposure (often intentional).
 */
export function combineQuality(input: { sharpness: number; megapixels: number; meanLuminance: number }): number {
  const sharpness = clamp01(input.sharpness);
  const resolution = resolutionScore(input.megapixels);
  const exposure = exposureScore(input.meanLuminance);
  return clamp01(sharpness ** 0.5 * resolution ** 0.3 * exposure ** 0.2);
}

// ---------------------------------------------------------------------------------------------
// EXIF

type ExifTags = Record<string, unknown> | null | undefined;

/**
 * Capture time from a raw EXIF block (as in sharp's `metadata().exif`, starting "Exif\0\0").
 * Returns null when the block is unreadable or has no valid date.
 */
export function capturedAtFromExif(exif: Buffer): Date | null {
  const parsed = parseExif(exif);
  return parsed ? capturedAtFromTags(parsed) : null;
}

type ParsedExif = ReturnType<typeof exifReader>;

function parseExif(exif: Buffer): ParsedExif | null {
  try {
    return exifReader(exif);
  } catch {
    return null; // malformed EXIF never fails the analysis
  }
}

function capturedAtFromTags(parsed: ParsedExif): Date | null {
  const photo = parsed.Photo as ExifTags;
  const image = parsed.Image as ExifTags;
  const candidates: Array<[ExifTags, string, string, string]> = [
    [photo, 'DateTimeOriginal', 'OffsetTimeOriginal', 'SubSecTimeOriginal'],
    [photo, 'DateTimeDigitized', 'OffsetTimeDigitized', 'SubSecTimeDigitized'],
    // DateTime lives in IFD0; its OffsetTime and SubSecTime are in the Exif sub-IFD.
    [image, 'DateTime', 'OffsetTime', 'SubSecTime'],
  ];
  for (const [ifd, dateTag, offsetTag, subSecTag] of candidates) {
    const date = exifDate(ifd?.[dateTag], photo?.[offsetTag], photo?.[subSecTag]);
    if (date) return date;
  }
  return null;
}

/**
 * exif-reader parses "YYYY:MM:DD HH:MM:SS" as UTC (null if it does not match). Placeholder dates
 * such as "0000:00:00 00:00:00" come out before 1900 (two-digit years map to 19xx) and are refused.
 */
function exifDate(value: unknown, offset: unknown, subSeconds: unknown): Date | null {
  if (!(value instanceof Date) || Number.isNaN(value.getTime()) || value.getUTCFullYear() < 1900) return null;
  let ms = value.getTime();
  if (typeof subSeconds === 'string' && /^\d+$/.test(subSeconds.trim())) {
    ms += Math.floor(Number(`0.${subSeconds.trim()}`) * 1000);
  }
  const offsetMinutes = parseExifOffset(offset);
  if (offsetMinutes !== null) ms -= offsetMinutes * 60_000;
  return new Date(ms);
}

/** "+02:00" / "-05:30" -> minutes east of UTC; null when absent or malformed. */
function parseExifOffset(value: unknown): number | null {
  if (typeof value !== 'string') return null;
  const match = /^([+-])(\d{2}):(\d{2})$/.exec(value.trim());
  if (!match) return null;
  const minutes = Number(match[2]) * 60 + Number(match[3]);
  if (minutes > 14 * 60 || Number(match[3]) >= 60) return null;
  return match[1] === '-' ? -minutes : minutes;
}

/**
 * The GPS position of an EXIF block: GPSLatitude/GPSLongitude as [degrees, minutes, seconds] with
 * their N/S and E/W references; null when absent, malformed or out of range (0/0 included: a
 * receiver without a fix writes it).
 */
function gpsFromTags(parsed: ParsedExif): { latitude: number; longitude: number } | null {
  const gps = parsed.GPSInfo as ExifTags;
  const latitude = degrees(gps?.GPSLatitude, gps?.GPSLatitudeRef, 'S');
  const longitude = degrees(gps?.GPSLongitude, gps?.GPSLongitudeRef, 'W');
  if (latitude === null || longitude === null || Math.abs(latitude) > 90 || Math.abs(longitude) > 180) return null;
  if (latitude === 0 && longitude === 0) return null;
  return { latitude, longitude };
}

function degrees(value: unknown, ref: unknown, negative: string): number | null {
  if (!Array.isArray(value) || value.length !== 3 || !value.every((n) => typeof n === 'number' && Number.isFinite(n)))
    return null;
  const [d, m, s] = value as number[];
  const sign = typeof ref === 'string' && ref.trim().toUpperCase() === negative ? -1 : 1;
  return sign * (d + m / 60 + s / 3600);
}

// ---------------------------------------------------------------------------------------------
// Perceptual hash

/**
 * Difference hash (dHash, as photo managers use it for near-duplicates) of a greyscale image: the
 * image is averaged down to a 9x8 grid and each bit says whether a cell is brighter than its right
 * neighbour (64 bits), then to 8x9 for the cell below (64 more). It follows the picture's coarse
 * gradients, so a re-encoded, resized, lightly cropped, recoloured or blurred copy lands a few bits
 * away, while another scene lands about half the bits away (see photo-curation.ts for the
 * distances). Computed here on the ~512 px grey copy the analysis already decoded: no second decode,
 * which an npm hash package (decoding the file itself) would cost; a few microseconds a photo.
 */
export function differenceHash(grey: Uint8Array, width: number, height: number): string {
  const bits = [
    ...gradientBits(grey, width, height, 9, 8, 'row'),
    ...gradientBits(grey, width, height, 8, 9, 'column'),
  ];
  let hex = '';
  for (let i = 0; i < bits.length; i += 4)
    hex += ((bits[i] << 3) | (bits[i + 1] << 2) | (bits[i + 2] << 1) | bits[i + 3]).toString(16);
  return hex;
}

function gradientBits(
  grey: Uint8Array,
  width: number,
  height: number,
  cols: number,
  rows: number,
  direction: 'row' | 'column',
): number[] {
  const cells = new Float64Array(cols * rows);
  for (let cy = 0; cy < rows; cy++) {
    const y0 = Math.floor((cy * height) / rows);
    const y1 = Math.max(y0 + 1, Math.floor(((cy + 1) * height) / rows));
    for (let cx = 0; cx < cols; cx++) {
      const x0 = Math.floor((cx * width) / cols);
      const x1 = Math.max(x0 + 1, Math.floor(((cx + 1) * width) / cols));
      let sum = 0;
      for (let y = y0; y < y1 && y < height; y++) for (let x = x0; x < x1 && x < width; x++) sum += grey[y * width + x];
      cells[cy * cols + cx] = sum / ((y1 - y0) * (x1 - x0));
    }
  }
  const bits: number[] = [];
  if (direction === 'row') {
    for (let y = 0; y < rows; y++)
      for (let x = 0; x < cols - 1; x++) bits.push(cells[y * cols + x] > cells[y * cols + x + 1] ? 1 : 0);
  } else {
    for (let y = 0; y < rows - 1; y++)
      for (let x = 0; x < cols; x++) bits.push(cells[y * cols + x] > cells[(y + 1) * cols + x] ? 1 : 0);
  }
  return bits;
}

// ---------------------------------------------------------------------------------------------
// helpers

function toSingleChannel(data: Buffer, width: number, height: number, channels: number): Uint8Array {
  const pixels = width * height;
  if (channels === 1) return data;
  if (data.length < pixels * channels)
    throw new NotAnImageError('corrupt', 'The image data is truncated or corrupt and cannot be decoded');
  const out = new Uint8Array(pixels);
  for (let i = 0; i < pixels; i++) out[i] = data[i * channels];
  return out;
}

function mean(values: Uint8Array): number {
  if (values.length === 0) return 0;
  let sum = 0;
  for (let i = 0; i < values.length; i++) sum += values[i];
  return sum / values.length;
}

function clamp01(value: number): number {
  return Number.isFinite(value) ? Math.min(1, Math.max(0, value)) : 0;
}
