/**
 * What the preflight finds in a book before it is ordered. `blocking`: the book cannot be printed
 * as it is (`POST /v2/print` refuses it with NOT_PRINTABLE); `warning`: it prints, but may
 * disappoint. docs/api.md, Preflight, lists every code.
 */
export const PREFLIGHT_SEVERITIES = ['blocking', 'warning'] as const;
type PreflightSeverity = (typeof PREFLIGHT_SEVERITIES)[number];

export const PREFLIGHT_CODES = [
  'BOOK_NOT_BUILT',
  'PAGE_COUNT_ODD',
  'PAGE_COUNT_OUT_OF_RANGE',
  'NO_USABLE_PHOTO',
  'TOO_FEW_PHOTOS',
  'BLANK_PAGE',
  'PHOTO_FAILED',
  'PHOTO_MISSING',
  'EMPTY_SLOT',
  'RESOLUTION_TOO_LOW',
  'LOW_RESOLUTION',
  'TEXT_CUT',
  'FACE_ON_FOLD',
] as const;
type PreflightCode = (typeof PREFLIGHT_CODES)[number];

export interface PreflightProblem {
  code: PreflightCode;
  severity: PreflightSeverity;
  /** The interior page (1-based); 0 is the cover. Absent for a problem of the whole book. */
  page?: number;
  /** The photo slot on that page, numbered from 0 in reading order. */
  slot?: number;
  message: string;
}

/** A photo of the project that could not be used (its download or decoding failed), and why. */
export interface FailedPhoto {
  id: string;
  /** The id the client gave with the URL, if any. */
  clientPhotoId?: string;
  url: string;
  problem: { code: string; message: string };
}

export interface Preflight {
  /** No blocking problem: `/v2/print` accepts the book as it is now. */
  printable: boolean;
  problems: PreflightProblem[];
  /** Distinct photos placed in the book (pages and cover) that can be printed. */
  usablePhotos: number;
  /** Every photo of the project that failed, in the client's order, with its reason. */
  failedPhotos: FailedPhoto[];
}

/** The page number the preflight gives the cover. */
export const COVER_PAGE = 0;

/** The problem of a photo whose download succeeded but whose stored file is gone (it has no problem of its own). */
export const FILE_MISSING_PROBLEM = { code: 'FILE_MISSING', message: 'the stored file of the photo is gone' } as const;
