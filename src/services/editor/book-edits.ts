import {
  CAPTION_FONTS,
  PAGE_LAYOUTS,
  type Book,
  type BookPage,
  type PageCaption,
  type PageLayout,
  type PhotoSlot,
} from '../../domain/book';
import { ValidationError } from '../../domain/errors';
import { bindsSpreads, brokenSpread, isSpreadContinuation, isSpreadStart } from '../../domain/book-spreads';
import type { Binding } from '../../domain/print-production';
import { pageSide } from '../../domain/print-safe-area';
import { MAX_ZOOM, type SlotCrop } from '../../domain/slot-crop';
import { blankPage, layoutSlots, placeOnLayout } from '../projects/book-builder';
import { TEMPLATE_ASSETS } from '../projects/template';

/** The product's page bounds an edit must keep (even counts, as the book builder makes them). */
export interface PageBounds {
  minPages: number;
  maxPages: number;
}

/** A photo's place in the book: an interior page (1-based) and the slot's index on it. */
export interface SlotRef {
  page: number;
  slot: number;
}

/*
 * The edits a customer makes in the editor, as pure functions from a book to the next book. Each
 * refuses an edit the book cannot take (a page that does not exist, a count outside the product's
 * bounds, an odd count) with the field that is wrong, and never changes its input. A spread's two
 * pages (domain/book-spreads.ts) stay together: an edit that would leave half a spread, or start
 * one on a right-hand page, is refused (SPREAD_SPLIT) naming the field that would do it; taking the
 * spread's photo out of the book leaves both pages blank.
 */

export function movePage(book: Book, from: number, to: number): Book {
  const pages = [...book.pages];
  pageAt(pages, from, 'from');
  pageAt(pages, to, 'to');
  const [moved] = pages.splice(from - 1, 1);
  pages.splice(to - 1, 0, moved);
  return keepingSpreads({ ...book, pages: renumber(pages) }, 'to', 'set another layout on the spread first');
}

/** Swaps the photos of two slots (on one page or two); the slots keep their geometry. */
export function swapPhotos(book: Book, a: SlotRef, b: SlotRef): Book {
  const pages = book.pages.map((page) => ({ ...page, photos: page.photos.map((slot) => ({ ...slot })) }));
  const first = slotAt(pages, a, 'a');
  const second = slotAt(pages, b, 'b');
  [first.photoId, second.photoId] = [second.photoId, first.photoId];
  // A crop was chosen for the photo that sat there: the photo that arrives starts automatic.
  delete first.crop;
  delete second.crop;
  return { ...book, pages };
}

/**
 * Moves a photo to a free slot of another page (a blank page becomes a one-photo page); the page it
 * leaves closes the gap, and becomes blank when it was its only photo.
 */
export function movePhoto(book: Book, from: SlotRef, toPage: number): Book {
  const source = pageAt(book.pages, from.page, 'from.page');
  const { photoId } = slotAt(book.pages, from, 'from');
  const target = pageAt(book.pages, toPage, 'toPage');
  if (target.number === source.number)
    throw ValidationError.field('toPage', 'is the page the photo is on already', 'SAME_PAGE');
  if (isSpreadContinuation(target)) throw spreadHalf('toPage', target);
  const targetLayout: PageLayout = target.layout === 'blank' ? 'full' : target.layout;
  const room = layoutSlots(targetLayout).length;
  if (target.photos.length >= room) {
    throw ValidationError.field(
      'toPage',
      `page ${toPage} (${target.layout}) has no free slot: change its layout or swap photos instead`,
      'PAGE_FULL',
    );
  }
  const remaining = source.photos.filter((_, i) => i !== from.slot).map((slot) => slot.photoId);
  const relaid = (page: BookPage, layout: PageLayout, photoIds: string[]): BookPage => ({
    ...placeOnLayout(layout, photoIds),
    number: page.number,
    texts: page.texts,
    // The customer's text boxes are the page's, not its photos': they stay where they were.
    ...(page.captions ? { captions: page.captions } : {}),
  });
  return {
    ...book,
    pages: blankLoneHalves(
      book.pages.map((page) => {
        if (page.number === source.number) return relaid(page, remaining.length ? source.layout : 'blank', remaining);
        if (page.number === target.number)
          return relaid(page, targetLayout, [...target.photos.map((slot) => slot.photoId), photoId]);
        return page;
      }),
    ),
  };
}

/** Where placePhoto puts a photo: into a slot (the photo there goes back to the unused ones) or a page's free slot. */
export type PhotoTarget = { slot: SlotRef; toPage?: undefined } | { slot?: undefined; toPage: number };

/**
 * Puts one of the project's photos (an unused one, or one just uploaded) into the book. Into a slot:
 * the photo there leaves the book (it stays among the project's photos) and the slot's crop goes back
 * to automatic. Onto a page: into its free slot, as movePhoto does. A photo already in the book is
 * moved instead of shown twice: swapped with the slot's photo, or moved to the page.
 */
export function placePhotoAt(book: Book, photoId: string, target: PhotoTarget): Book {
  if ((target.slot == null) === (target.toPage == null))
    throw ValidationError.field(
      'slot',
      'give either slot (the photo there is replaced) or toPage (a free slot of that page)',
    );
  const placed = findPhoto(book, photoId);
  if (target.slot) {
    slotAt(book.pages, target.slot, 'slot');
    if (placed && placed.page === target.slot.page && placed.slot === target.slot.slot)
      throw ValidationError.field('photoId', 'is the photo in that slot already', 'SAME_SLOT');
    if (placed) return swapPhotos(book, placed, target.slot);
    // A new photo starts on the automatic crop.
    return changeSlot(book, target.slot, ({ crop: _old, ...rest }) => ({ ...rest, photoId }));
  }
  const toPage = target.toPage as number;
  if (placed) return movePhoto(book, placed, toPage);
  const page = pageAt(book.pages, toPage, 'toPage');
  if (isSpreadContinuation(page)) throw spreadHalf('toPage', page);
  const layout: PageLayout = page.layout === 'blank' ? 'full' : page.layout;
  if (page.photos.length >= layoutSlots(layout).length) throw pageFull(page);
  const relaid: BookPage = {
    ...placeOnLayout(layout, [...page.photos.map((slot) => slot.photoId), photoId]),
    number: page.number,
    texts: page.texts,
    ...(page.captions ? { captions: page.captions } : {}),
  };
  // The slots that stay keep their crops: placeOnLayout lays the same slots out again in the same order.
  relaid.photos = relaid.photos.map((slot, i) =>
    page.photos[i]?.crop ? { ...slot, crop: page.photos[i].crop } : slot,
  );
  return { ...book, pages: book.pages.map((p) => (p.number === page.number ? relaid : p)) };
}

/**
 * Takes the photo of a slot out of the book (it stays among the project's photos, unused): the page
 * closes the gap as movePhoto's source page does, and becomes blank when it was its only photo.
 */
export function unplacePhoto(book: Book, ref: SlotRef): Book {
  slotAt(book.pages, ref, 'slot');
  const pages = book.pages.map((page) => {
    if (page.number !== ref.page) return page;
    const remaining = page.photos.filter((_, i) => i !== ref.slot);
    const relaid: BookPage = {
      ...placeOnLayout(
        remaining.length ? page.layout : 'blank',
        remaining.map((slot) => slot.photoId),
      ),
      number: page.number,
      texts: page.texts,
      ...(page.captions ? { captions: page.captions } : {}),
    };
    // A crop is a point of its photo and a zoom: it holds in the photo's new slot too.
    relaid.photos = relaid.photos.map((slot, i) => (remaining[i].crop ? { ...slot, crop: remaining[i].crop } : slot));
    return relaid;
  });
  return { ...book, pages: blankLoneHalves(pages) };
}

function findPhoto(book: Book, photoId: string): SlotRef | undefined {
  for (const page of book.pages) {
    const slot = page.photos.findIndex((s) => s.photoId === photoId);
    if (slot >= 0) return { page: page.number, slot };
  }
  return undefined;
}

function pageFull(page: BookPage): ValidationError {
  return ValidationError.field(
    'toPage',
    `page ${page.number} (${page.layout}) has no free slot: change its layout or swap photos instead`,
    'PAGE_FULL',
  );
}

/**
 * Re-lays a page's photos on another layout; a layout with fewer slots than the page has photos is
 * refused. `spread` (a layflat `binding` only) is set on a left-hand page whose right-hand page holds
 * no photo, which becomes its continuation; another layout on a spread's left page leaves the spread
 * (its right page becomes blank). A spread's right page has no layout of its own.
 */
export function setPageLayout(book: Book, pageNumber: number, layout: string, binding?: Binding): Book {
  if (!(PAGE_LAYOUTS as readonly string[]).includes(layout)) {
    throw ValidationError.field('layout', `must be one of ${PAGE_LAYOUTS.join(', ')}`, 'UNKNOWN_LAYOUT');
  }
  const page = pageAt(book.pages, pageNumber, 'page');
  if (isSpreadContinuation(page)) throw spreadHalf('page', page);
  if (layout === 'spread') checkSpreadStart(book, page, binding);
  const room = layoutSlots(layout as PageLayout).length;
  if (page.photos.length > room) {
    throw ValidationError.field(
      'layout',
      `${layout} holds ${room} photo(s); page ${pageNumber} has ${page.photos.length}: move some first`,
      'LAYOUT_TOO_SMALL',
    );
  }
  const relaid: BookPage = {
    ...placeOnLayout(
      layout as PageLayout,
      page.photos.map((slot) => slot.photoId),
    ),
    number: pageNumber,
    texts: page.texts,
    ...(page.captions ? { captions: page.captions } : {}),
    // Chosen here, so deliberate: the preflight's blank-page warning leaves it alone.
    ...(layout === 'blank' ? { blankChosen: true as const } : {}),
  };
  // The slot of a photo that stays where it was (a spread laid again) keeps its crop.
  if (layout === page.layout)
    relaid.photos = relaid.photos.map((slot, i) =>
      page.photos[i]?.crop ? { ...slot, crop: page.photos[i].crop } : slot,
    );
  const pages = book.pages.map((p) => {
    if (p.number === pageNumber) return relaid;
    // The right-hand page joins the spread, keeping its own texts and captions.
    if (layout === 'spread' && p.number === pageNumber + 1) return { ...p, layout: 'spread' as const, photos: [] };
    return p;
  });
  return { ...book, pages: blankLoneHalves(pages) };
}

/** A spread starts on a layflat book's left-hand page whose facing page is free (setPageLayout). */
function checkSpreadStart(book: Book, page: BookPage, binding: Binding | undefined): void {
  if (!bindsSpreads(binding))
    throw ValidationError.field(
      'layout',
      `spread runs one photo across the fold, which only a layflat binding opens flat; this product is ${binding ?? 'not layflat'}`,
      'SPREAD_NEEDS_LAYFLAT',
    );
  if (pageSide(page.number) !== 'left')
    throw ValidationError.field(
      'page',
      `page ${page.number} is a right-hand page: a spread starts on an even (left-hand) page`,
      'SPREAD_ON_RIGHT_PAGE',
    );
  const facing = book.pages[page.number];
  if (!facing)
    throw ValidationError.field(
      'page',
      `page ${page.number} is the last page: a spread needs the page after it`,
      'SPREAD_NEEDS_FACING_PAGE',
    );
  if (facing.photos.length > 0 && !isSpreadStart(page))
    throw ValidationError.field(
      'page',
      `page ${facing.number}, the right half of the spread, holds ${facing.photos.length} photo(s): move them first`,
      'SPREAD_NEEDS_FACING_PAGE',
    );
}

/** The refusal of an edit aimed at a spread's right page, which has no slot of its own. */
function spreadHalf(path: string, page: BookPage): ValidationError {
  return ValidationError.field(
    path,
    `page ${page.number} is the right half of the spread on page ${page.number - 1}: change page ${page.number - 1} instead`,
    'SPREAD_HALF',
  );
}

/** A spread's right page whose left page left the spread (its photo went, another layout) becomes blank. */
function blankLoneHalves(pages: BookPage[]): BookPage[] {
  return pages.map((page, i) =>
    isSpreadContinuation(page) && pages[i - 1]?.layout !== 'spread'
      ? {
          ...blankPage(),
          number: page.number,
          texts: page.texts,
          ...(page.captions ? { captions: page.captions } : {}),
        }
      : page,
  );
}

/** The book, or the refusal naming `path` when the edit would leave half a spread or start one on a right page. */
function keepingSpreads(book: Book, path: string, hint: string): Book {
  const broken = brokenSpread(book.pages);
  if (broken)
    throw ValidationError.field(
      path,
      `${broken.reason}: a spread's two pages stay together, on an even page and the one after it (${hint})`,
      'SPREAD_SPLIT',
    );
  return book;
}

/** The cover's title and subtitle (an empty subtitle removes it); the title is required. */
export function setCoverTexts(book: Book, title: string, subtitle: string | null | undefined): Book {
  const trimmed = title.trim();
  const sub = subtitle?.trim();
  if (!trimmed) throw ValidationError.field('title', 'must not be empty');
  // The same bounds as the template's text assets that generate fills (custom.title, custom.subtitle).
  if (trimmed.length > TEMPLATE_ASSETS.title.maxLength)
    throw ValidationError.field('title', `must be at most ${TEMPLATE_ASSETS.title.maxLength} characters`);
  if (sub && sub.length > TEMPLATE_ASSETS.subtitle.maxLength)
    throw ValidationError.field('subtitle', `must be at most ${TEMPLATE_ASSETS.subtitle.maxLength} characters`);
  const texts = book.cover.texts.filter((t) => t.assetId !== 'title' && t.assetId !== 'subtitle');
  texts.unshift({ assetId: 'title', text: trimmed }, ...(sub ? [{ assetId: 'subtitle', text: sub }] : []));
  const { subtitle: _old, ...cover } = book.cover;
  return { ...book, cover: { ...cover, title: trimmed, ...(sub ? { subtitle: sub } : {}), texts } };
}

/** Inserts two blank pages (one leaf) after page `after` (0: at the front). */
export function addPages(book: Book, after: number, bounds: PageBounds): Book {
  if (!Number.isInteger(after) || after < 0 || after > book.pages.length) {
    throw ValidationError.field('after', `must be a page number between 0 and ${book.pages.length}`);
  }
  if (book.pages.length + 2 > bounds.maxPages) {
    throw ValidationError.field(
      'after',
      `the product has at most ${bounds.maxPages} pages; the book has ${book.pages.length}`,
      'PAGE_LIMIT',
    );
  }
  const pages = [...book.pages];
  pages.splice(after, 0, blankPage(), blankPage());
  return keepingSpreads({ ...book, pages: renumber(pages) }, 'after', 'add the pages before or after the spread');
}

/** Removes the given pages: an even number of them, leaving at least the product's minimum. */
export function removePages(book: Book, numbers: number[], bounds: PageBounds): Book {
  const unique = [...new Set(numbers)];
  if (unique.length === 0 || unique.length % 2 === 1) {
    throw ValidationError.field(
      'pages',
      'must name an even number of pages, so the book keeps an even page count',
      'ODD_PAGE_COUNT',
    );
  }
  unique.forEach((n, i) => pageAt(book.pages, n, `pages.${i}`));
  if (book.pages.length - unique.length < bounds.minPages) {
    throw ValidationError.field(
      'pages',
      `the product needs at least ${bounds.minPages} pages; the book has ${book.pages.length}`,
      'PAGE_LIMIT',
    );
  }
  return keepingSpreads(
    { ...book, pages: renumber(book.pages.filter((p) => !unique.includes(p.number))) },
    'pages',
    'remove both pages of a spread, or pages that keep the spreads after them on even pages',
  );
}

/** Where the slot's photo sits: the point it is centred on (0..1 of the photo) and the zoom (1..5); null: automatic. */
export function setSlotCrop(book: Book, ref: SlotRef, crop: SlotCrop | null): Book {
  slotAt(book.pages, ref, 'slot');
  if (crop) {
    for (const side of ['x', 'y'] as const) {
      if (!Number.isFinite(crop[side]) || crop[side] < 0 || crop[side] > 1)
        throw ValidationError.field(`crop.${side}`, 'must be a number from 0 to 1 (a point of the photo)');
    }
    if (!Number.isFinite(crop.zoom) || crop.zoom < 1 || crop.zoom > MAX_ZOOM)
      throw ValidationError.field('crop.zoom', `must be a number from 1 (the photo covers the slot) to ${MAX_ZOOM}`);
  }
  return changeSlot(book, ref, ({ crop: _old, ...rest }) =>
    crop ? { ...rest, crop: { x: crop.x, y: crop.y, zoom: crop.zoom } } : rest,
  );
}

/** The book with one slot changed, every other page and slot as it was. */
function changeSlot(book: Book, ref: SlotRef, change: (slot: PhotoSlot) => PhotoSlot): Book {
  return {
    ...book,
    pages: book.pages.map((page) =>
      page.number !== ref.page
        ? page
        : { ...page, photos: page.photos.map((slot, i) => (i === ref.slot ? change(slot) : slot)) },
    ),
  };
}

/** At most this many text boxes on a page, each at most this long: a caption, not a chapter. */
export const MAX_CAPTIONS = 10;
export const MAX_CAPTION_LENGTH = 500;
export const CAPTION_SIZE_PT = { min: 6, max: 72 } as const;

/** Replaces the text boxes of a page (an empty list removes them). */
export function setPageCaptions(book: Book, pageNumber: number, captions: PageCaption[]): Book {
  pageAt(book.pages, pageNumber, 'page');
  if (captions.length > MAX_CAPTIONS)
    throw ValidationError.field('captions', `a page holds at most ${MAX_CAPTIONS} text boxes`);
  const checked = captions.map((caption, i) => checkCaption(caption, `captions.${i}`));
  return {
    ...book,
    pages: book.pages.map((page) => {
      if (page.number !== pageNumber) return page;
      const { captions: _old, ...rest } = page;
      return checked.length ? { ...rest, captions: checked } : rest;
    }),
  };
}

function checkCaption(caption: PageCaption, path: string): PageCaption {
  const text = typeof caption.text === 'string' ? caption.text.trim() : '';
  if (!text) throw ValidationError.field(`${path}.text`, 'must not be empty');
  if (text.length > MAX_CAPTION_LENGTH)
    throw ValidationError.field(`${path}.text`, `must be at most ${MAX_CAPTION_LENGTH} characters`);
  if (!(CAPTION_FONTS as readonly string[]).includes(caption.font))
    throw ValidationError.field(`${path}.font`, `must be one of ${CAPTION_FONTS.join(', ')}`, 'UNKNOWN_FONT');
  if (!Number.isFinite(caption.sizePt) || caption.sizePt < CAPTION_SIZE_PT.min || caption.sizePt > CAPTION_SIZE_PT.max)
    throw ValidationError.field(
      `${path}.sizePt`,
      `must be from ${CAPTION_SIZE_PT.min} to ${CAPTION_SIZE_PT.max} points`,
    );
  for (const side of ['x', 'y'] as const) {
    if (!Number.isFinite(caption[side]) || caption[side] < 0 || caption[side] >= 1)
      throw ValidationError.field(`${path}.${side}`, 'must be from 0 to below 1 (of the page)');
  }
  if (!Number.isFinite(caption.width) || caption.width <= 0 || caption.x + caption.width > 1)
    throw ValidationError.field(`${path}.width`, 'must be above 0, and x + width at most 1 (of the page)');
  const { font, sizePt, x, y, width } = caption;
  return { text, font, sizePt, x, y, width };
}

function pageAt(pages: BookPage[], number: number, path: string): BookPage {
  if (!Number.isInteger(number) || number < 1 || number > pages.length) {
    throw ValidationError.field(path, `must be a page number between 1 and ${pages.length}`, 'NO_SUCH_PAGE');
  }
  return pages[number - 1];
}

function slotAt(pages: BookPage[], ref: SlotRef, path: string) {
  const page = pageAt(pages, ref.page, `${path}.page`);
  const slot = page.photos[ref.slot];
  if (!Number.isInteger(ref.slot) || !slot) {
    throw ValidationError.field(
      `${path}.slot`,
      `page ${ref.page} has ${page.photos.length} photo slot(s), numbered from 0`,
      'NO_SUCH_SLOT',
    );
  }
  return slot;
}

function renumber(pages: BookPage[]): BookPage[] {
  return pages.map((page, i) => ({ ...page, number: i + 1 }));
}
