import type { SlotCrop } from './slot-crop';

/** How a book is laid out from the photos: in capture order (`fastbook`) or grouped by day (`smartbook`). */
export const LAYOUT_TYPES = ['fastbook', 'smartbook'] as const;
export type LayoutType = (typeof LAYOUT_TYPES)[number];

/**
 * The arrangements of photos on an interior page (slot geometry: services/projects/book-builder.ts
 * `layoutSlots`). The first five are the original grids; the others let a smartbook fit the page
 * to its photos: `centred` (one smaller photo), `hero-left` (a tall photo beside two), `hero-top`
 * (a wide photo over two), `three-columns`, `three-rows`, `hero-top-three`, `hero-left-three` and
 * `grid-6`.
 *
 * `spread` (layflat bindings only, domain/book-spreads.ts) runs one photo across both pages of an
 * opening, over the fold. Both pages of the opening carry `layout: 'spread'`: the left-hand page
 * (an even page number: page 1 is a right-hand page) holds the one slot, whose geometry spans the
 * whole opening, `x` and `width` in page widths from 0 to 2 (0..1 the left page, 1..2 the right);
 * the right-hand page that follows it holds no slot and is the spread's continuation (its own texts
 * and captions stay its own). A spread never starts on a right-hand page and never stands half.
 */
export const PAGE_LAYOUTS = [
  'full',
  'two-side-by-side',
  'two-stacked',
  'grid-4',
  'blank',
  'centred',
  'hero-left',
  'hero-top',
  'three-columns',
  'three-rows',
  'hero-top-three',
  'hero-left-three',
  'grid-6',
  'spread',
] as const;
export type PageLayout = (typeof PAGE_LAYOUTS)[number];

/**
 * The book as built for the editor and the print renderer. Slot geometry is relative to the page
 * (0..1 of the trim box), so the same book renders at any resolution.
 */
export interface PhotoSlot {
  photoId: string;
  /** 0..1 of the page's trim width; on a spread's left page 0..2, the opening (see PAGE_LAYOUTS). */
  x: number;
  y: number;
  width: number;
  height: number;
  /** Where the photo sits in the slot (slot-crop.ts); absent: the automatic crop. */
  crop?: SlotCrop;
}

/** The fonts a caption may be set in: they ship with the project and the print files use them. */
export const CAPTION_FONTS = ['Source Sans 3', 'Lora'] as const;
export type CaptionFont = (typeof CAPTION_FONTS)[number];

/**
 * A text box the customer put on a page. Its top-left corner and width are 0..1 of the trim box (as
 * slots are); its size is in points, so it is the same on paper at any DPI; its lines wrap to the width.
 */
export interface PageCaption {
  text: string;
  font: CaptionFont;
  sizePt: number;
  x: number;
  y: number;
  width: number;
}

export interface TextSlot {
  /** Template asset id, e.g. `title`. */
  assetId: string;
  text: string;
}

export interface BookPage {
  /** 1-based interior page number. */
  number: number;
  layout: PageLayout;
  photos: PhotoSlot[];
  texts: TextSlot[];
  /**
   * The customer chose this page blank (the editor's Blank layout): the preflight does not warn about
   * it. A page left blank by the builder's padding or by moving its photo away has no such mark.
   */
  blankChosen?: true;
  /** Text boxes placed by the customer (absent: none). */
  captions?: PageCaption[];
}

export interface BookCover {
  title: string;
  subtitle?: string;
  /** A project photo id, or a custom image asset's photo id. */
  photoId?: string;
  texts: TextSlot[];
}

export interface Book {
  layoutType: LayoutType;
  cover: BookCover;
  pages: BookPage[];
}
