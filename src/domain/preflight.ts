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
  'PHOTO_FAILED',
  'PHOTO_MISSING',
  'EMPTY_SLOT',
  'RESOLUTION_TOO_LOW',
  'LOW_RESOLUTION',
  'TEXT_CUT',
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

export interface Preflight {
  /** No blocking problem: `/v2/print` accepts the book as it is now. */
  printable: boolean;
  problems: PreflightProblem[];
}

/** The page number the preflight gives the cover. */
export const COVER_PAGE = 0;
