import type { Book, BookPage, LayoutType, PageLayout, PhotoSlot, TextSlot } from '../../domain/book';

export interface BookPhoto {
  id: string;
  width: number;
  height: number;
  capturedAt: Date | null;
  quality: number;
  /** Position in the client's list: the tie-breaker that keeps the order stable. */
  position: number;
}

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
}

const MARGIN = 0.06;
const GUTTER = 0.03;

/**
 * Lays out a book. `fastbook` fills pages in capture-date order; `smartbook` groups photos by day,
 * gives the best-scored photo of each day a full page and pairs the rest by orientation. Either way
 * the page count is even and within the product's bounds, and no photo is dropped unless the
 * product's maximum forces denser pages.
 */
export function buildBook(input: BookInput): Book {
  const photos = [...input.photos].sort(byCaptureDate);
  const { minPages, maxPages } = evenPageBounds(input.minPages, input.maxPages);
  const pages = input.layoutType === 'smartbook' ? smartbookPages(photos, maxPages) : fastbookPages(photos, maxPages);
  while (pages.length < minPages) pages.push(blankPage());
  if (pages.length % 2 === 1) pages.push(blankPage());
  pages.forEach((page, index) => (page.number = index + 1));
  if (input.texts.dedication) pages[0].texts.push({ assetId: 'dedication', text: input.texts.dedication });

  const title = input.texts.title?.trim() || input.fallbackTitle;
  const coverTexts: TextSlot[] = (['title', 'subtitle', 'spine', 'backCover'] as const)
    .filter((id) => input.texts[id])
    .map((id) => ({ assetId: id, text: input.texts[id] }));
  const best = [...photos].sort((a, b) => b.quality - a.quality || a.position - b.position)[0];
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

function smartbookPages(photos: BookPhoto[], maxPages: number): BookPage[] {
  const pages: BookPage[] = [];
  for (const day of groupByDay(photos)) {
    const hero = [...day].sort((a, b) => b.quality - a.quality || a.position - b.position)[0];
    pages.push(layoutPage([hero]));
    const rest = day.filter((p) => p !== hero);
    // Pair like with like: two portraits side by side, two landscapes stacked.
    const portraits = rest.filter((p) => p.height > p.width);
    const others = rest.filter((p) => p.height <= p.width);
    for (const group of [portraits, others]) {
      for (let i = 0; i < group.length; i += 2) pages.push(layoutPage(group.slice(i, i + 2)));
    }
  }
  return pages.length <= maxPages ? pages : fitWithin(pages, photos, maxPages);
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

/** A page of `layout` with the photos in its slots, in order; the layout must have room for them. */
export function placeOnLayout(layout: PageLayout, photoIds: string[]): BookPage {
  const rects = layoutSlots(layout);
  return page(
    layout,
    photoIds.map((photoId, i) => ({ photoId, ...rects[i] })),
  );
}

/** The slots of each page layout, relative to the page (0..1), in reading order. */
export function layoutSlots(layout: PageLayout): Omit<PhotoSlot, 'photoId'>[] {
  const inner = 1 - 2 * MARGIN;
  const half = (inner - GUTTER) / 2;
  const rect = (x: number, y: number, width: number, height: number) => ({
    x: round(x),
    y: round(y),
    width: round(width),
    height: round(height),
  });
  switch (layout) {
    case 'full':
      return [rect(MARGIN, MARGIN, inner, inner)];
    case 'two-stacked':
      return [rect(MARGIN, MARGIN, inner, half), rect(MARGIN, MARGIN + half + GUTTER, inner, half)];
    case 'two-side-by-side':
      return [rect(MARGIN, MARGIN, half, inner), rect(MARGIN + half + GUTTER, MARGIN, half, inner)];
    case 'grid-4':
      return [0, 1, 2, 3].map((i) =>
        rect(MARGIN + (i % 2) * (half + GUTTER), MARGIN + Math.floor(i / 2) * (half + GUTTER), half, half),
      );
    case 'blank':
      return [];
  }
}

function page(layout: BookPage['layout'], photos: PhotoSlot[]): BookPage {
  return { number: 0, layout, photos, texts: [] };
}

export function blankPage(): BookPage {
  return page('blank', []);
}

function groupByDay(photos: BookPhoto[]): BookPhoto[][] {
  const days = new Map<string, BookPhoto[]>();
  for (const photo of photos) {
    const key = photo.capturedAt ? photo.capturedAt.toISOString().slice(0, 10) : 'undated';
    days.set(key, [...(days.get(key) ?? []), photo]);
  }
  return [...days.values()];
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

function round(n: number): number {
  return Math.round(n * 10_000) / 10_000;
}
