import { describe, expect, it } from 'vitest';
import type { Book, BookPage } from '../../../src/domain/book';
import { brokenSpread, printedPage } from '../../../src/domain/book-spreads';
import { ValidationError } from '../../../src/domain/errors';
import {
  addPages,
  movePage,
  movePhoto,
  placePhotoAt,
  removePages,
  setPageCaptions,
  setPageLayout,
  setSlotCrop,
  swapPhotos,
  unplacePhoto,
} from '../../../src/services/editor/book-edits';
import { blankPage, placeOnLayout } from '../../../src/services/projects/book-builder';

const BOUNDS = { minPages: 2, maxPages: 20 };

function bookOf(...pages: BookPage[]): Book {
  return {
    layoutType: 'smartbook',
    cover: { title: 'T', texts: [] },
    pages: pages.map((page, i) => ({ ...page, number: i + 1 })),
  };
}

/** Pages 1..6: a, b (page 2, a left page), blank, c, d, blank. */
const book = bookOf(
  placeOnLayout('full', ['a']),
  placeOnLayout('full', ['b']),
  blankPage(),
  placeOnLayout('full', ['c']),
  placeOnLayout('full', ['d']),
  blankPage(),
);
/** The same book with b across pages 2 and 3. */
const spread = setPageLayout(book, 2, 'spread', 'layflat');

function refusal(edit: () => unknown): { code: string; path: string; message: string } {
  try {
    edit();
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    return { code: error.code, path: error.errors[0].path, message: error.errors[0].message };
  }
  throw new Error('the edit was not refused');
}

const layouts = (b: Book) => b.pages.map((page) => page.layout);

describe('spreads in the book edits', () => {
  it('a spread on a left page of a layflat book takes both pages of the opening, its slot across them', () => {
    expect(layouts(spread)).toEqual(['full', 'spread', 'spread', 'full', 'full', 'blank']);
    expect(spread.pages[1].photos).toEqual([{ photoId: 'b', x: 0, y: 0, width: 2, height: 1 }]);
    expect(spread.pages[2].photos).toEqual([]);
    expect(brokenSpread(spread.pages)).toBeUndefined();
    // Print: the right page carries the same slot one page width to the left.
    expect(printedPage(spread, 3).photos).toEqual([{ photoId: 'b', x: -1, y: 0, width: 2, height: 1 }]);
    expect(printedPage(spread, 2)).toBe(spread.pages[1]);
  });

  it('refuses a spread on a non-layflat product, on a right-hand page, on the last page or over a page with photos', () => {
    for (const binding of ['hardcover', 'softcover', undefined] as const)
      expect(refusal(() => setPageLayout(book, 2, 'spread', binding))).toMatchObject({
        code: 'SPREAD_NEEDS_LAYFLAT',
        path: 'layout',
      });
    expect(refusal(() => setPageLayout(book, 3, 'spread', 'layflat'))).toMatchObject({
      code: 'SPREAD_ON_RIGHT_PAGE',
      path: 'page',
    });
    expect(refusal(() => setPageLayout(book, 6, 'spread', 'layflat'))).toMatchObject({
      code: 'SPREAD_NEEDS_FACING_PAGE',
      path: 'page',
    });
    expect(refusal(() => setPageLayout(book, 4, 'spread', 'layflat'))).toMatchObject({
      code: 'SPREAD_NEEDS_FACING_PAGE',
      path: 'page',
      message: expect.stringMatching(/page 5.*move them first/),
    });
  });

  it('leaving the spread on its left page blanks its right page; its right page has no layout of its own', () => {
    const left = setPageLayout(spread, 2, 'centred', 'layflat');
    expect(layouts(left)).toEqual(['full', 'centred', 'blank', 'full', 'full', 'blank']);
    expect(left.pages[1].photos.map((s) => s.photoId)).toEqual(['b']);
    expect(refusal(() => setPageLayout(spread, 3, 'full', 'layflat'))).toMatchObject({
      code: 'SPREAD_HALF',
      path: 'page',
    });
    // Laid out as a spread again, it keeps its crop.
    const cropped = setSlotCrop(spread, { page: 2, slot: 0 }, { x: 0.3, y: 0.5, zoom: 1.2 });
    expect(setPageLayout(cropped, 2, 'spread', 'layflat').pages[1].photos[0].crop).toEqual({
      x: 0.3,
      y: 0.5,
      zoom: 1.2,
    });
  });

  it('moving the spread photo away, or taking it out, leaves both pages blank, never half a spread', () => {
    for (const after of [movePhoto(spread, { page: 2, slot: 0 }, 6), unplacePhoto(spread, { page: 2, slot: 0 })]) {
      expect(layouts(after).slice(1, 3)).toEqual(['blank', 'blank']);
      expect(brokenSpread(after.pages)).toBeUndefined();
    }
  });

  it('refuses a photo moved or placed onto the right page, and the spread holds one photo', () => {
    expect(refusal(() => movePhoto(spread, { page: 1, slot: 0 }, 3))).toMatchObject({
      code: 'SPREAD_HALF',
      path: 'toPage',
    });
    expect(refusal(() => placePhotoAt(spread, 'x', { toPage: 3 }))).toMatchObject({
      code: 'SPREAD_HALF',
      path: 'toPage',
    });
    expect(refusal(() => placePhotoAt(spread, 'x', { toPage: 2 }))).toMatchObject({ code: 'PAGE_FULL' });
    expect(refusal(() => setSlotCrop(spread, { page: 3, slot: 0 }, null))).toMatchObject({ code: 'NO_SUCH_SLOT' });
    // Into the spread's slot, or swapped: the spread stays whole with the other photo.
    const placed = placePhotoAt(spread, 'x', { slot: { page: 2, slot: 0 } });
    expect(placed.pages[1]).toMatchObject({ layout: 'spread', photos: [{ photoId: 'x', width: 2 }] });
    const swapped = swapPhotos(spread, { page: 2, slot: 0 }, { page: 4, slot: 0 });
    expect(swapped.pages[1].photos[0]).toMatchObject({ photoId: 'c', width: 2 });
    expect(layouts(swapped)).toEqual(layouts(spread));
  });

  it('refuses page moves, additions and removals that would split a spread or move it onto a right page', () => {
    expect(refusal(() => movePage(spread, 2, 5))).toMatchObject({ code: 'SPREAD_SPLIT', path: 'to' });
    expect(refusal(() => movePage(spread, 1, 4))).toMatchObject({ code: 'SPREAD_SPLIT', path: 'to' });
    expect(refusal(() => movePage(spread, 3, 1))).toMatchObject({ code: 'SPREAD_SPLIT', path: 'to' });
    expect(refusal(() => addPages(spread, 2, BOUNDS))).toMatchObject({ code: 'SPREAD_SPLIT', path: 'after' });
    expect(refusal(() => removePages(spread, [3, 4], BOUNDS))).toMatchObject({ code: 'SPREAD_SPLIT', path: 'pages' });
    expect(refusal(() => removePages(spread, [1, 4], BOUNDS))).toMatchObject({ code: 'SPREAD_SPLIT', path: 'pages' });
    // Edits that keep the pair on an even page and the one after it are taken.
    expect(layouts(movePage(spread, 4, 5))).toEqual(['full', 'spread', 'spread', 'full', 'full', 'blank']);
    expect(layouts(addPages(spread, 1, BOUNDS)).slice(3, 5)).toEqual(['spread', 'spread']);
    expect(layouts(addPages(spread, 3, BOUNDS)).slice(1, 3)).toEqual(['spread', 'spread']);
    expect(layouts(removePages(spread, [2, 3], BOUNDS))).toEqual(['full', 'full', 'full', 'blank']);
    expect(layouts(removePages(spread, [5, 6], BOUNDS)).slice(1, 3)).toEqual(['spread', 'spread']);
  });

  it('captions stay on their own page of the spread, the pair untouched', () => {
    const caption = { text: 'Dunes', font: 'Lora' as const, sizePt: 14, x: 0.1, y: 0.1, width: 0.5 };
    const captioned = setPageCaptions(spread, 3, [caption]);
    expect(captioned.pages[2]).toMatchObject({ layout: 'spread', photos: [], captions: [caption] });
    // Leaving the spread keeps the right page's caption on its now blank page.
    expect(setPageLayout(captioned, 2, 'full', 'layflat').pages[2]).toMatchObject({
      layout: 'blank',
      captions: [caption],
    });
  });
});
