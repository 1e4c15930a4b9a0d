import type { Book, BookPage } from './book';
import type { Binding } from './print-production';
import type { FaceBox } from './face-box';
import { GUTTER_SAFE_MM, pageSide, spreadSafeAreas } from './print-safe-area';
import { automaticCrop, cropRect, type SlotCrop } from './slot-crop';

/*
 * The rules of a spread (PAGE_LAYOUTS `spread`): one photo across the two pages of an opening, which
 * only a layflat binding prints without losing the middle of the photo in the fold.
 */

/** Only a layflat book opens flat: on any other binding the middle of a spread disappears into the spine. */
export function bindsSpreads(binding: Binding | undefined): boolean {
  return binding === 'layflat';
}

/** The left-hand page of a spread: it holds the spread's slot. */
export function isSpreadStart(page: BookPage): boolean {
  return page.layout === 'spread' && pageSide(page.number) === 'left';
}

/** The right-hand page of a spread: the continuation of the photo on the page before it, with no slot of its own. */
export function isSpreadContinuation(page: BookPage): boolean {
  return page.layout === 'spread' && pageSide(page.number) === 'right';
}

/**
 * Where the book's spreads do not hold together, or undefined when they all do: a spread page on a
 * right-hand page without its left half before it, a left half without its continuation after it
 * (or on the last page), or a continuation holding photos.
 */
export function brokenSpread(pages: BookPage[]): { page: number; reason: string } | undefined {
  for (const [i, page] of pages.entries()) {
    if (page.layout !== 'spread') continue;
    if (isSpreadStart(page)) {
      const next = pages[i + 1];
      if (next?.layout !== 'spread')
        return { page: page.number, reason: `the spread on page ${page.number} would lose its right half` };
    } else {
      if (pages[i - 1]?.layout !== 'spread')
        return {
          page: page.number,
          reason: `a spread would start on page ${page.number}, a right-hand page: a spread starts on an even (left-hand) page`,
        };
      if (page.photos.length > 0)
        return { page: page.number, reason: `page ${page.number} is the right half of a spread and holds no photo` };
    }
  }
  return undefined;
}

/**
 * Page `number` of the book as the print render sees it: a spread's right half carries its left
 * half's slot moved one page width to the left (`x` -1..1), so each page prints its half of the one
 * photo and the two halves meet at the fold; every other page as it is.
 */
export function printedPage(book: Book, number: number): BookPage {
  const page = book.pages[number - 1];
  if (!isSpreadContinuation(page)) return page;
  const start = book.pages[number - 2];
  return { ...page, photos: start.photos.map((slot) => ({ ...slot, x: slot.x - 1 })) };
}

/**
 * Whether the automatic crop of a photo across a spread keeps each of its faces wholly on one page,
 * clear of the fold band (print-safe-area.ts spreadSafeAreas): a photo about as wide as the opening
 * cannot be moved sideways, so one whose face sits in the middle is given a single page instead.
 */
export function spreadKeepsFaces(
  photo: { width: number; height: number },
  faces: readonly FaceBox[] | null | undefined,
  trim: { widthMm: number; heightMm: number },
): boolean {
  if (!faces?.length) return true;
  const slotMm = { width: 2 * trim.widthMm, height: trim.heightMm };
  const areas = spreadSafeAreas(SPREAD_SLOT, trim);
  const rect = cropRect(photo, slotMm, automaticCrop(photo, slotMm, faces, areas));
  return faces.every((face) => {
    const left = (face.x - rect.left) / rect.width;
    const right = (face.x + face.width - rect.left) / rect.width;
    return areas.some((area) => left >= area.left - 1e-9 && right <= area.right + 1e-9);
  });
}

/** A spread's slot: the whole opening (services/projects/page-layouts.ts). */
const SPREAD_SLOT = { x: 0, y: 0, width: 2, height: 1 };

/**
 * How many of a spread photo's faces its crop (the customer's, else the automatic one) puts across
 * the fold band, GUTTER_SAFE_MM either side of the fold, where the opened book bends the paper: the
 * preflight warns of them. A face the crop leaves out of the picture is not counted.
 */
export function facesOnFold(
  photo: { width: number; height: number },
  faces: readonly FaceBox[] | null | undefined,
  trim: { widthMm: number; heightMm: number },
  crop?: SlotCrop,
): number {
  if (!faces?.length) return 0;
  const slotMm = { width: 2 * trim.widthMm, height: trim.heightMm };
  const rect = cropRect(photo, slotMm, crop ?? automaticCrop(photo, slotMm, faces, spreadSafeAreas(SPREAD_SLOT, trim)));
  // The band in 0..1 of the spread's width.
  const halfBand = GUTTER_SAFE_MM / slotMm.width;
  return faces.filter((face) => {
    const left = (face.x - rect.left) / rect.width;
    const right = (face.x + face.width - rect.left) / rect.width;
    return left < 0.5 + halfBand && right > 0.5 - halfBand;
  }).length;
}
