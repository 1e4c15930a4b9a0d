/** How a book is laid out from the photos: in capture order (`fastbook`) or grouped by day (`smartbook`). */
export const LAYOUT_TYPES = ['fastbook', 'smartbook'] as const;
export type LayoutType = (typeof LAYOUT_TYPES)[number];

/** The arrangements of photos on an interior page. */
export const PAGE_LAYOUTS = ['full', 'two-side-by-side', 'two-stacked', 'grid-4', 'blank'] as const;
export type PageLayout = (typeof PAGE_LAYOUTS)[number];

/**
 * The book as built for the editor and the print renderer. Slot geometry is relative to the page
 * (0..1 of the trim box), so the same book renders at any resolution.
 */
export interface PhotoSlot {
  photoId: string;
  x: number;
  y: number;
  width: number;
  height: number;
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
