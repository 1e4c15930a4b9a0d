import { bindsSpreads } from '../../domain/book-spreads';
import type { Binding } from '../../domain/print-production';
import type { Book, BookPage, LayoutType, PageLayout, TextSlot } from '../../domain/book';
import type { PhotoCuration } from '../../domain/curation';
import type { BookPhoto } from './book-photo';
import { placeOnLayout } from './page-layouts';
import { coverPhoto, smartbookPages } from './smartbook-pages';

export interface BookInput {
  layoutType: LayoutType;
  photos: BookPhoto[];
  minPages: number;
  maxPages: number;
  /** Text assets by id (title, subtitle, dedication, backCover, spine). */
  texts: Record<string, string>;
  /** Photo id of a custom cover image, if the client gave one. */
  coverPhotoId?: string;
  /** Title when the cover has no text: the sku. */
  fallbackTitle: string;
  /**
   * `smartbook`: the curation of the photos (photo-curation.ts); only those kept are laid out, by
   * their score. Without it every photo is kept, scored by its quality.
   */
  curation?: Map<string, PhotoCuration>;
  /** The trim size of a page and the front cover: layouts fit the photos' shapes and keep them above LOW_DPI. */
  format?: { widthMm: number; heightMm: number };
  /** The product's binding: a `layflat` smartbook gives an event's best landscape photo a spread. */
  binding?: Binding;
}

export { layoutSlots, placeOnLayout } from './page-layouts';

/**
 * Lays out a book. `fastbook` fills pages in capture-date order with every photo; `smartbook` lays
 * out the photos its curation kept, in events (smartbook-pages.ts), each page's layout fitted to its
 * photos. Either way the page count is even and within the product's bounds, and no kept photo is
 * dropped unless the product's maximum forces denser pages.
 */
export function buildBook(input: BookInput): Book {
  const photos = [...input.photos].sort(byCaptureDate);
  const { minPages, maxPages } = evenPageBounds(input.minPages, input.maxPages);
  const smart = input.layoutType === 'smartbook';
  const kept = smart && input.curation ? photos.filter((p) => input.curation?.get(p.id)?.kept !== false) : photos;
  const scoreOf = (p: BookPhoto) => input.curation?.get(p.id)?.score ?? p.quality;
  const pages = smart
    ? smartbookPages(kept, maxPages, scoreOf, input.format, bindsSpreads(input.binding))
    : fastbookPages(photos, maxPages);
  while (pages.length < minPages) pages.push(blankPage());
  if (pages.length % 2 === 1) pages.push(blankPage());
  pages.forEach((page, index) => (page.number = index + 1));
  if (input.texts.dedication) pages[0].texts.push({ assetId: 'dedication', text: input.texts.dedication });

  const title = input.texts.title?.trim() || input.fallbackTitle;
  const coverTexts: TextSlot[] = (['title', 'subtitle', 'spine', 'backCover'] as const)
    .filter((id) => input.texts[id])
    .map((id) => ({ assetId: id, text: input.texts[id] }));
  const best = smart
    ? coverPhoto(kept, scoreOf, input.format)
    : [...photos].sort((a, b) => b.quality - a.quality || a.position - b.position)[0];
  return {
    layoutType: input.layoutType,
    cover: {
      title,
      ...(input.texts.subtitle ? { subtitle: input.texts.subtitle } : {}),
      photoId: input.coverPhotoId ?? best?.id,
      texts: coverTexts,
    },
    pages,
  };
}

function fastbookPages(photos: BookPhoto[], maxPages: number): BookPage[] {
  if (photos.length === 0) return [];
  // One photo a page while the product has room, else the fewest photos a page that fit.
  const perPage = Math.min(4, Math.max(1, Math.ceil(photos.length / maxPages)));
  const pages: BookPage[] = [];
  for (let i = 0; i < photos.length; i += perPage) pages.push(layoutPage(photos.slice(i, i + perPage)));
  return fitWithin(pages, photos, maxPages);
}

/** Too many pages for the product: re-flow every photo at the density that fits. */
function fitWithin(pages: BookPage[], photos: BookPhoto[], maxPages: number): BookPage[] {
  if (pages.length <= maxPages) return pages;
  const perPage = Math.min(4, Math.ceil(photos.length / maxPages));
  const denser: BookPage[] = [];
  for (let i = 0; i < photos.length && denser.length < maxPages; i += perPage)
    denser.push(layoutPage(photos.slice(i, i + perPage)));
  return denser;
}

function layoutPage(photos: BookPhoto[]): BookPage {
  const layout: PageLayout =
    photos.length === 1
      ? 'full'
      : photos.length === 2
        ? photos.every((p) => p.width >= p.height)
          ? 'two-stacked'
          : 'two-side-by-side'
        : 'grid-4';
  return placeOnLayout(
    layout,
    photos.map((p) => p.id),
  );
}

export function blankPage(): BookPage {
  return placeOnLayout('blank', []);
}

/** Dated photos first, oldest first; undated ones after, in the client's order. */
function byCaptureDate(a: BookPhoto, b: BookPhoto): number {
  if (a.capturedAt && b.capturedAt) return a.capturedAt.getTime() - b.capturedAt.getTime() || a.position - b.position;
  if (a.capturedAt) return -1;
  if (b.capturedAt) return 1;
  return a.position - b.position;
}

/** The product's page bounds as books have them: even counts, at least two pages. */
export function evenPageBounds(min: number, max: number): { minPages: number; maxPages: number } {
  const minPages = even(Math.max(2, min), 'up');
  return { minPages, maxPages: Math.max(minPages, even(max, 'down')) };
}

function even(n: number, direction: 'up' | 'down'): number {
  if (n % 2 === 0) return n;
  return direction === 'up' ? n + 1 : n - 1;
}
